import { Field, ID, Int, ObjectType, PickType, registerEnumType } from '@nestjs/graphql';
import { GraphQLJSON } from '../graphql/json.scalar';

export enum GameStatus {
  SEATING = 'seating',
  ACTIVE = 'active',
  FINISHED = 'finished',
}
registerEnumType(GameStatus, {
  name: 'GameStatus',
  description: 'Where a game is in its life.',
  valuesMap: {
    SEATING: { description: 'Waiting for players to take the open seats.' },
    ACTIVE: { description: 'Being played.' },
    FINISHED: { description: 'Over: won, drawn, resigned or forfeited.' },
  },
});

export enum PhaseMode {
  SEATING = 'seating',
  SEQUENTIAL = 'sequential',
  SIMULTANEOUS = 'simultaneous',
  REACTION = 'reaction',
  ENDED = 'ended',
}
registerEnumType(PhaseMode, {
  name: 'PhaseMode',
  description: 'How the sides act in the current phase.',
  valuesMap: {
    SEATING: { description: 'Before the game begins.' },
    SEQUENTIAL: { description: 'One side submits the whole phase.' },
    SIMULTANEOUS: { description: 'Several sides submit sealed orders (setup); they are applied when all are in.' },
    REACTION: { description: 'Resolution is paused for an out-of-turn decision by the acting side.' },
    ENDED: { description: 'The game is over.' },
  },
});

@ObjectType({ description: 'A seat at the table: a side and the player holding it.' })
export class Seat {
  @Field({ description: 'The side id.' })
  side!: string;

  @Field({ description: 'The side\'s name.' })
  sideName!: string;

  @Field(() => String, { nullable: true, description: 'The player holding the seat; null while it is open.' })
  playerId!: string | null;

  @Field(() => String, { nullable: true, description: 'That player\'s display name.' })
  playerName!: string | null;
}

@ObjectType({ description: 'What happens when a side misses a deadline.' })
export class TimeoutPolicy {
  @Field({ description: '"pass": the side passes (its standing orders apply); "forfeit": it loses at once.' })
  kind!: string;

  @Field(() => Int, { description: 'A side that misses this many deadlines in a row forfeits, whatever the kind.' })
  forfeitAfter!: number;
}

@ObjectType({ description: 'The settings a game was created with.' })
export class GameSettings {
  @Field({ description: 'Time limit of a phase, in hours.' })
  deadlineHours!: number;

  @Field({ description: 'Time limit of a reaction window, in hours.' })
  reactionHours!: number;

  @Field(() => TimeoutPolicy, { description: 'What a missed deadline does.' })
  timeout!: TimeoutPolicy;

  @Field({ description: 'Whether players without a seat may watch (they see only what is hidden from nobody).' })
  spectators!: boolean;

  @Field({ description: 'Days each player may pause their own clock in this game.' })
  vacationDays!: number;

  @Field(() => Int, { description: 'A snapshot of the state is kept every this many events.' })
  snapshotInterval!: number;
}

@ObjectType({ description: 'The out-of-turn decision a side is asked for, in public terms: every reader of the game reads it, as in its history\'s ReactionRequested.' })
export class ReactionRequest {
  @Field({ description: 'The side that must answer.' })
  side!: string;

  @Field({ description: 'The reaction kind, e.g. "anti-landing".' })
  kind!: string;

  @Field(() => GraphQLJSON, { description: 'What is asked, in public terms (system-specific), as every reader\'s history tells it in ReactionRequested; the choices of the asked side are in its board\'s own.reaction.details, which only it reads.' })
  prompt!: unknown;
}

@ObjectType({ description: 'How a game ended.' })
export class GameResult {
  @Field(() => String, { nullable: true, description: 'The winning side; null for a draw.' })
  winner!: string | null;

  @Field({ description: 'Why it ended.' })
  reason!: string;
}

@ObjectType({ description: 'An undo proposal waiting for the other side\'s answer.' })
export class PendingUndo {
  @Field({ description: 'The side that proposed it.' })
  proposedBy!: string;

  @Field(() => Int, { description: 'The game version at which it was proposed.' })
  version!: number;
}

@ObjectType({ description: 'The present moment of a game: turn, phase and who must act.' })
export class PhaseState {
  @Field(() => GameStatus, { description: 'The game\'s status.' })
  status!: GameStatus;

  @Field(() => Int, { description: 'Game turn (0 during setup and seating).' })
  turn!: number;

  @Field({ description: 'Phase id from the scenario, e.g. "p1-movement"; "setup", "seating" or "ended" outside the turn track.' })
  phase!: string;

  @Field(() => PhaseMode, { description: 'How the sides act now.' })
  mode!: PhaseMode;

  @Field(() => [String], { description: 'The sides that must act now (whose turn it is).' })
  acting!: string[];

  @Field(() => Date, { nullable: true, description: 'When the current phase times out; null when no deadline runs (paused by a vacation, or the game is not active).' })
  deadlineAt!: Date | null;

  @Field(() => ReactionRequest, { nullable: true, description: 'The reaction being asked (the side, the kind and the public prompt), for every reader of the game, as its history\'s ReactionRequested tells it; null when none is.' })
  reaction!: ReactionRequest | null;

  @Field(() => GameResult, { nullable: true, description: 'How the game ended, once it has.' })
  result!: GameResult | null;
}

/**
 * Marks a game read in full (it had ended): its board and events at its version are read in full
 * too. A game read while it ran keeps its secrets in what is read with it, even if it ends before
 * that is read (a subscription update, say). A symbol, so neither GraphQL nor JSON shows it.
 */
export const READ_IN_FULL = Symbol('readInFull');

@ObjectType({ description: 'A game as the calling player may see it. Every field is computed for the caller\'s side (or the public view for a spectator).' })
export class Game extends PhaseState {
  @Field(() => ID, { description: 'Game id.' })
  id!: string;

  @Field({ description: 'The game\'s title.' })
  title!: string;

  @Field({ description: 'The scenario played.' })
  scenarioId!: string;

  @Field({ description: 'The scenario\'s name.' })
  scenarioName!: string;

  @Field(() => Int, { description: 'The game\'s version: the number of events in its log. Send it as expectedVersion when acting.' })
  version!: number;

  @Field(() => String, { nullable: true, description: 'Your side; null when you watch as a spectator.' })
  mySide!: string | null;

  @Field({ description: 'True when the game waits for you: your side must act now, or answer the other side\'s undo proposal.' })
  awaitingMe!: boolean;

  @Field(() => [Seat], { description: 'The seats, in the scenario\'s side order.' })
  seats!: Seat[];

  @Field({ description: 'SHA-256 of the secret dice seed, public from the start: once the seed is revealed anyone can check every roll.' })
  seedCommitment!: string;

  @Field(() => String, { nullable: true, description: 'The dice seed, revealed when the game has ended.' })
  seed!: string | null;

  @Field(() => GameSettings, { description: 'The game\'s settings.' })
  settings!: GameSettings;

  @Field(() => PendingUndo, { nullable: true, description: 'An undo waiting for an answer.' })
  pendingUndo!: PendingUndo | null;

  declare [READ_IN_FULL]?: boolean;
}

/** The fields a listing shares with the game, declared once there (GraphQL here, REST in game.responses.ts). */
export const LISTED_GAME_FIELDS = ['id', 'title', 'scenarioId', 'status', 'turn', 'phase', 'mode', 'acting', 'mySide', 'awaitingMe', 'deadlineAt', 'version'] as const;

@ObjectType({ description: 'One of my games in a list, with its deadline and whose turn it is.' })
export class GameListing extends PickType(Game, LISTED_GAME_FIELDS, ObjectType) {
  @Field(() => Date, { description: 'When the game last changed.' })
  updatedAt!: Date;
}
