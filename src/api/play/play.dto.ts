import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { MAX_VERSION } from '../../event-store/event-store.types';
import { IsDefined, IsIn, IsInt, IsOptional, IsString } from 'class-validator';
import { RawJson } from '../http/validation';

export class VersionDto {
  // The range (0 to MAX_VERSION) is checked where GraphQL's is, for one code over both (request/bad_version).
  @ApiProperty({ description: 'The version you last saw; 409 with currentVersion if the game has moved on.', example: 21, minimum: 0, maximum: MAX_VERSION })
  @IsInt()
  expectedVersion!: number;
}

/** A phase as a client drafts it: what submitting and checking both take. */
export class PhaseDraftDto extends VersionDto {
  @ApiPropertyOptional({ enum: ['orders', 'reaction', 'standing-orders'], description: 'What is submitted (default orders).' })
  @IsOptional()
  @IsIn(['orders', 'reaction', 'standing-orders'])
  kind?: 'orders' | 'reaction' | 'standing-orders';

  @ApiProperty({ description: 'The orders in the game system\'s format, e.g. [{"kind":"move","unit":"p1-aav-1","path":["1120"]}].', oneOf: [{ type: 'array', items: { type: 'object' } }, { type: 'object' }] })
  @IsDefined()
  @RawJson()
  orders!: unknown;
}

export class SubmitPhaseDto extends PhaseDraftDto {
  @ApiPropertyOptional({ description: 'Idempotency key, 1-200 characters. Required here unless the Idempotency-Key header carries it (OpenAPI cannot say "one of the two"): a retry with the same key returns the first outcome.' })
  @IsOptional()
  @IsString()
  // Its length is checked where GraphQL's is, for one code over both (request/idempotency_key).
  idempotencyKey?: string;
}

export class ReactionDto extends VersionDto {
  @ApiProperty({ description: 'The answer, e.g. {"attackers":["p2-dragon-1"]}.', type: 'object', additionalProperties: true })
  @IsDefined()
  @RawJson()
  answer!: unknown;

  @ApiPropertyOptional({ description: 'Idempotency key, 1-200 characters. Required here unless the Idempotency-Key header carries it.' })
  @IsOptional()
  @IsString()
  // Its length is checked where GraphQL's is, for one code over both (request/idempotency_key).
  idempotencyKey?: string;
}

export class StandingOrdersDto extends VersionDto {
  @ApiProperty({ description: 'Standing orders per reaction kind, e.g. {"anti-landing":"all"}.', type: 'object', additionalProperties: true })
  @IsDefined()
  @RawJson()
  orders!: unknown;

  @ApiPropertyOptional({ description: 'Idempotency key, 1-200 characters. Required here unless the Idempotency-Key header carries it.' })
  @IsOptional()
  @IsString()
  // Its length is checked where GraphQL's is, for one code over both (request/idempotency_key).
  idempotencyKey?: string;
}
