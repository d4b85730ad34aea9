import type { GameSystem } from '../rules/engine/types';

/** A scenario that games can be created from, with the system that plays it. */
export interface CatalogEntry {
  id: string;
  /** Changes whenever the scenario's data changes (a hash of its files), so exports name exactly what was played. */
  version: string;
  name: string;
  description: string;
  systemId: string;
  sides: Array<{ id: string; name: string }>;
  turns: number;
  /** The validated scenario data handed to `system.start`. */
  scenario: unknown;
  system: GameSystem;
}

export interface GameCatalog {
  list(): CatalogEntry[];
  get(scenarioId: string): CatalogEntry | undefined;
}

export const GAME_CATALOG = Symbol('GAME_CATALOG');

export class StaticCatalog implements GameCatalog {
  private readonly byId: Map<string, CatalogEntry>;
  constructor(entries: CatalogEntry[]) {
    this.byId = new Map(entries.map((e) => [e.id, e]));
    // A Map keeps the last of two entries with one id: the other scenario would vanish unnoticed.
    if (this.byId.size !== entries.length) throw new Error(`two scenarios of the catalog have the same id (${entries.map((e) => e.id).join(', ')})`);
  }
  list(): CatalogEntry[] {
    return [...this.byId.values()];
  }
  get(scenarioId: string): CatalogEntry | undefined {
    return this.byId.get(scenarioId);
  }
}
