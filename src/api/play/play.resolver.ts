import { Args, ID, Int, Mutation, Parent, Query, ResolveField, Resolver } from '@nestjs/graphql';
import { Game } from '../games/game.model';
import { GamesApiService, PlayerAction } from '../games/games-api.service';
import { PlayerId } from '../http/principal';
import { Outcome, SetStandingOrdersInput, SubmitPhaseInput, SubmitReactionInput } from './outcome.model';
import { CheckPhaseInput, PhaseCheck } from './phase-check.model';

const gameIdArg = { type: () => ID, description: 'Game id.' } as const;
const versionArg = { type: () => Int, description: 'The version you last saw; CONFLICT (with the current version) if the game has moved on.' } as const;

/**
 * Acting in a game. A rules violation comes back as BAD_USER_INPUT with extensions.violations
 * (each with its ruleId); a stale expectedVersion as CONFLICT with extensions.currentVersion.
 * checkPhase answers the same violations as data: a draft that breaks rules is not an error.
 */
@Resolver(() => Outcome)
export class PlayResolver {
  constructor(private readonly games: GamesApiService) {}

  @Mutation(() => Outcome, { description: 'Submits a whole phase of orders (or a setup, a reaction answer, or standing orders, by kind). Checked as a whole: any violation rejects it all.' })
  submitPhase(@Args('input', { description: 'The submission.' }) input: SubmitPhaseInput, @PlayerId() playerId: string) {
    return this.games.submit(input, playerId);
  }

  @Query(() => PhaseCheck, {
    description: 'Checks a phase of orders as submitPhase would, up to the rules\' verdict, without submitting it: nothing is rolled or written. Broken rules come back as violations; anything else (a stale version, not your turn, a finished game) as the error submitPhase gives.',
  })
  checkPhase(@Args('input', { description: 'The orders to check.' }) input: CheckPhaseInput, @PlayerId() playerId: string) {
    return this.games.check(input, playerId);
  }

  @Mutation(() => Outcome, { description: 'Answers the reaction your side is asked for (see Game.reaction).' })
  submitReaction(@Args('input', { description: 'The answer.' }) input: SubmitReactionInput, @PlayerId() playerId: string) {
    return this.games.submit({ gameId: input.gameId, expectedVersion: input.expectedVersion, kind: 'reaction', orders: input.answer, idempotencyKey: input.idempotencyKey }, playerId);
  }

  @Mutation(() => Outcome, { description: 'Replaces your side\'s standing reaction orders; they answer reactions without pausing the game. The other side never sees them.' })
  setStandingOrders(@Args('input', { description: 'The standing orders.' }) input: SetStandingOrdersInput, @PlayerId() playerId: string) {
    return this.games.submit({ gameId: input.gameId, expectedVersion: input.expectedVersion, kind: 'standing-orders', orders: input.orders, idempotencyKey: input.idempotencyKey }, playerId);
  }

  @Mutation(() => Outcome, { description: 'Resigns: the game ends and the other side wins.' })
  resign(@Args('gameId', gameIdArg) gameId: string, @Args('expectedVersion', versionArg) v: number, @PlayerId() p: string) {
    return this.act('resign', gameId, v, p);
  }

  @Mutation(() => Outcome, { description: 'Proposes to take back your side\'s last phase (not possible once it rolled dice or revealed anything).' })
  proposeUndo(@Args('gameId', gameIdArg) gameId: string, @Args('expectedVersion', versionArg) v: number, @PlayerId() p: string) {
    return this.act('proposeUndo', gameId, v, p);
  }

  @Mutation(() => Outcome, { description: 'Accepts the other side\'s undo proposal: their last phase is taken back.' })
  acceptUndo(@Args('gameId', gameIdArg) gameId: string, @Args('expectedVersion', versionArg) v: number, @PlayerId() p: string) {
    return this.act('acceptUndo', gameId, v, p);
  }

  @Mutation(() => Outcome, { description: 'Declines the other side\'s undo proposal.' })
  declineUndo(@Args('gameId', gameIdArg) gameId: string, @Args('expectedVersion', versionArg) v: number, @PlayerId() p: string) {
    return this.act('declineUndo', gameId, v, p);
  }

  @Mutation(() => Outcome, { description: 'Goes on vacation in this game: your deadlines pause until you come back (limited by the game\'s vacation days).' })
  startVacation(@Args('gameId', gameIdArg) gameId: string, @Args('expectedVersion', versionArg) v: number, @PlayerId() p: string) {
    return this.act('startVacation', gameId, v, p);
  }

  @Mutation(() => Outcome, { description: 'Comes back from vacation: your deadlines run again.' })
  endVacation(@Args('gameId', gameIdArg) gameId: string, @Args('expectedVersion', versionArg) v: number, @PlayerId() p: string) {
    return this.act('endVacation', gameId, v, p);
  }

  @ResolveField(() => Game, { description: 'The game as it stands now, as your side sees it.' })
  game(@Parent() outcome: Outcome, @PlayerId() playerId: string): Promise<Game> {
    return this.games.game(outcome.gameId, playerId);
  }

  private act(action: PlayerAction, gameId: string, expectedVersion: number, playerId: string) {
    return this.games.act(action, gameId, expectedVersion, playerId);
  }
}
