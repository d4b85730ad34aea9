import manifest from './scenario/scenario.json';
import map from './scenario/map.json';
import terrain from './scenario/terrain.json';
import rules from './scenario/rules.json';
import units from './scenario/units.json';
import oob from './scenario/oob.json';
import setup from './scenario/setup.json';
import turns from './scenario/turns.json';
import victory from './scenario/victory.json';
import { parseScenario } from '../model/parse-scenario';
import { Scenario } from '../model/scenario';

/** The test scenario's files, as a loader would hand them over (imported, so no file I/O here). */
export function testScenarioFiles(): Record<string, unknown> {
  return JSON.parse(
    JSON.stringify({
      'scenario.json': manifest,
      'map.json': map,
      'terrain.json': terrain,
      'rules.json': rules,
      'units.json': units,
      'oob.json': oob,
      'setup.json': setup,
      'turns.json': turns,
      'victory.json': victory,
    }),
  ) as Record<string, unknown>;
}

let cached: Scenario | undefined;

/** The parsed test scenario, shared (scenarios are never changed, and the board cache keys on it). */
export function testScenario(): Scenario {
  cached ??= parseScenario(testScenarioFiles());
  return cached;
}
