import { applyDecorators } from '@nestjs/common';
import { ApiBadRequestResponse, ApiBearerAuth, ApiConflictResponse, ApiForbiddenResponse, ApiNotFoundResponse, ApiTooManyRequestsResponse, ApiUnauthorizedResponse } from '@nestjs/swagger';

const problem = { description: 'An RFC 9457 problem document (application/problem+json) with a machine `code`.' };

/** The errors every authenticated endpoint may answer with. */
export function ApiAuthenticated() {
  return applyDecorators(
    ApiBearerAuth(),
    ApiUnauthorizedResponse({ description: `No, unknown or revoked token. ${problem.description}` }),
    ApiTooManyRequestsResponse({ description: `Rate limit exceeded; see Retry-After. ${problem.description}` }),
    ApiBadRequestResponse({ description: `Bad input; \`fields\` names the fields at fault, \`violations\` lists broken rules with their rule IDs. ${problem.description}` }),
  );
}

/** The errors of endpoints about one game. */
export function ApiGameErrors() {
  return applyDecorators(
    ApiNotFoundResponse({ description: `No such game that you can see. ${problem.description}` }),
    ApiForbiddenResponse({ description: `You hold no seat in that game. ${problem.description}` }),
    ApiConflictResponse({ description: `Stale expectedVersion (\`currentVersion\` says where the game is), not your turn, or the game has ended. ${problem.description}` }),
  );
}

/** The errors of a finished game's export: no 403, since whoever may read the game may export it. */
export function ApiExportErrors() {
  return applyDecorators(
    ApiNotFoundResponse({ description: `No such game that you can see. ${problem.description}` }),
    ApiConflictResponse({ description: `The game has not ended (\`game/not_finished\`). ${problem.description}` }),
  );
}
