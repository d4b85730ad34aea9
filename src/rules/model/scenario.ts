import { z } from 'zod';
import { DeepReadonly } from './json';
import { manifestSchema } from './schema/manifest.schema';
import { mapSchema } from './schema/map.schema';
import { oobSchema } from './schema/oob.schema';
import { rulesSchema } from './schema/rules.schema';
import { setupSchema } from './schema/setup.schema';
import { terrainSchema } from './schema/terrain.schema';
import { turnsSchema } from './schema/turns.schema';
import { unitsSchema } from './schema/units.schema';
import { victorySchema } from './schema/victory.schema';
import { areaSchema } from './schema/common';

/** The files of a scenario folder, each with its schema. Other files (notes.md…) are not read. */
export const SCENARIO_FILES = {
  'scenario.json': manifestSchema,
  'map.json': mapSchema,
  'terrain.json': terrainSchema,
  'rules.json': rulesSchema,
  'units.json': unitsSchema,
  'oob.json': oobSchema,
  'setup.json': setupSchema,
  'turns.json': turnsSchema,
  'victory.json': victorySchema,
} as const;

export type ScenarioFileName = keyof typeof SCENARIO_FILES;

export type ManifestFile = DeepReadonly<z.output<typeof manifestSchema>>;
export type MapFile = DeepReadonly<z.output<typeof mapSchema>>;
export type TerrainFile = DeepReadonly<z.output<typeof terrainSchema>>;
export type RulesFile = DeepReadonly<z.output<typeof rulesSchema>>;
export type UnitsFile = DeepReadonly<z.output<typeof unitsSchema>>;
export type OobFile = DeepReadonly<z.output<typeof oobSchema>>;
export type SetupFile = DeepReadonly<z.output<typeof setupSchema>>;
export type TurnsFile = DeepReadonly<z.output<typeof turnsSchema>>;
export type VictoryFile = DeepReadonly<z.output<typeof victorySchema>>;

export type UnitType = UnitsFile['types'][string];
export type TerrainType = TerrainFile['terrain'][string];
export type OverlayType = TerrainFile['overlays'][string];
export type Area = DeepReadonly<z.output<typeof areaSchema>>;
export type CombatEffect = TerrainType['effects'][number];
export type PhaseDef = TurnsFile['phases'][number];
export type OddsCombat = NonNullable<RulesFile['combat']['odds']>;

/**
 * A validated scenario: plain JSON (it travels inside the GameStarted event
 * and the state), never changed after load. Derived, fast structures (the
 * compiled board) are cached per scenario object in engine/board.ts.
 */
export interface Scenario {
  readonly manifest: ManifestFile;
  readonly map: MapFile;
  readonly terrain: TerrainFile;
  readonly rules: RulesFile;
  readonly units: UnitsFile;
  readonly oob: OobFile;
  readonly setup: SetupFile;
  readonly turns: TurnsFile;
  readonly victory: VictoryFile;
}
