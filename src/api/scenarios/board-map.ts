import type { CatalogEntry } from '../../games/game-catalog';
import { formatLabel, labelFormat } from '../../rules/hex';
import type { BoardHex } from './scenario.model';

export interface PublicMap {
  columns: number;
  rows: number;
  hexes: BoardHex[];
  terrain: Record<string, { name: string; medium: string | null }>;
  features: Record<string, unknown>;
}

interface MapData {
  columns: number;
  rows: number;
  terrainRows: string[];
  legend: Record<string, string | null>;
  [overlay: string]: unknown;
}

const cache = new WeakMap<CatalogEntry, PublicMap | null>();

/**
 * The board of a scenario as every side may see it: the map is public data (it is printed on
 * the box), read from the scenario files, never from a game's state. Null for a system whose
 * scenarios are not in the kernel's map format.
 */
export function publicMap(entry: CatalogEntry): PublicMap | null {
  if (cache.has(entry)) return cache.get(entry)!;
  const scenario = entry.scenario as { map?: MapData; terrain?: { terrain?: Record<string, { name?: string; medium?: string }> } } | null;
  const map = scenario?.map;
  let out: PublicMap | null = null;
  if (map && Array.isArray(map.terrainRows) && map.legend) {
    const format = labelFormat(map.columns, map.rows);
    const hexes: BoardHex[] = [];
    map.terrainRows.forEach((line, row) => {
      [...line].forEach((ch, col) => {
        const terrain = map.legend[ch];
        if (terrain) hexes.push({ hex: formatLabel(col, row, format), terrain });
      });
    });
    const { columns, rows, terrainRows: _rows, legend: _legend, notes: _notes, ...features } = map;
    const terrain = Object.fromEntries(Object.entries(scenario?.terrain?.terrain ?? {}).map(([id, t]) => [id, { name: t.name ?? id, medium: t.medium ?? null }]));
    out = { columns, rows, hexes, terrain, features };
  }
  cache.set(entry, out);
  return out;
}
