import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { projectRoot } from '../database/migrate';
import type { GameSystem } from '../rules/engine/types';
import { ScenarioError } from '../rules/model/scenario-error';
import { loadScenario } from '../scenarios/load-scenario';
import { catalogEntry } from './catalog-builder';
import { StaticCatalog } from './game-catalog';

/**
 * Every scenario folder under src/scenarios that has a scenario.json, validated at load: the
 * generic checks, then those of the system its manifest names (GameSystem.checkScenario). A
 * scenario with a mistake, or for a system this server does not have, stops the server with a
 * message naming it: a half-loaded catalog would be worse.
 * Folders without scenario.json (a scenario still being authored) are skipped. Every system is
 * kept, whether or not a folder names it: games already played with it go on without their folder.
 */
export function loadCatalog(systems: readonly GameSystem[], dir = resolve(projectRoot(), 'src/scenarios')): StaticCatalog {
  const byId = new Map(systems.map((s) => [s.id, s]));
  const entries = [];
  for (const name of existsSync(dir) ? readdirSync(dir).sort() : []) {
    const folder = join(dir, name);
    if (!existsSync(join(folder, 'scenario.json'))) continue;
    const scenario = loadScenario(folder);
    const system = byId.get(scenario.manifest.system);
    if (!system) throw new Error(`Scenario ${name} needs game system "${scenario.manifest.system}", which this server does not have (known: ${[...byId.keys()].join(', ') || 'none'}).`);
    // The generic checks passed; now what only the system knows (its phase kinds, its data sections).
    const issues = system.checkScenario(scenario);
    if (issues.length > 0) throw new ScenarioError(name, issues);
    entries.push(catalogEntry(scenario, system));
  }
  return new StaticCatalog(entries, systems);
}
