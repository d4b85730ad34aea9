import { ApiExtraModels, ApiProperty, getSchemaPath } from '@nestjs/swagger';
import { PageOf } from '../http/page.responses';

export class ScenarioSideDto {
  @ApiProperty({ description: 'The side id used everywhere else (seats, acting sides, orders).', example: 'P1' })
  id!: string;

  @ApiProperty({ description: 'The side\'s name for people.' })
  name!: string;
}

export class ScenarioDto {
  @ApiProperty({ description: 'Scenario id.', example: 'gators-unnarstan' })
  id!: string;

  @ApiProperty({ description: 'Changes whenever the scenario\'s data changes (a hash of its files).' })
  version!: string;

  @ApiProperty({ description: 'The scenario\'s name.' })
  name!: string;

  @ApiProperty({ description: 'What the scenario is about.' })
  description!: string;

  @ApiProperty({ description: 'The game system that plays it.', example: 'gators' })
  system!: string;

  @ApiProperty({ type: [ScenarioSideDto], description: 'The sides, in the scenario\'s order.' })
  sides!: ScenarioSideDto[];

  @ApiProperty({ type: 'integer', description: 'How many game turns it lasts.' })
  turns!: number;
}

export const ScenarioPageDto = PageOf(ScenarioDto, 'scenarios');

export class BoardHexDto {
  @ApiProperty({ description: 'The hex label, CCRR (column then row, 1-based).', example: '0405' })
  hex!: string;

  @ApiProperty({ description: 'Terrain id from the map\'s terrain legend.', example: 'clear' })
  terrain!: string;
}

export class TerrainTypeDto {
  @ApiProperty({ description: 'The terrain\'s name.' })
  name!: string;

  @ApiProperty({ type: String, nullable: true, description: 'The medium it is, e.g. land or water; null when the scenario does not say.' })
  medium!: string | null;
}

@ApiExtraModels(TerrainTypeDto)
export class BoardMapDto {
  @ApiProperty({ type: 'integer', description: 'Columns of the map rectangle.' })
  columns!: number;

  @ApiProperty({ type: 'integer', description: 'Rows of the map rectangle.' })
  rows!: number;

  @ApiProperty({ type: [BoardHexDto], description: 'Every on-map hex with its terrain (off-map cells are left out).' })
  hexes!: BoardHexDto[];

  @ApiProperty({ type: 'object', additionalProperties: { $ref: getSchemaPath(TerrainTypeDto) }, description: 'The terrain legend: for each terrain id its name and medium.' })
  terrain!: Record<string, TerrainTypeDto>;

  @ApiProperty({ type: 'object', additionalProperties: true, description: 'Overlays: roads, rivers, bridges, cities, airfields and hexside features, as the scenario defines them (system-specific).' })
  features!: Record<string, unknown>;
}

export class ScenarioWithMapDto extends ScenarioDto {
  @ApiProperty({ type: BoardMapDto, nullable: true, description: 'The scenario\'s board (public, the same for every side); null for a system without a kernel map.' })
  map!: BoardMapDto | null;
}
