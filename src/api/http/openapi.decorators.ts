import { applyDecorators } from '@nestjs/common';
import { ApiBearerAuth, ApiConflictResponse, ApiForbiddenResponse, ApiNotFoundResponse, ApiServiceUnavailableResponse, ApiUnauthorizedResponse } from '@nestjs/swagger';

export const problem = { description: 'An RFC 9457 problem document (application/problem+json) with a machine `code`.' };

/** The 503 of any operation that reaches the database (declared on every /api/v1 operation in api-docs.ts). */
export const serverBusy = 'The database was saturated for longer than a request may wait (`server/busy`): nothing was done; try again after Retry-After.';

/**
 * The 503 of an operation that loads a game: besides a busy database, a game of a game system
 * this server lacks, which retrying here will not change (a server with that system plays it).
 */
export function ApiGameSystemUnavailable() {
  return ApiServiceUnavailableResponse({
    description: `${serverBusy} Or the game is played with a game system this server does not have (\`game/system_unavailable\`, naming it in \`systemId\`; only to a player who may see the game, anyone else gets 404 \`game/not_found\`): the game is intact, and a server with that system plays it. ${problem.description}`,
  });
}

/** An endpoint that needs a token. (400, 429 and the other refusals of every /api/v1 operation are added in api-docs.ts.) */
export function ApiAuthenticated() {
  return applyDecorators(ApiBearerAuth(), ApiUnauthorizedResponse({ description: `No, unknown or revoked token. ${problem.description}` }));
}

/** The errors of endpoints about one game. */
export function ApiGameErrors() {
  return applyDecorators(
    ApiNotFoundResponse({ description: `No such game that you can see. ${problem.description}` }),
    ApiForbiddenResponse({ description: `You hold no seat in that game. ${problem.description}` }),
    ApiConflictResponse({ description: `Stale expectedVersion (\`currentVersion\` says where the game is), not your turn, or the game has ended. ${problem.description}` }),
    ApiGameSystemUnavailable(),
  );
}

/** The errors of a finished game's export: no 403, since whoever may read the game may export it. */
export function ApiExportErrors() {
  return applyDecorators(
    ApiNotFoundResponse({ description: `No such game that you can see. ${problem.description}` }),
    ApiConflictResponse({ description: `The game has not ended (\`game/not_finished\`). ${problem.description}` }),
    ApiGameSystemUnavailable(),
  );
}

/**
 * The errors of an endpoint that takes an optional gameId, for one of the caller's games. The
 * seat check needs no game system, so a game of one this server lacks answers as any other.
 */
export function ApiGameScopeErrors() {
  return applyDecorators(
    ApiNotFoundResponse({ description: `With gameId: no such game that you can see (\`game/not_found\`). ${problem.description}` }),
    ApiForbiddenResponse({ description: `With gameId: you hold no seat in that game (\`game/not_seated\`). ${problem.description}` }),
  );
}
