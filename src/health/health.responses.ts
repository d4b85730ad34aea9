import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export class DatabaseHealthDto {
  @ApiProperty({ enum: ['up', 'down'] })
  status!: string;

  @ApiProperty({ enum: ['postgres', 'embedded'], description: 'An external Postgres (DATABASE_URL) or the embedded PGlite database.' })
  kind!: string;

  @ApiPropertyOptional({ description: 'How long `SELECT 1` took (when up).' })
  latencyMs?: number;

  @ApiPropertyOptional({ enum: ['timed out', 'unreachable'], description: 'Why the probe failed (when down).' })
  error?: string;
}

export class HealthDto {
  @ApiProperty({ enum: ['ok', 'error'] })
  status!: string;

  @ApiProperty({ type: DatabaseHealthDto })
  database!: DatabaseHealthDto;
}
