import type { GameSystem } from '../rules/engine/types';
import type { ScenarioFacts } from './scenario-facts';

/** A scenario that games can be created from, with the system that plays it. */
export interface CatalogEntry extends ScenarioFacts {
  /** The validated scenario data handed to `system.start`. */
  scenario: unknown;
  system: GameSystem;
}

/**
 * The scenarios on offer and the systems this server plays. A game needs only its system: it
 * carries the scenario data it was created with, so an entry changed or gone since then changes
 * nothing for it.
 */
export interface GameCatalog {
  list(): CatalogEntry[];
  get(scenarioId: string): CatalogEntry | undefined;
  system(systemId: string): GameSystem | undefined;
}

export const GAME_CATALOG = Symbol('GAME_CATALOG');

export class StaticCatalog implements GameCatalog {
  private readonly byId: Map<string, CatalogEntry>;
  private readonly systems: Map<string, GameSystem>;
  /** `systems`: besides those of the entries, systems whose scenarios are no longer on offer. */
  constructor(entries: CatalogEntry[], systems: readonly GameSystem[] = []) {
    this.byId = new Map(entries.map((e) => [e.id, e]));
    // A Map keeps the last of two entries with one id: the other scenario would vanish unnoticed.
    if (this.byId.size !== entries.length) throw new Error(`two scenarios of the catalog have the same id (${entries.map((e) => e.id).join(', ')})`);
    this.systems = new Map([...systems, ...entries.map((e) => e.system)].map((s) => [s.id, s]));
  }
  list(): CatalogEntry[] {
    return [...this.byId.values()];
  }
  get(scenarioId: string): CatalogEntry | undefined {
    return this.byId.get(scenarioId);
  }
  system(systemId: string): GameSystem | undefined {
    return this.systems.get(systemId);
  }
}
