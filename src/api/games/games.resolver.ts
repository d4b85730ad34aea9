import { Args, ID, Int, Mutation, Parent, Query, ResolveField, Resolver } from '@nestjs/graphql';
import { GraphQLJSON } from '../graphql/json.scalar';
import { PageArgs, ConnectionType, connection } from '../graphql/pagination';
import { PlayerId } from '../http/principal';
import { Scenario } from '../scenarios/scenario.model';
import { BoardView, SideOptions, UnitOptions } from './board.model';
import { CreateGameInput, MyGamesFilter, toGameOptions } from './game.inputs';
import { Game, GameListing, READ_IN_FULL } from './game.model';
import { GamesApiService } from './games-api.service';
import { HistoryConnection } from './history.model';

const GameListingConnection = ConnectionType(GameListing, 'GameListing', 'game listing');

/** Games: one by id, my games, a finished game's export, a new game, and the board, options and history of a game. */
@Resolver(() => Game)
export class GamesResolver {
  constructor(private readonly games: GamesApiService) {}

  @Query(() => Game, { description: 'A game you hold a seat in (or may watch). NOT_FOUND for any other.' })
  game(
    @Args('id', { type: () => ID, description: 'Game id.' }) id: string,
    @Args('atVersion', {
      type: () => Int,
      nullable: true,
      description:
        'Show the game as it was once the change that wrote this version was complete: its fields and its `view`. `history` pages through the whole log from its own arguments, and `options` and `sideOptions` are what the side may do now, whatever this version.',
    })
    atVersion: number | null,
    @PlayerId() playerId: string,
  ): Promise<Game> {
    return this.games.game(id, playerId, atVersion ?? undefined);
  }

  @Query(() => GameListingConnection, {
    description:
      'My games (those I hold a seat in, and those I organise without one), most recently changed first, each with its deadline and whose turn it is. A game that changes while you page moves to the first page, behind your cursor: read from the start again to see it.',
  })
  async myGames(
    @Args('filter', { type: () => MyGamesFilter, defaultValue: MyGamesFilter.ALL, description: 'Which games.' }) filter: MyGamesFilter,
    @Args() page: PageArgs,
    @PlayerId() playerId: string,
  ) {
    const p = await this.games.myGames(playerId, filter, page.first, page.after);
    return connection(p.items, p.cursors, p.hasMore);
  }

  @Query(() => GraphQLJSON, {
    description:
      'A finished game in the open export format ("fieldpost.game-export"): its whole log, hidden parts included, and the revealed dice seed, for replay and `npm run verify-dice`. ' +
      'The same document as GET /api/v1/games/{id}/export. For its players, and anyone if the game admitted spectators; CONFLICT (game/not_finished) until the game has ended, NOT_FOUND for a game you cannot see.',
  })
  gameExport(@Args('gameId', { type: () => ID, description: 'Game id.' }) gameId: string, @PlayerId() playerId: string): Promise<unknown> {
    return this.games.exportGame(gameId, playerId);
  }

  @Mutation(() => Game, { description: 'Creates a game of a scenario; you take `side` if given. Then invite the other players.' })
  async createGame(@Args('input', { description: 'The new game.' }) input: CreateGameInput, @PlayerId() playerId: string): Promise<Game> {
    const created = await this.games.createGame(
      { scenarioId: input.scenarioId, ...(input.title != null ? { title: input.title } : {}), ...(input.side != null ? { side: input.side } : {}), options: toGameOptions(input.settings) },
      playerId,
    );
    return this.games.game(created.gameId, playerId);
  }

  @ResolveField(() => Scenario, {
    nullable: true,
    description: 'The scenario played, with its board, as the game recorded them when it was created: the scenario on offer under the same id may have changed since, or gone.',
  })
  scenario(@Parent() game: Game, @PlayerId() playerId: string) {
    return this.games.gameScenario(game.id, playerId);
  }

  @ResolveField(() => BoardView, { description: 'The board as your side sees it: hexes and terrain, the units you may see with their visible values, stacks and markers.' })
  view(
    @Parent() game: Game,
    @Args('atVersion', { type: () => Int, nullable: true, description: 'Show the board as it was once the change that wrote this version was complete (the view\'s version says which version that is).' }) atVersion: number | null,
    @PlayerId() playerId: string,
  ): Promise<BoardView> {
    // The board at the game's own version, so a subscription update's game and board agree: a
    // game that was still running when read keeps its secrets even if it has ended since.
    if (atVersion == null) return this.games.view(game.id, playerId, game.version, !game[READ_IN_FULL]);
    return this.games.view(game.id, playerId, atVersion);
  }

  @ResolveField(() => UnitOptions, { description: 'What one of your units can do now: reachable hexes with their costs, and attackable targets with an odds preview.' })
  options(
    @Parent() game: Game,
    @Args('unitId', { description: 'One of your units.' }) unitId: string,
    @Args('targetHex', { type: () => String, nullable: true, description: 'Only the attack on this hex (the preview of a proposed attack).' }) targetHex: string | null,
    @Args('after', {
      type: () => GraphQLJSON,
      nullable: true,
      description: 'The orders you mean to send first, as submitPhase takes them: the options are those after them. A draft that breaks a rule is BAD_USER_INPUT with every violation.',
    })
    after: unknown,
    @PlayerId() playerId: string,
  ): Promise<UnitOptions> {
    return this.games.options(game.id, playerId, unitId, targetHex, after);
  }

  @ResolveField(() => SideOptions, { description: "Your side's orders that belong to no one unit (Gators!: where to place Debris, camouflage, raise guerrillas), now or after the orders you have drafted." })
  sideOptions(
    @Parent() game: Game,
    @Args('after', { type: () => GraphQLJSON, nullable: true, description: 'The orders you mean to send first, as submitPhase takes them. A draft that breaks a rule is BAD_USER_INPUT with every violation.' }) after: unknown,
    @PlayerId() playerId: string,
  ): Promise<SideOptions> {
    return this.games.sideOptions(game.id, playerId, after);
  }

  @ResolveField(() => HistoryConnection, { description: 'The game\'s log as you may read it, oldest first: the phases and the events visible to you.' })
  async history(
    @Parent() game: Game,
    @Args() page: PageArgs,
    @Args('fromVersion', { type: () => Int, nullable: true, description: 'Start at this version instead of a cursor (default 1).' }) fromVersion: number | null,
    @PlayerId() playerId: string,
  ): Promise<HistoryConnection> {
    const h = await this.games.history(game.id, playerId, page.first, page.after, fromVersion);
    const c = connection(h.events, h.cursors, h.nextVersion !== null);
    return { ...c, pageInfo: { hasNextPage: h.nextVersion !== null, endCursor: h.nextCursor ?? c.pageInfo.endCursor }, phases: h.phases };
  }
}

@Resolver(() => GameListing)
export class GameListingResolver {
  constructor(private readonly games: GamesApiService) {}

  @ResolveField(() => Game, { description: 'The whole game, as you may see it.' })
  game(@Parent() listing: GameListing, @PlayerId() playerId: string): Promise<Game> {
    return this.games.game(listing.id, playerId);
  }
}
