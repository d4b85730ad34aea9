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

/** The board of one scenario version, and its hexes for the checks of a hex named in a request. */
interface Board {
  map: PublicMap | null;
  hexes: ReadonlySet<string>;
}

// A version names its data (a hash of it), so a board built once serves every game of that
// version and the catalog entry that has it. Scenario versions are few; the bound is for a
// server whose scenarios are edited often while it runs for months.
const MAX_BOARDS = 32;
const boards = new Map<string, Board>();

/**
 * The board of a scenario as every side may see it: the map is public data (it is printed on
 * the box). A game's board is the one of the data it recorded (games/scenario-facts.ts), which
 * may no longer be the one on offer. Null for a system whose scenarios are not in the kernel's
 * map format.
 */
export function publicMap(scenario: { version: string; data: unknown }): PublicMap | null {
  return boardOf(scenario).map;
}

/** Whether the hex is on the scenario's map; true for a system without a kernel map, which has no hexes to check against. */
export function onMap(scenario: { version: string; data: unknown }, hex: string): boolean {
  const board = boardOf(scenario);
  return board.map === null || board.hexes.has(hex);
}

function boardOf(scenario: { version: string; data: unknown }): Board {
  let board = boards.get(scenario.version);
  if (board) {
    boards.delete(scenario.version);
  } else {
    const map = buildMap(scenario.data);
    board = { map, hexes: new Set(map?.hexes.map((h) => h.hex)) };
    if (boards.size >= MAX_BOARDS) boards.delete(boards.keys().next().value!);
  }
  boards.set(scenario.version, board);
  return board;
}

function buildMap(data: unknown): PublicMap | null {
  const scenario = data as { map?: MapData; terrain?: { terrain?: Record<string, { name?: string; medium?: string }> } } | null;
  const map = scenario?.map;
  if (!map || !Array.isArray(map.terrainRows) || !map.legend) return null;
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
  return { columns, rows, hexes, terrain, features };
}
