import { ApiProperty, ApiPropertyOptions, PickType } from '@nestjs/swagger';
import { PageOf } from '../http/page.responses';
import { GameStatus, LISTED_GAME_FIELDS, PhaseMode } from './game.model';

// Separate from the GraphQL models in game.model.ts, so the REST document can change without
// touching schema.gql. Field for field they describe the same presenter objects (presenters.ts).

const status = { enum: GameStatus, enumName: 'GameStatus', description: 'The game\'s status: seating (waiting for players), active, or finished.' } as const;
const mode = { enum: PhaseMode, enumName: 'PhaseMode', description: 'How the sides act now: seating, sequential, simultaneous, reaction or ended.' } as const;
const acting: ApiPropertyOptions = { type: [String], description: 'The sides that must act now (whose turn it is).' };
const dateTime = { type: String, format: 'date-time' } as const;

export class ReactionRequestDto {
  @ApiProperty({ description: 'The side that must answer.' })
  side!: string;

  @ApiProperty({ description: 'The reaction kind.', example: 'anti-landing' })
  kind!: string;

  @ApiProperty({ type: 'object', additionalProperties: true, nullable: true, description: 'What is asked, in public terms (system-specific), as every reader\'s history tells it in ReactionRequested; the choices of the asked side are in its board\'s own.reaction.details, which only it reads.' })
  prompt!: unknown;
}

export class GameResultDto {
  @ApiProperty({ type: String, nullable: true, description: 'The winning side; null for a draw.' })
  winner!: string | null;

  @ApiProperty({ description: 'Why it ended.' })
  reason!: string;
}

export class PhaseStateDto {
  @ApiProperty(status)
  status!: GameStatus;

  @ApiProperty({ type: 'integer', description: 'Game turn (0 during setup and seating).' })
  turn!: number;

  @ApiProperty({ description: 'Phase id from the scenario; "setup", "seating" or "ended" outside the turn track.', example: 'p1-movement' })
  phase!: string;

  @ApiProperty(mode)
  mode!: PhaseMode;

  @ApiProperty(acting)
  acting!: string[];

  @ApiProperty({ ...dateTime, nullable: true, description: 'When the current phase times out; null when no deadline runs (paused by a vacation, or the game is not active).' })
  deadlineAt!: string | null;

  @ApiProperty({ type: ReactionRequestDto, nullable: true, description: 'The reaction being asked (the side, the kind and the public prompt), for every reader of the game, as its history\'s ReactionRequested tells it; null when none is.' })
  reaction!: ReactionRequestDto | null;

  @ApiProperty({ type: GameResultDto, nullable: true, description: 'How the game ended, once it has.' })
  result!: GameResultDto | null;
}

export class SeatDto {
  @ApiProperty({ description: 'The side id.' })
  side!: string;

  @ApiProperty({ description: 'The side\'s name.' })
  sideName!: string;

  @ApiProperty({ type: String, nullable: true, description: 'The player holding the seat; null while it is open.' })
  playerId!: string | null;

  @ApiProperty({ type: String, nullable: true, description: 'That player\'s display name.' })
  playerName!: string | null;
}

export class TimeoutPolicyDto {
  @ApiProperty({ enum: ['pass', 'forfeit'], description: 'pass: the side passes (its standing orders apply); forfeit: it loses at once.' })
  kind!: string;

  @ApiProperty({ type: 'integer', description: 'A side that misses this many deadlines in a row forfeits, whatever the kind.' })
  forfeitAfter!: number;
}

/** Named apart from GameSettingsDto, the request body's settings, which are all optional. */
export class GameSettingsInEffectDto {
  @ApiProperty({ description: 'Time limit of a phase, in hours.' })
  deadlineHours!: number;

  @ApiProperty({ description: 'Time limit of a reaction window, in hours.' })
  reactionHours!: number;

  @ApiProperty({ type: TimeoutPolicyDto, description: 'What a missed deadline does.' })
  timeout!: TimeoutPolicyDto;

  @ApiProperty({ description: 'Whether players without a seat may watch (they see only what is hidden from nobody).' })
  spectators!: boolean;

  @ApiProperty({ description: 'Days each player may pause their own clock in this game.' })
  vacationDays!: number;

  @ApiProperty({ type: 'integer', description: 'A snapshot of the state is kept every this many events.' })
  snapshotInterval!: number;
}

export class PendingUndoDto {
  @ApiProperty({ description: 'The side that proposed it.' })
  proposedBy!: string;

  @ApiProperty({ type: 'integer', description: 'The game version at which it was proposed.' })
  version!: number;
}

export class GameDto extends PhaseStateDto {
  @ApiProperty({ description: 'Game id.' })
  id!: string;

  @ApiProperty({ description: 'The game\'s title.' })
  title!: string;

  @ApiProperty({ description: 'The scenario played.' })
  scenarioId!: string;

  @ApiProperty({ description: 'The scenario\'s name.' })
  scenarioName!: string;

  @ApiProperty({ type: 'integer', description: 'The game\'s version: the number of events in its log. Send it as expectedVersion when acting.' })
  version!: number;

  @ApiProperty({ type: String, nullable: true, description: 'Your side; null when you watch as a spectator.' })
  mySide!: string | null;

  @ApiProperty({ description: 'True when the game waits for you: your side must act now, or answer the other side\'s undo proposal.' })
  awaitingMe!: boolean;

  @ApiProperty({ type: [SeatDto], description: 'The seats, in the scenario\'s side order.' })
  seats!: SeatDto[];

  @ApiProperty({ description: 'SHA-256 of the secret dice seed, public from the start: once the seed is revealed anyone can check every roll.' })
  seedCommitment!: string;

  @ApiProperty({ type: String, nullable: true, description: 'The dice seed, revealed when the game has ended.' })
  seed!: string | null;

  @ApiProperty({ type: GameSettingsInEffectDto, description: 'The game\'s settings.' })
  settings!: GameSettingsInEffectDto;

  @ApiProperty({ type: PendingUndoDto, nullable: true, description: 'An undo waiting for an answer.' })
  pendingUndo!: PendingUndoDto | null;
}

// A listing is a game's summary: the same fields, described once.
export class GameListingDto extends PickType(GameDto, LISTED_GAME_FIELDS) {
  @ApiProperty({ ...dateTime, description: 'When the game last changed.' })
  updatedAt!: string;
}

export const GameListingPageDto = PageOf(GameListingDto, 'your games');

export class CreatedGameDto {
  @ApiProperty({ type: GameDto, description: 'The new game, as your side sees it.' })
  game!: GameDto;
}

export class CreatedInvitationDto {
  @ApiProperty({ description: 'Invitation id (for an open challenge: what others pass as invitationId to join).' })
  id!: string;

  @ApiProperty({ description: 'The game.' })
  gameId!: string;

  @ApiProperty({ description: 'The side offered.' })
  side!: string;

  @ApiProperty({ enum: ['token', 'open'], description: 'token: a single-use token for one person; open: an open challenge.' })
  kind!: string;

  @ApiProperty({ type: String, nullable: true, description: 'For kind token: the token (inv_...), shown this once; whoever presents it takes the seat. Null for an open challenge.' })
  token!: string | null;

  @ApiProperty({ ...dateTime, description: 'When it stops working.' })
  expiresAt!: string;
}

export class InvitationDto {
  @ApiProperty({ description: 'Invitation id.' })
  id!: string;

  @ApiProperty({ description: 'The game.' })
  gameId!: string;

  @ApiProperty({ description: 'The side offered.' })
  side!: string;

  @ApiProperty({ enum: ['token', 'open'], description: 'token: a single-use token for one person (never shown again); open: an open challenge.' })
  kind!: string;

  @ApiProperty({ enum: ['open', 'used', 'ended'], description: 'open: it can still seat someone; used: it seated someone; ended: it expired or was withdrawn, or can seat nobody now (its seat was taken otherwise, or the game ended).' })
  status!: string;

  @ApiProperty({ ...dateTime, description: 'When it was made.' })
  createdAt!: string;

  @ApiProperty({ ...dateTime, nullable: true, description: 'When it stops (or stopped) working.' })
  expiresAt!: string | null;

  @ApiProperty({ ...dateTime, nullable: true, description: 'When it seated someone.' })
  usedAt!: string | null;
}

export const InvitationPageDto = PageOf(InvitationDto, "the game's invitations", 'newest first');

export class OpenChallengeDto {
  @ApiProperty({ description: 'Invitation id: pass it as invitationId to join.' })
  id!: string;

  @ApiProperty({ description: 'The game.' })
  gameId!: string;

  @ApiProperty({ description: 'The side offered.' })
  side!: string;

  @ApiProperty({ ...dateTime, description: 'When it was offered.' })
  createdAt!: string;

  @ApiProperty({ ...dateTime, nullable: true, description: 'When it stops working; null for never.' })
  expiresAt!: string | null;

  @ApiProperty({ description: "The game's title." })
  title!: string;

  @ApiProperty({ description: 'The scenario the game plays (see GET /scenarios).' })
  scenarioId!: string;

  @ApiProperty({ description: 'The display name of whoever created the game.' })
  organiserName!: string;

  @ApiProperty({ type: 'integer', description: 'How many hours each phase may take before its deadline.' })
  deadlineHours!: number;
}

export const OpenChallengePageDto = PageOf(OpenChallengeDto, 'open challenges');

export class JoinedGameDto {
  @ApiProperty({ description: 'The game joined.' })
  gameId!: string;

  @ApiProperty({ description: 'The side you took.' })
  side!: string;

  @ApiProperty({ type: 'integer', description: 'The game\'s version after you took the seat.' })
  version!: number;

  @ApiProperty({ description: 'True when yours was the last open seat, so the game began.' })
  started!: boolean;

  @ApiProperty({ type: GameDto, description: 'The game as your side sees it now.' })
  game!: GameDto;
}
