import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, Res, UsePipes } from '@nestjs/common';
import { ApiConflictResponse, ApiCreatedResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { apiValidation } from '../http/validation';
import { ApiAuthenticated, ApiExportErrors, ApiGameErrors, ApiGameSystemUnavailable } from '../http/openapi.decorators';
import { PlayerId } from '../http/principal';
import { AtVersionQuery, CreateGameDto, HistoryQuery, InviteDto, JoinDto, MyGamesQuery, OptionsAfterDto, OptionsQuery, PageQuery, SideOptionsAfterDto } from './games.dto';
import { toGameOptions } from './game.inputs';
import { BoardViewDto, HistoryPageDto, SideOptionsDto, UnitOptionsDto } from './board.responses';
import type { InvitationRecord } from '../../games/commands/invitations.handler';
import { CreatedGameDto, CreatedInvitationDto, GameDto, GameListingPageDto, InvitationDto, InvitationPageDto, JoinedGameDto, OpenChallengePageDto } from './game.responses';
import { GameExportDto } from './export.responses';
import { GamesApiService } from './games-api.service';

/** REST for simple clients and links in mail: the same calls as the GraphQL resolvers. */
@ApiTags('games')
@ApiAuthenticated()
@UsePipes(apiValidation)
@Controller('api/v1')
export class GamesController {
  constructor(private readonly games: GamesApiService) {}

  @Get('games')
  @ApiOkResponse({ type: GameListingPageDto })
  @ApiOperation({ summary: 'My games (those I hold a seat in, and those I organise without one), most recently changed first, each with its deadline and whose turn it is.' })
  async myGames(@Query() q: MyGamesQuery, @PlayerId() playerId: string) {
    const p = await this.games.myGames(playerId, q.filter ?? 'all', q.limit, q.cursor);
    return { items: p.items, nextCursor: p.hasMore ? p.cursors[p.cursors.length - 1]! : null };
  }

  @Post('games')
  @ApiCreatedResponse({ type: CreatedGameDto })
  @ApiNotFoundResponse({ description: 'No such scenario (`scenario/not_found`). An RFC 9457 problem document.' })
  @ApiOperation({ summary: 'Creates a game; you take `side` if given. Answers 201 with the game.' })
  async create(@Body() body: CreateGameDto, @PlayerId() playerId: string) {
    const created = await this.games.createGame(
      { scenarioId: body.scenarioId, ...(body.title !== undefined ? { title: body.title } : {}), ...(body.side !== undefined ? { side: body.side } : {}), options: toGameOptions(body.settings) },
      playerId,
    );
    return { game: await this.games.game(created.gameId, playerId) };
  }

  @Get('games/:gameId')
  @ApiOkResponse({ type: GameDto })
  @ApiGameErrors()
  @ApiOperation({ summary: 'A game as your side sees it: scenario, turn, phase, sides to act, your side, version, deadline, dice seed commitment.' })
  game(@Param('gameId') gameId: string, @Query() q: AtVersionQuery, @PlayerId() playerId: string) {
    return this.games.game(gameId, playerId, q.atVersion);
  }

  @Get('games/:gameId/view')
  @ApiOkResponse({ type: BoardViewDto })
  @ApiGameErrors()
  @ApiOperation({ summary: 'The board as your side sees it: hexes and terrain, units with their visible values, stacks and markers.' })
  view(@Param('gameId') gameId: string, @Query() q: AtVersionQuery, @PlayerId() playerId: string) {
    return this.games.view(gameId, playerId, q.atVersion);
  }

  @Get('games/:gameId/units/:unitId/options')
  @ApiOkResponse({ type: UnitOptionsDto })
  @ApiGameErrors()
  @ApiOperation({ summary: 'What one of your units can do now: reachable hexes with costs, attackable targets with an odds preview.' })
  options(@Param('gameId') gameId: string, @Param('unitId') unitId: string, @Query() q: OptionsQuery, @PlayerId() playerId: string) {
    return this.games.options(gameId, playerId, unitId, q.targetHex);
  }

  @Post('games/:gameId/units/:unitId/options')
  @HttpCode(200)
  @ApiOkResponse({ type: UnitOptionsDto })
  @ApiGameErrors()
  @ApiOperation({ summary: 'What one of your units can do once the orders you have drafted for this phase (`after`) are carried out: each option is an order accepted after them. Nothing is written.' })
  optionsAfter(@Param('gameId') gameId: string, @Param('unitId') unitId: string, @Body() body: OptionsAfterDto, @PlayerId() playerId: string) {
    return this.games.options(gameId, playerId, unitId, body.targetHex, body.after);
  }

  @Get('games/:gameId/options')
  @ApiOkResponse({ type: SideOptionsDto })
  @ApiGameErrors()
  @ApiOperation({ summary: "Your side's orders that belong to no one unit (Gators!: a hex for Debris at setup, camouflage, guerrillas), each one the rules accept sent now." })
  sideOptions(@Param('gameId') gameId: string, @PlayerId() playerId: string) {
    return this.games.sideOptions(gameId, playerId);
  }

  @Post('games/:gameId/options')
  @HttpCode(200)
  @ApiOkResponse({ type: SideOptionsDto })
  @ApiGameErrors()
  @ApiOperation({ summary: "The same once the orders you have drafted for this phase (`after`) are carried out. Nothing is written." })
  sideOptionsAfter(@Param('gameId') gameId: string, @Body() body: SideOptionsAfterDto, @PlayerId() playerId: string) {
    return this.games.sideOptions(gameId, playerId, body.after);
  }

  @Get('games/:gameId/history')
  @ApiOkResponse({ type: HistoryPageDto })
  @ApiGameErrors()
  @ApiOperation({ summary: 'The log as you may read it, oldest first: events and the phases that began in this page.' })
  async history(@Param('gameId') gameId: string, @Query() q: HistoryQuery, @PlayerId() playerId: string) {
    const h = await this.games.history(gameId, playerId, q.limit, q.cursor, q.fromVersion);
    return { events: h.events, phases: h.phases, nextCursor: h.nextCursor };
  }

  @Get('games/:gameId/export')
  @ApiOkResponse({
    type: GameExportDto,
    headers: { 'Content-Disposition': { description: 'attachment; filename="<game id>.fieldpost.json"', schema: { type: 'string' } } },
  })
  @ApiExportErrors()
  @ApiOperation({ summary: 'A finished game\'s whole log with the revealed dice seed, for replay and `npm run verify-dice`. For its players, and anyone if it admitted spectators.' })
  async export(@Param('gameId') gameId: string, @PlayerId() playerId: string, @Res({ passthrough: true }) res: Response) {
    const doc = await this.games.exportGame(gameId, playerId);
    // A browser following a link saves it as a file; game ids are server-made (game_<hex>), safe in quotes.
    res.setHeader('Content-Disposition', `attachment; filename="${doc.game.id}.fieldpost.json"`);
    return doc;
  }

  @Post('games/:gameId/invitations')
  @ApiCreatedResponse({ type: CreatedInvitationDto })
  @ApiGameErrors()
  @ApiOperation({ summary: 'Offers an open seat of your game: a single-use token (shown once) or an open challenge.' })
  async invite(@Param('gameId') gameId: string, @Body() body: InviteDto, @PlayerId() playerId: string) {
    const inv = await this.games.invite(gameId, body.side, body.kind ?? 'token', playerId, body.expiresInHours ?? undefined);
    return { id: inv.invitationId, gameId: inv.gameId, side: inv.side, kind: inv.kind, token: inv.token, expiresAt: inv.expiresAt };
  }

  @Get('games/:gameId/invitations')
  @ApiOkResponse({ type: InvitationPageDto })
  @ApiGameErrors()
  @ApiOperation({ summary: "Your game's invitations, newest first (those made in the same millisecond by id): open, used or ended (tokens are never shown again). For its organiser and seated players." })
  async invitations(@Param('gameId') gameId: string, @Query() q: PageQuery, @PlayerId() playerId: string) {
    const p = await this.games.gameInvitations(gameId, playerId, q.limit, q.cursor);
    return { items: p.items.map(invitationJson), nextCursor: p.hasMore ? p.cursors[p.cursors.length - 1]! : null };
  }

  @Delete('games/:gameId/invitations/:invitationId')
  @ApiOkResponse({ type: InvitationDto, description: 'The invitation, now ended (withdrawing an ended one changes nothing; a used one is 409 invitation/used).' })
  @ApiGameErrors()
  @ApiOperation({ summary: 'Withdraws an invitation of your game at once: a token sent to the wrong person, a challenge no longer meant.' })
  async withdrawInvitation(@Param('gameId') gameId: string, @Param('invitationId') invitationId: string, @PlayerId() playerId: string) {
    return invitationJson(await this.games.withdrawInvitation(gameId, invitationId, playerId));
  }

  @Get('invitations/open')
  @ApiOkResponse({ type: OpenChallengePageDto })
  @ApiOperation({ summary: 'Open challenges anyone may accept, newest first.' })
  async openChallenges(@Query() q: PageQuery, @PlayerId() _playerId: string) {
    const p = await this.games.openChallenges(q.limit, q.cursor);
    return { items: p.items.map(({ invitationId, ...rest }) => ({ id: invitationId, ...rest })), nextCursor: p.hasMore ? p.cursors[p.cursors.length - 1]! : null };
  }

  @Post('join')
  @HttpCode(200)
  @ApiOkResponse({ type: JoinedGameDto })
  @ApiNotFoundResponse({ description: 'No such invitation (`invitation/not_found`). An RFC 9457 problem document.' })
  @ApiConflictResponse({
    description:
      'The invitation was used (`invitation/used`) or has expired (`invitation/expired`), is your own open challenge (`invitation/own`), its seat is taken (`invitation/seat_taken`), you already hold a seat in the game (`game/already_seated`), or the game has ended (`game/finished`). An RFC 9457 problem document.',
  })
  @ApiGameSystemUnavailable()
  @ApiOperation({ summary: 'Takes a seat with an invitation token, or the id of an open challenge.' })
  async join(@Body() body: JoinDto, @PlayerId() playerId: string) {
    const joined = await this.games.join(body, playerId);
    return { ...joined, game: await this.games.game(joined.gameId, playerId) };
  }
}

function invitationJson(r: InvitationRecord) {
  return { id: r.invitationId, gameId: r.gameId, side: r.side, kind: r.kind, status: r.status, createdAt: r.createdAt.toISOString(), expiresAt: r.expiresAt?.toISOString() ?? null, usedAt: r.usedAt?.toISOString() ?? null };
}
