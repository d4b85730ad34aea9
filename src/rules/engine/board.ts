import { HexGrid, gridFor } from '../hex/grid';
import { Area, OverlayType, Scenario, TerrainType } from '../model/scenario';

export const OFF_MAP = 255;

export interface BridgeInfo {
  readonly hex: number;
  /** Side → tags of boats that may pass under; ["*"] all, [] none; a side not listed is not restricted. */
  readonly passage: Readonly<Record<string, readonly string[]>>;
}

/**
 * The scenario's map compiled into typed arrays, once per scenario object
 * (cached in a WeakMap, never stored in state). Movement, ZOC and combat read
 * terrain through this, never by parsing labels or strings in a loop.
 */
export interface Board {
  readonly scenario: Scenario;
  readonly grid: HexGrid;
  /** Terrain index per hex; OFF_MAP for hexes whose legend entry is null. */
  readonly terrain: Uint8Array;
  readonly terrainIds: readonly string[];
  readonly terrainDefs: readonly TerrainType[];
  readonly media: readonly string[];
  /** Medium index per terrain index. */
  readonly terrainMedium: Uint8Array;
  /** Medium index per hex, counting "always" overlays that set a medium; 255 off-map. */
  readonly staticMedium: Uint8Array;
  readonly waterMedium: number;
  readonly overlayIds: readonly string[];
  readonly overlayDefs: readonly OverlayType[];
  /** Overlay bitmask per hex (bit i = overlayIds[i]). */
  readonly overlays: Uint32Array;
  /** Per overlay index: 6-bit direction mask per hex of network edges, or null when it has no paths. */
  readonly networks: readonly (Uint8Array | null)[];
  readonly hexsideIds: readonly string[];
  /** size × 6 bitmask of hexside features (bit i = hexsideIds[i]), or null when the map has none. */
  readonly hexsides: Uint32Array | null;
  readonly bridges: ReadonlyMap<number, BridgeInfo>;
  /** City index per hex (into map.cities) or -1; airfield index likewise. */
  readonly cityOf: Int32Array;
  readonly airfieldOf: Int32Array;
  /**
   * Movement points are counted in integer ticks of 1/costScale MP, so that
   * fractional costs (speed / cap, Q-GT-06) add up exactly.
   */
  readonly costScale: number;
}

const boards = new WeakMap<Scenario, Board>();

export function boardOf(scenario: Scenario): Board {
  let b = boards.get(scenario);
  if (b === undefined) {
    b = compileBoard(scenario);
    boards.set(scenario, b);
  }
  return b;
}

function compileBoard(s: Scenario): Board {
  const m = s.map;
  const grid = gridFor(m.columns, m.rows);
  const terrainIds = Object.keys(s.terrain.terrain);
  const terrainDefs = terrainIds.map((t) => s.terrain.terrain[t]!);
  const media = [...new Set(['land', 'water', ...terrainDefs.map((t) => t.medium), ...Object.values(s.terrain.overlays).flatMap((o) => (o.medium ? [o.medium] : []))])];
  const terrainMedium = Uint8Array.from(terrainDefs.map((t) => media.indexOf(t.medium)));
  const terrainIndex = new Map(terrainIds.map((t, i) => [t, i]));
  const terrain = new Uint8Array(grid.size).fill(OFF_MAP);
  m.terrainRows.forEach((row, r) => {
    [...row].forEach((ch, c) => {
      const t = m.legend[ch];
      if (t !== null && t !== undefined) terrain[grid.index(c, r)] = terrainIndex.get(t)!;
    });
  });

  const overlayIds = Object.keys(s.terrain.overlays);
  if (overlayIds.length > 32) throw new RangeError('at most 32 overlay kinds are supported');
  const overlayDefs = overlayIds.map((o) => s.terrain.overlays[o]!);
  const bit = (o: string) => overlayIds.indexOf(o);
  const overlays = new Uint32Array(grid.size);
  const networks: (Uint8Array | null)[] = overlayIds.map(() => null);
  const mark = (overlay: string, labels: readonly string[]) => {
    const b = bit(overlay);
    if (b < 0) return;
    for (const l of labels) overlays[grid.indexOf(l)]! |= 1 << b;
  };
  const link = (overlay: string, paths: readonly (readonly string[])[]) => {
    const b = bit(overlay);
    if (b < 0) return;
    const net = (networks[b] ??= new Uint8Array(grid.size));
    for (const p of paths) {
      mark(overlay, p);
      for (let k = 1; k < p.length; k++) {
        const a = grid.indexOf(p[k - 1]!);
        const c = grid.indexOf(p[k]!);
        const d = grid.directionTo(a, c);
        net[a]! |= 1 << d;
        net[c]! |= 1 << ((d + 3) % 6);
      }
    }
  };
  link('road', m.roads);
  link('river', m.rivers);
  for (const n of m.networks) link(n.overlay, n.paths);
  mark('bridge', m.bridges.map((b) => b.hex));
  for (const c of m.cities) mark('city', c.hexes);
  for (const a of m.airfields) mark('airfield', a.hexes);
  for (const o of m.overlays) mark(o.overlay, o.hexes);

  const staticMedium = new Uint8Array(grid.size).fill(OFF_MAP);
  for (let i = 0; i < grid.size; i++) {
    if (terrain[i] === OFF_MAP) continue;
    let med = terrainMedium[terrain[i]!]!;
    const mask = overlays[i]!;
    for (let b = 0; mask !== 0 && b < overlayDefs.length; b++) {
      const o = overlayDefs[b]!;
      if (mask & (1 << b) && o.applies === 'always' && o.medium !== undefined) med = media.indexOf(o.medium);
    }
    staticMedium[i] = med;
  }

  const hexsideIds = Object.keys(s.terrain.hexsides);
  let hexsides: Uint32Array | null = null;
  if (m.hexsides.length > 0) {
    hexsides = new Uint32Array(grid.size * 6);
    for (const h of m.hexsides) {
      const a = grid.indexOf(h.between[0]);
      const c = grid.indexOf(h.between[1]);
      const d = grid.directionTo(a, c);
      const f = 1 << hexsideIds.indexOf(h.feature);
      hexsides[a * 6 + d]! |= f;
      hexsides[c * 6 + ((d + 3) % 6)]! |= f;
    }
  }

  const bridges = new Map<number, BridgeInfo>();
  for (const b of m.bridges) {
    const i = grid.indexOf(b.hex);
    bridges.set(i, { hex: i, passage: b.passage });
  }
  const cityOf = new Int32Array(grid.size).fill(-1);
  m.cities.forEach((c, k) => c.hexes.forEach((h) => (cityOf[grid.indexOf(h)] = k)));
  const airfieldOf = new Int32Array(grid.size).fill(-1);
  m.airfields.forEach((a, k) => a.hexes.forEach((h) => (airfieldOf[grid.indexOf(h)] = k)));

  return {
    scenario: s,
    grid,
    terrain,
    terrainIds,
    terrainDefs,
    media,
    terrainMedium,
    staticMedium,
    waterMedium: media.indexOf('water'),
    overlayIds,
    overlayDefs,
    overlays,
    networks,
    hexsideIds,
    hexsides,
    bridges,
    cityOf,
    airfieldOf,
    costScale: costScaleOf(s),
  };
}

/** Smallest tick count per MP that makes every cost, speed and speed/cap an integer. */
function costScaleOf(s: Scenario): number {
  let scale = 1;
  const need = (x: number) => {
    for (let d = 1; d <= 64; d++) {
      if (Math.abs(x * d - Math.round(x * d)) < 1e-9) {
        scale = lcm(scale, d);
        return;
      }
    }
    throw new RangeError(`movement value ${x} is not a fraction with a denominator up to 64`);
  };
  const entries = [
    ...Object.values(s.terrain.terrain).flatMap((t) => Object.values(t.movement)),
    ...Object.values(s.terrain.overlays).flatMap((t) => Object.values(t.movement)),
  ];
  for (const e of entries) {
    if (e.cost !== undefined) need(e.cost);
    if (e.cap !== undefined) scale = lcm(scale, e.cap);
  }
  for (const h of Object.values(s.terrain.hexsides)) for (const e of Object.values(h.movement)) if (e.extraCost !== undefined) need(e.extraCost);
  let speedScale = 1;
  for (const t of Object.values(s.units.types)) {
    for (const v of [t.speed, ...Object.values(t.speeds)]) {
      for (let d = 1; d <= 64; d++) {
        if (Math.abs(v * d - Math.round(v * d)) < 1e-9) {
          speedScale = lcm(speedScale, d);
          break;
        }
      }
    }
  }
  const penalty = s.rules.towing.firstTurnMpPenalty;
  need(penalty);
  return scale * speedScale;
}

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}

function lcm(a: number, b: number): number {
  return (a / gcd(a, b)) * b;
}

/** The board index of a label, or -1. */
export function hexIndex(board: Board, label: string): number {
  return board.grid.indexOf(label);
}

export function isOnMap(board: Board, i: number): boolean {
  return i >= 0 && board.terrain[i] !== OFF_MAP;
}

export function hasOverlay(board: Board, i: number, overlay: string): boolean {
  const b = board.overlayIds.indexOf(overlay);
  return b >= 0 && (board.overlays[i]! & (1 << b)) !== 0;
}

/** Whether hex i lies in the area (victory.json, rules.json stacking): listed, or a hex of the city or capital named. */
export function inArea(board: Board, area: Area, i: number): boolean {
  if ('hexes' in area) return area.hexes.some((h) => board.grid.indexOf(h) === i);
  const city = board.scenario.map.cities[board.cityOf[i] ?? -1];
  if (city === undefined) return false;
  return 'city' in area ? city.id === area.city : city.capital;
}

export function terrainIdAt(board: Board, i: number): string | null {
  const t = board.terrain[i]!;
  return t === OFF_MAP ? null : board.terrainIds[t]!;
}
