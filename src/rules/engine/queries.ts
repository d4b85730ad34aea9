import { GameState, HexLabel, UnitId, UnitState } from '../model/state';
import { UnitType } from '../model/scenario';
import { Board, boardOf } from './board';
import { assertNever } from './assert-never';
import { unitIndex } from './unit-index';

/** Reads of the state that every part of the engine shares. None of them allocate per hex. */

/**
 * All units as a list, in record order, from the units record's index (unit-index.ts): states
 * are never changed, so the list of a given record never changes either (Object.values on a
 * large record is a hot spot in move searches).
 */
export function allUnits(state: GameState): readonly UnitState[] {
  return unitIndex(state).list;
}

export function unitOf(state: GameState, id: UnitId): UnitState {
  const u = state.units[id];
  if (u === undefined) throw new RangeError(`unknown unit "${id}"`);
  return u;
}

export function typeOf(state: GameState, u: UnitState): UnitType {
  const t = state.scenario.units.types[u.type];
  if (t === undefined) throw new RangeError(`unit "${u.id}" has unknown type "${u.type}"`);
  return t;
}

/** The hex a unit is in, following carriers and towers; null when off the board or eliminated. */
export function hexOf(state: GameState, u: UnitState): HexLabel | null {
  for (let guard = 0; guard < 16; guard++) {
    switch (u.loc.at) {
      case 'hex':
        return u.loc.hex;
      case 'carried':
        u = unitOf(state, u.loc.by);
        break;
      case 'towed':
        u = unitOf(state, u.loc.by[0]!);
        break;
      case 'box':
      case 'eliminated':
        return null;
      default:
        return assertNever(u.loc, 'location');
    }
  }
  throw new RangeError(`unit "${u.id}" is carried more than 16 levels deep`);
}

export function isActive(u: UnitState): boolean {
  return u.loc.at !== 'eliminated';
}

/** Units standing in a hex themselves (not carried or towed), by label. */
export function unitsByHex(state: GameState): Map<HexLabel, UnitState[]> {
  const out = new Map<HexLabel, UnitState[]>();
  for (const u of allUnits(state)) {
    if (u.loc.at !== 'hex') continue;
    const list = out.get(u.loc.hex);
    if (list === undefined) out.set(u.loc.hex, [u]);
    else list.push(u);
  }
  return out;
}

export function unitsAt(state: GameState, hex: HexLabel): UnitState[] {
  return unitIndex(state).standing.get(hex)?.slice() ?? [];
}

/** Units standing (themselves, not carried) in the hexes next to hex index i, in record order (as a scan of allUnits would find them). */
export function standingNextTo(state: GameState, i: number): UnitState[] {
  const grid = boardOf(state.scenario).grid;
  const x = unitIndex(state);
  const out: UnitState[] = [];
  if (i < 0 || i >= grid.size) return out;
  let buckets = 0;
  for (let d = 0; d < 6; d++) {
    const n = grid.neighbours[i * 6 + d]!;
    const here = n >= 0 ? x.standing.get(grid.label(n)) : undefined;
    if (here === undefined) continue;
    for (const u of here) out.push(u);
    buckets++;
  }
  // Each bucket is in record order already: only units from several hexes need sorting.
  return buckets < 2 ? out : out.sort((a, b) => x.pos.get(a.id)! - x.pos.get(b.id)!);
}

/** Units directly aboard (carried by) a carrier. */
export function cargoOf(state: GameState, carrier: UnitId): UnitState[] {
  return unitIndex(state).carried.get(carrier)?.slice() ?? [];
}

/** Units carried or towed by this unit, at any depth (what is destroyed with it, GT-7E.1). */
export function everythingAboard(state: GameState, carrier: UnitId): UnitState[] {
  const x = unitIndex(state);
  const out: UnitState[] = [];
  const stack = [carrier];
  while (stack.length > 0) {
    const c = stack.pop()!;
    const towed = (x.towed.get(c) ?? []).filter((u) => u.loc.at === 'towed' && u.loc.by[0] === c);
    for (const u of inRecordOrder(x.pos, x.carried.get(c) ?? [], towed)) {
      out.push(u);
      stack.push(u.id);
    }
  }
  return out;
}

/** Two lists of distinct units, each in record order, merged into one in record order. */
function inRecordOrder(pos: ReadonlyMap<UnitId, number>, a: readonly UnitState[], b: readonly UnitState[]): readonly UnitState[] {
  if (b.length === 0) return a;
  if (a.length === 0) return b;
  return [...a, ...b].sort((u, v) => pos.get(u.id)! - pos.get(v.id)!);
}

/** The counters in a hex: those standing there and the guns hitched to them (a hitched gun is where its towers stand), in record order. */
export function stackAt(state: GameState, hex: HexLabel): UnitState[] {
  const x = unitIndex(state);
  const standing = x.standing.get(hex);
  if (standing === undefined) return [];
  // Loops, not flatMap and filter: attacks and stacking ask for stacks many times per order.
  let hitched: UnitState[] | undefined;
  for (const u of standing) {
    const towed = x.towed.get(u.id);
    if (towed === undefined) continue;
    for (const g of towed) if (g.loc.at === 'towed' && g.loc.by[0] === u.id) (hitched ??= []).push(g);
  }
  return hitched === undefined ? standing.slice() : [...inRecordOrder(x.pos, standing, hitched)];
}

export function towedBy(state: GameState, tower: UnitId): UnitState | undefined {
  return unitIndex(state).towed.get(tower)?.[0];
}

export function hasTag(t: UnitType, tags: readonly string[]): boolean {
  // A loop, not some() with a closure: every feature's tag tests come here.
  for (const x of tags) if (x === '*' || t.tags.includes(x)) return true;
  return false;
}

/** The medium ("land", "water"…) of the hex a unit stands in. */
export function mediumAt(board: Board, i: number): string {
  const m = board.staticMedium[i]!;
  return m === 255 ? 'off-map' : board.media[m]!;
}

/**
 * The medium a unit of this type is in when it stands in hex i. A bridge over water (GT-3.14)
 * carries on land every unit that cannot be afloat under it: one whose class may not be in the
 * water there, or that its side's passage does not let pass under (GT-3.3); such a unit can
 * only have driven onto it along the road.
 */
export function mediumOf(board: Board, t: UnitType, i: number): string {
  const m = mediumAt(board, i);
  const br = m === 'water' ? board.bridges.get(i) : undefined;
  if (br === undefined) return m;
  const pass = t.side === undefined ? undefined : br.passage[t.side];
  const mayPassUnder = pass === undefined || pass.includes('*') || pass.some((x) => t.tags.includes(x));
  const def = board.terrainDefs[board.terrain[i]!]!;
  const afloatHere = (def.movement[t.movementClass] ?? def.movement['*'])?.impassable !== true;
  return mayPassUnder && afloatHere ? m : 'land';
}

/** Target class of a unit type in a hex (GT-7D.2: an amphibian afloat is a naval target). */
export function targetClassAt(board: Board, t: UnitType, i: number): string {
  return t.targetClassByMedium[mediumOf(board, t, i)] ?? t.targetClass;
}

export function strengthVs(t: UnitType, targetClass: string): number {
  return t.strength[targetClass] ?? 0;
}

/** Speed in a medium (GT-2.3: amphibians have a land and a water speed). */
export function speedIn(t: UnitType, medium: string): number {
  return t.speeds[medium] ?? t.speed;
}

export function flag(u: UnitState, name: string): boolean {
  const v = u.flags[name] ?? u.attrs[name];
  return v !== undefined && v !== null && v !== false && v !== 0;
}

export function boardOfState(state: GameState): Board {
  return boardOf(state.scenario);
}

export function enemiesOf(state: GameState, side: string): UnitState[] {
  return allUnits(state).filter((u) => u.side !== side && u.loc.at === 'hex');
}
