import { createHash } from 'node:crypto';
import type { Scenario } from '../rules/model/scenario';
import type { GameSystem } from '../rules/engine/types';
import type { CatalogEntry } from './game-catalog';
import { scenarioFacts } from './scenario-facts';

/**
 * A scenario's version: a hash of its data as the first rules event of a game records it, so that
 * an export's scenario data can be checked against the version the game was created with.
 */
export function scenarioVersionOf(scenario: unknown): string {
  return createHash('sha256').update(JSON.stringify(scenario)).digest('hex').slice(0, 16);
}

/** A catalog entry from a validated scenario and the system that plays it. */
export function catalogEntry(scenario: Scenario, system: GameSystem): CatalogEntry {
  return { ...scenarioFacts(scenario, scenarioVersionOf(scenario), system.id), scenario, system };
}
