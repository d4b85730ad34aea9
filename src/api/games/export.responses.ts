import { ApiProperty } from '@nestjs/swagger';
import { systemJson } from './board.responses';
import { GameResultDto } from './game.responses';

// The export format (README, "Export format") as the REST document describes it. It is the
// format the dice verifier reads, so it changes only with formatVersion.

const freeJson = (description: string) => ({ type: 'object', additionalProperties: true, description }) as const;

export class ExportedGameDto {
  @ApiProperty({ description: 'Game id.' })
  id!: string;

  @ApiProperty({ description: 'The game\'s title.' })
  title!: string;

  @ApiProperty({ type: 'integer', description: 'The game\'s final version: the number of events in `events`.' })
  version!: number;

  @ApiProperty({ type: GameResultDto, description: 'How the game ended.' })
  result!: GameResultDto;

  @ApiProperty(freeJson('The game\'s settings as stored: those of GameSettingsInEffectDto, and snapshotInterval.'))
  options!: unknown;
}

export class ExportedScenarioDto {
  @ApiProperty({ description: 'Scenario id.' })
  id!: string;

  @ApiProperty({ description: 'Hash of the scenario data the game was played with.' })
  version!: string;

  @ApiProperty({ description: 'The game system.', example: 'gators' })
  system!: string;

  @ApiProperty({ description: 'The scenario\'s name.' })
  name!: string;
}

export class ExportedSeatDto {
  @ApiProperty({ description: 'The side id.' })
  side!: string;

  @ApiProperty({ type: String, nullable: true, description: 'The player who held it.' })
  playerId!: string | null;

  @ApiProperty({ type: String, nullable: true, description: 'That player\'s display name.' })
  playerName!: string | null;
}

export class ExportedDiceDto {
  @ApiProperty({ description: 'How roll number n is derived from the seed.' })
  algorithm!: string;

  @ApiProperty({ description: 'SHA-256 of the seed (hex), published when the game was created.' })
  seedCommitment!: string;

  @ApiProperty({ description: 'The revealed seed: 64 hex digits.' })
  seed!: string;
}

export class ExportedEventMetaDto {
  @ApiProperty({ type: String, nullable: true, description: 'The player who caused it, or "system" for scheduled work.' })
  actor!: string | null;

  @ApiProperty({ description: 'Shared by the events one command appended.' })
  correlationId!: string;

  @ApiProperty({ type: String, format: 'date-time', description: 'When it was appended.' })
  time!: string;

  @ApiProperty({ enum: ['app', 'rules'], description: 'app: written by the service (seats, deadlines, dice); rules: by the rules engine.' })
  source!: string;

  @ApiProperty(freeJson('Who could read it during play: {"to":"all"}, or {"to":"sides","sides":[...]} with what the others read instead ("redacted").'))
  visibility!: unknown;

  @ApiProperty({ required: false, description: 'Present (true) when it disclosed something hidden from a side.' })
  reveals?: boolean;
}

export class ExportedEventDto {
  @ApiProperty({ type: 'integer', description: 'Its version: 1, 2, 3, ... up to game.version.' })
  version!: number;

  @ApiProperty({ description: 'Past-tense event type.', example: 'DiceRolled' })
  type!: string;

  @ApiProperty(systemJson('Its data, hidden parts included'))
  data!: unknown;

  @ApiProperty({ type: ExportedEventMetaDto, description: 'Who, when, and who could read it.' })
  meta!: ExportedEventMetaDto;
}

export class GameExportDto {
  @ApiProperty({ enum: ['fieldpost.game-export'], description: 'Identifies the format.' })
  format!: string;

  @ApiProperty({ type: 'integer', description: 'The format\'s version (1).' })
  formatVersion!: number;

  @ApiProperty({ type: ExportedGameDto, description: 'The game.' })
  game!: ExportedGameDto;

  @ApiProperty({ type: ExportedScenarioDto, description: 'The scenario played.' })
  scenario!: ExportedScenarioDto;

  @ApiProperty({ type: [ExportedSeatDto], description: 'Who held each side.' })
  seats!: ExportedSeatDto[];

  @ApiProperty({ type: ExportedDiceDto, description: 'What anyone needs to recompute every roll (`npm run verify-dice`).' })
  dice!: ExportedDiceDto;

  @ApiProperty({ type: [ExportedEventDto], description: 'The whole log, oldest first. The first rules event carries the complete scenario data.' })
  events!: ExportedEventDto[];

  @ApiProperty(freeJson('Each side\'s standing reaction orders as the game ended, by side id: those set since they are kept out of the log (an older game\'s log holds its own as StandingOrdersSet events). A side that never set any is not listed.'))
  standingOrders!: Record<string, unknown>;
}
