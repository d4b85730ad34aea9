import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { MAX_VERSION } from '../../event-store/event-store.types';
import { Type } from 'class-transformer';
import { QueryInteger, RawJson } from '../http/validation';
import { IsBoolean, IsDefined, IsIn, IsInt, IsNumber, IsObject, IsOptional, IsString, Length, ValidateNested } from 'class-validator';

export class PageQuery {
  @ApiPropertyOptional({ description: 'Page size, 1 to API_MAX_PAGE_SIZE (default 20; for a game\'s history, API_MAX_PAGE_SIZE).', minimum: 1 })
  @IsOptional()
  // The range is checked where GraphQL's `first` is, for one code over both (request/bad_page_size).
  @QueryInteger()
  limit?: number;

  @ApiPropertyOptional({ description: 'The nextCursor of the previous page.' })
  @IsOptional()
  @IsString()
  // An empty one is refused where GraphQL's `after` is, for one code over both (request/bad_cursor).
  @Length(0, 500)
  cursor?: string;
}

export class MyGamesQuery extends PageQuery {
  @ApiPropertyOptional({ enum: ['awaiting', 'active', 'finished', 'all'], description: 'awaiting: my side must act, or answer an undo proposal; active; finished; all (default).' })
  @IsOptional()
  @IsIn(['awaiting', 'active', 'finished', 'all'])
  filter?: 'awaiting' | 'active' | 'finished' | 'all';
}

export class AtVersionQuery {
  @ApiPropertyOptional({ description: 'Show the game as it was once the change that wrote this version was complete.', minimum: 1, maximum: MAX_VERSION })
  @IsOptional()
  @QueryInteger()
  atVersion?: number;
}

export class OptionsQuery {
  @ApiPropertyOptional({ description: 'Only the attack on this hex: the preview of a proposed attack.' })
  @IsOptional()
  @IsString()
  // Its form is checked where GraphQL's is, for one code over both.
  targetHex?: string;
}

/** Options after a phase being written: POST, as the draft is a list of orders. */
export class OptionsAfterDto extends OptionsQuery {
  @ApiProperty({
    description: 'The orders you mean to send first, as submitPhase takes them (e.g. [{"kind":"move","unit":"p1-aav-1","path":["0507"]}]); the options are those after them. A draft that breaks a rule is 400 with every violation, as a refused submission.',
    oneOf: [{ type: 'array', items: { type: 'object' } }, { type: 'object' }],
  })
  @IsDefined()
  @RawJson()
  after!: unknown;
}

/** The side's options after a phase being written. */
export class SideOptionsAfterDto {
  @ApiProperty({ description: 'The orders you mean to send first, as submitPhase takes them; a draft that breaks a rule is 400 with every violation.', oneOf: [{ type: 'array', items: { type: 'object' } }, { type: 'object' }] })
  @IsDefined()
  @RawJson()
  after!: unknown;
}

export class HistoryQuery extends PageQuery {
  @ApiPropertyOptional({ description: 'Start at this version (default 1); not with a cursor, which says where the page starts.', minimum: 1, maximum: MAX_VERSION })
  @IsOptional()
  @QueryInteger()
  fromVersion?: number;
}

export class GameSettingsDto {
  @ApiPropertyOptional({ description: 'Time limit of a phase, in hours (1-720).' })
  @IsOptional()
  @IsNumber()
  deadlineHours?: number;

  @ApiPropertyOptional({ description: 'Time limit of a reaction window, in hours (from 0.25, at most deadlineHours).' })
  @IsOptional()
  @IsNumber()
  reactionHours?: number;

  @ApiPropertyOptional({ enum: ['pass', 'forfeit'], description: 'What a missed deadline does.' })
  @IsOptional()
  @IsString()
  // Its form is checked where GraphQL's is, for one code over both.
  timeoutKind?: string;

  @ApiPropertyOptional({ description: 'Missed deadlines in a row after which a side forfeits (1-100).' })
  @IsOptional()
  @IsInt()
  forfeitAfter?: number;

  @ApiPropertyOptional({ description: 'Let players without a seat watch the public view.' })
  @IsOptional()
  @IsBoolean()
  spectators?: boolean;

  @ApiPropertyOptional({ description: 'Days each player may pause their own clock (0-60).' })
  @IsOptional()
  @IsNumber()
  vacationDays?: number;

  @ApiPropertyOptional({ type: 'integer', description: 'Keep a snapshot of the state every this many events (10-10000, default 100).' })
  @IsOptional()
  @IsNumber()
  snapshotInterval?: number;
}

export class CreateGameDto {
  @ApiProperty({ description: 'The scenario to play (GET /api/v1/scenarios).', example: 'gators-unnarstan' })
  @IsString()
  // No @Length here: an id no scenario has, an empty one too, is refused by the service, as over GraphQL (scenario/not_found).
  scenarioId!: string;

  @ApiPropertyOptional({ description: 'A title (1 to 200 characters, not all blank); omit it for the scenario\'s name.' })
  @IsOptional()
  @IsString()
  // Its form is checked where GraphQL's is, for one code over both.
  title?: string;

  @ApiPropertyOptional({ description: 'The side you take; omit to only organise the game.', example: 'P1' })
  @IsOptional()
  @IsString()
  // Its form is checked where GraphQL's is, for one code over both.
  side?: string;

  @ApiPropertyOptional({ type: GameSettingsDto, description: 'Settings; each has a default.' })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => GameSettingsDto)
  settings?: GameSettingsDto;
}

export class InviteDto {
  @ApiProperty({ description: 'The open side to offer.', example: 'P2' })
  @IsString()
  // Its form is checked where GraphQL's is, for one code over both.
  side!: string;

  @ApiPropertyOptional({ enum: ['token', 'open'], description: 'token (default): a single-use token for one person; open: an open challenge.' })
  @IsOptional()
  @IsIn(['token', 'open'])
  kind?: 'token' | 'open';

  @ApiPropertyOptional({ description: 'Whole hours until it expires (1-2160, default 336; null: the default).' })
  @IsOptional()
  @IsNumber()
  expiresInHours?: number;
}

export class JoinDto {
  @ApiPropertyOptional({ description: 'An invitation token (inv_...).' })
  @IsOptional()
  @IsString()
  // Its form is checked where GraphQL's is, for one code over both.
  token?: string;

  @ApiPropertyOptional({ description: 'The id of an open challenge.' })
  @IsOptional()
  @IsString()
  // Its form is checked where GraphQL's is, for one code over both.
  invitationId?: string;
}
