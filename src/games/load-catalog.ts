import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { projectRoot } from '../database/migrate';
import { logger } from '../logging/logger';
import type { GameSystem } from '../rules/engine/types';
import { ScenarioError } from '../rules/model/scenario-error';
import { loadScenario } from '../scenarios/load-scenario';
import { catalogEntry } from './catalog-builder';
import { CatalogEntry, StaticCatalog } from './game-catalog';

/**
 * Every scenario folder under src/scenarios that has a scenario.json, validated at load: the
 * generic checks, then those of the system its manifest names (GameSystem.checkScenario). A
 * scenario with a mistake, for a system this server does not have, or with the id of another
 * folder's scenario stops the server with a ScenarioError naming it: a half-loaded catalog would
 * be worse. A folder without scenario.json (a scenario still being authored) is skipped, with a
 * warning, so that a forgotten file does not take a scenario away unnoticed.
 * Every system is kept, whether or not a folder names it: games already played with it go on
 * without their folder.
 */
export function loadCatalog(systems: readonly GameSystem[], dir = resolve(projectRoot(), 'src/scenarios')): StaticCatalog {
  const byId = new Map(systems.map((s) => [s.id, s]));
  const folderOf = new Map<string, string>();
  const entries: CatalogEntry[] = [];
  for (const name of existsSync(dir) ? readdirSync(dir).sort() : []) {
    const folder = join(dir, name);
    if (!statSync(folder).isDirectory()) continue;
    if (!existsSync(join(folder, 'scenario.json'))) {
      logger().warn({ component: 'catalog', folder }, `scenario folder ${name} skipped: it has no scenario.json (a scenario still being authored)`);
      continue;
    }
    const scenario = loadScenario(folder);
    const { id, system: systemId } = scenario.manifest;
    const system = byId.get(systemId);
    if (!system) throw refusal(name, 'system', `game system "${systemId}" is not one this server has (it has: ${[...byId.keys()].join(', ') || 'none'})`);
    const other = folderOf.get(id);
    if (other !== undefined) throw refusal(name, 'id', `"${id}" is already the id of the scenario in folder ${other}: each scenario needs its own id`);
    folderOf.set(id, name);
    // The generic checks passed; now what only the system knows (its phase kinds, its data sections).
    const issues = system.checkScenario(scenario);
    if (issues.length > 0) throw new ScenarioError(name, issues);
    entries.push(catalogEntry(scenario, system));
  }
  return new StaticCatalog(entries, systems);
}

function refusal(folder: string, path: string, message: string): ScenarioError {
  return new ScenarioError(folder, [{ file: 'scenario.json', path, message }]);
}
