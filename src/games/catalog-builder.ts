import { createHash } from 'node:crypto';
import type { Scenario } from '../rules/model/scenario';
import type { GameSystem } from '../rules/engine/types';
import type { CatalogEntry } from './game-catalog';

/**
 * A scenario's version: a hash of its data as the first rules event of a game records it, so that
 * an export's scenario data can be checked against the version the game was created with.
 */
export function scenarioVersionOf(scenario: unknown): string {
  return createHash('sha256').update(JSON.stringify(scenario)).digest('hex').slice(0, 16);
}

/** A catalog entry from a validated scenario and the system that plays it. */
export function catalogEntry(scenario: Scenario, system: GameSystem): CatalogEntry {
  const m = scenario.manifest;
  return {
    id: m.id,
    version: scenarioVersionOf(scenario),
    name: m.name,
    description: m.description ?? '',
    systemId: system.id,
    sides: m.sides.map((s) => ({ id: s.id, name: s.name })),
    turns: scenario.turns.turns,
    scenario,
    system,
  };
}
