import { Body, Controller, HttpCode, Param, Post, Put, UsePipes } from '@nestjs/common';
import { ApiHeader, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { BadInputError } from '../../common/errors';
import { GamesApiService, OutcomeParts, PlayerAction } from '../games/games-api.service';
import { ApiAuthenticated, ApiGameErrors } from '../http/openapi.decorators';
import { PlayerId } from '../http/principal';
import { SingleHeader } from '../http/single-header';
import { apiValidation } from '../http/validation';
import { PhaseDraftDto, ReactionDto, StandingOrdersDto, SubmitPhaseDto, VersionDto } from './play.dto';
import { OutcomeDto, PhaseCheckDto } from './play.responses';

const idempotencyHeader = ApiHeader({ name: 'Idempotency-Key', required: false, description: 'Required unless idempotencyKey is in the body (sent in both places, the two must be the same); without either the request is refused with request/idempotency_key, and with the header sent more than once with http/repeated_header.' });
const outcome = ApiOkResponse({ type: OutcomeDto, description: 'What the action did, and the game as it stands now.' });

/** Acting in a game over REST. Every answer but a check's is the outcome plus the game as it stands. */
@ApiTags('play')
@ApiAuthenticated()
@ApiGameErrors()
@UsePipes(apiValidation)
@Controller('api/v1/games/:gameId')
export class PlayController {
  constructor(private readonly games: GamesApiService) {}

  @Post('phases')
  @HttpCode(200)
  @outcome
  @idempotencyHeader
  @ApiOperation({ summary: 'Submits a whole phase of orders. 400 with `violations` (each with its ruleId) if any order breaks the rules; 409 with `currentVersion` if stale.' })
  submit(@Param('gameId') gameId: string, @Body() body: SubmitPhaseDto, @SingleHeader('Idempotency-Key') header: string | undefined, @PlayerId() playerId: string) {
    return this.withGame(this.games.submit({ gameId, expectedVersion: body.expectedVersion, kind: body.kind ?? 'orders', orders: body.orders, idempotencyKey: key(body.idempotencyKey, header) }, playerId), playerId);
  }

  @Post('phases/check')
  @HttpCode(200)
  @ApiOkResponse({ type: PhaseCheckDto, description: 'What the rules say of the orders; nothing was rolled or written.' })
  @ApiOperation({
    summary: 'Checks a whole phase of orders as a submission would, without submitting it. 200 with `valid` and every `violation` (each with its ruleId) whether or not the orders break rules; 409 with `currentVersion` if stale, and the other refusals a submission gets.',
  })
  check(@Param('gameId') gameId: string, @Body() body: PhaseDraftDto, @PlayerId() playerId: string) {
    return this.games.check({ gameId, expectedVersion: body.expectedVersion, kind: body.kind ?? 'orders', orders: body.orders }, playerId);
  }

  @Post('reactions')
  @HttpCode(200)
  @outcome
  @idempotencyHeader
  @ApiOperation({ summary: 'Answers the reaction your side is asked for.' })
  react(@Param('gameId') gameId: string, @Body() body: ReactionDto, @SingleHeader('Idempotency-Key') header: string | undefined, @PlayerId() playerId: string) {
    return this.withGame(this.games.submit({ gameId, expectedVersion: body.expectedVersion, kind: 'reaction', orders: body.answer, idempotencyKey: key(body.idempotencyKey, header) }, playerId), playerId);
  }

  @Put('standing-orders')
  @HttpCode(200)
  @outcome
  @idempotencyHeader
  @ApiOperation({ summary: 'Replaces your side\'s standing reaction orders (the other side never sees them).' })
  standing(@Param('gameId') gameId: string, @Body() body: StandingOrdersDto, @SingleHeader('Idempotency-Key') header: string | undefined, @PlayerId() playerId: string) {
    return this.withGame(this.games.submit({ gameId, expectedVersion: body.expectedVersion, kind: 'standing-orders', orders: body.orders, idempotencyKey: key(body.idempotencyKey, header) }, playerId), playerId);
  }

  @Post('resign')
  @HttpCode(200)
  @outcome
  @ApiOperation({ summary: 'Resigns: the game ends and the other side wins.' })
  resign(@Param('gameId') gameId: string, @Body() body: VersionDto, @PlayerId() playerId: string) {
    return this.act('resign', gameId, body, playerId);
  }

  @Post('undo')
  @HttpCode(200)
  @outcome
  @ApiOperation({ summary: 'Proposes to take back your side\'s last phase.' })
  proposeUndo(@Param('gameId') gameId: string, @Body() body: VersionDto, @PlayerId() playerId: string) {
    return this.act('proposeUndo', gameId, body, playerId);
  }

  @Post('undo/accept')
  @HttpCode(200)
  @outcome
  @ApiOperation({ summary: 'Accepts the other side\'s undo proposal.' })
  acceptUndo(@Param('gameId') gameId: string, @Body() body: VersionDto, @PlayerId() playerId: string) {
    return this.act('acceptUndo', gameId, body, playerId);
  }

  @Post('undo/decline')
  @HttpCode(200)
  @outcome
  @ApiOperation({ summary: 'Declines the other side\'s undo proposal.' })
  declineUndo(@Param('gameId') gameId: string, @Body() body: VersionDto, @PlayerId() playerId: string) {
    return this.act('declineUndo', gameId, body, playerId);
  }

  @Post('vacation/start')
  @HttpCode(200)
  @outcome
  @ApiOperation({ summary: 'Goes on vacation in this game: your deadlines pause.' })
  startVacation(@Param('gameId') gameId: string, @Body() body: VersionDto, @PlayerId() playerId: string) {
    return this.act('startVacation', gameId, body, playerId);
  }

  @Post('vacation/end')
  @HttpCode(200)
  @outcome
  @ApiOperation({ summary: 'Comes back from vacation.' })
  endVacation(@Param('gameId') gameId: string, @Body() body: VersionDto, @PlayerId() playerId: string) {
    return this.act('endVacation', gameId, body, playerId);
  }

  private act(action: PlayerAction, gameId: string, body: VersionDto, playerId: string) {
    return this.withGame(this.games.act(action, gameId, body.expectedVersion, playerId), playerId);
  }

  private async withGame(outcome: Promise<OutcomeParts>, playerId: string) {
    const o = await outcome;
    return { ...o, game: await this.games.game(o.gameId, playerId) };
  }
}

function key(body: string | undefined, header: string | undefined): string {
  if (body !== undefined && header !== undefined && body !== header) {
    throw new BadInputError('request/idempotency_key', 'idempotencyKey in the body and the Idempotency-Key header differ: send one key, or the same in both.', { field: 'idempotencyKey' });
  }
  const k = body ?? header;
  if (!k) throw new BadInputError('request/idempotency_key', 'An idempotency key is required: idempotencyKey in the body or the Idempotency-Key header.', { field: 'idempotencyKey' });
  return k;
}
