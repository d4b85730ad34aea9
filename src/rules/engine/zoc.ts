import { GameState, UnitState } from '../model/state';
import { UnitType } from '../model/scenario';
import { Board } from './board';
import { flag, mediumOf, strengthVs, typeOf, allUnits } from './queries';
import { ZOC_FORBIDDEN, ZOC_STOP } from './movement/step';
import { enemyVersion } from './unit-index';

/**
 * Whether `enemy` exerts a zone of control on a unit of type `moverType` that
 * is in a hex of `medium`. The default follows rules.json: "can-attack" means
 * non-zero strength against the mover's target class there (GT-6C.2, Q-GT-21).
 * Systems may replace it (aircraft whose strength depends on markers).
 * `knownTo` is the side whose knowledge plans the move (null = the real
 * state), so that a fact hidden from the mover (a secretly broken-down unit,
 * GT-4.8) can be taken into account only where the mover may know it.
 * It may read anything in the state but the units of the mover's own side:
 * the answers are reused while only those change (zonesOf below).
 */
export type ExertsZoc = (state: GameState, enemy: UnitState, moverType: UnitType, medium: string, knownTo?: string | null) => boolean;

export const defaultExertsZoc: ExertsZoc = (state, enemy, moverType, medium) => {
  const rule = state.scenario.rules.zoc;
  if (rule.exertedBy === 'none') return false;
  if (rule.noZocWhen.some((f) => flag(enemy, f))) return false;
  if (rule.exertedBy === 'any') return true;
  const cls = moverType.targetClassByMedium[medium] ?? moverType.targetClass;
  return strengthVs(typeOf(state, enemy), cls) > 0;
};

/**
 * Per-hex ZOC flags for one moving unit: ZOC_STOP where entering ends the
 * move, ZOC_FORBIDDEN where it may not go at all (GT-6C.3: the ZOC it started
 * in; or, with "no-zoc-to-zoc", any ZOC when it started in one).
 *
 * `knownTo`: plan from this side's knowledge. Hidden enemies are then either
 * ignored (the real move is cut short at resolution) or assumed to exert a ZOC,
 * as rules.json says, so that planning never depends on hidden facts.
 *
 * The array may be shared with other moves: read it, never write it.
 */
export function zocFlags(
  state: GameState,
  board: Board,
  mover: UnitState,
  start: number,
  knownTo: string | null,
  exerts: ExertsZoc = defaultExertsZoc,
): Uint8Array {
  const rule = state.scenario.rules.zoc;
  if (rule.exertedBy === 'none') return zeros(board);
  const z = zonesOf(state, board, mover, knownTo, exerts);
  if (start < 0 || rule.leaving === 'free') return z.stop;
  const grid = board.grid;
  const nb = grid.neighbours;
  const startZoc: number[] = [];
  for (let d = 0; d < 6; d++) {
    const at = nb[start * 6 + d]!;
    const reach = at < 0 ? undefined : z.reach.get(at);
    if (reach !== undefined && (reach & (1 << grid.directionTo(at, start))) !== 0) startZoc.push(at);
  }
  if (startZoc.length === 0) return z.stop;
  const into = z.stop.slice();
  if (rule.leaving === 'no-zoc-to-zoc') {
    for (let i = 0; i < into.length; i++) if (into[i] !== 0) into[i]! |= ZOC_FORBIDDEN;
    return into;
  }
  // Only the hexes that enemy's own ZOC reaches: next to it, another enemy's ZOC (or none, where
  // the medium changes the mover's class) is not "that same ZOC".
  for (const at of startZoc) {
    const reach = z.reach.get(at)!;
    for (let d = 0; d < 6; d++) {
      const n = nb[at * 6 + d]!;
      if (n >= 0 && (reach & (1 << d)) !== 0) into[n]! |= ZOC_FORBIDDEN;
    }
  }
  return into;
}

/** The zones of control of a side's enemies as one kind of mover sees them (see zonesOf). */
interface Zones {
  readonly scenario: GameState['scenario'];
  readonly sides: GameState['sides'];
  readonly ext: GameState['ext'];
  readonly phase: GameState['phase'];
  readonly exerts: ExertsZoc;
  readonly knownTo: string | null;
  readonly moverType: UnitType;
  /** ZOC_STOP where some enemy exerts a ZOC. */
  readonly stop: Uint8Array;
  /** Per hex holding an exerting enemy: bit d set when its ZOC reaches its neighbour in direction d. */
  readonly reach: ReadonlyMap<number, number>;
}

const zoneCache = new WeakMap<object, Zones[]>();
const MAX_ZONES = 16;

/**
 * Computed once for as long as the mover's enemies are unchanged: cached under
 * enemyVersion (unit-index.ts), which changes with any enemy unit, and matched on
 * everything else an ExertsZoc may read (sides, ext, phase, scenario). Hence the
 * contract on ExertsZoc: it may not read the mover's side's units.
 */
function zonesOf(state: GameState, board: Board, mover: UnitState, knownTo: string | null, exerts: ExertsZoc): Zones {
  const key = enemyVersion(state, mover.side);
  const moverType = typeOf(state, mover);
  let list = zoneCache.get(key);
  if (list === undefined) zoneCache.set(key, (list = []));
  for (const z of list)
    if (
      z.moverType === moverType &&
      z.knownTo === knownTo &&
      z.exerts === exerts &&
      z.sides === state.sides &&
      z.ext === state.ext &&
      z.phase === state.phase &&
      z.scenario === state.scenario
    )
      return z;
  const z = computeZones(state, board, mover, moverType, knownTo, exerts);
  if (list.length >= MAX_ZONES) list.shift();
  list.push(z);
  return z;
}

function computeZones(state: GameState, board: Board, mover: UnitState, moverType: UnitType, knownTo: string | null, exerts: ExertsZoc): Zones {
  const rule = state.scenario.rules.zoc;
  const stop = new Uint8Array(board.grid.size);
  const reach = new Map<number, number>();
  const nb = board.grid.neighbours;
  for (const { unit: e, at } of enemiesOnBoard(state, board, mover.side)) {
    const hidden = knownTo !== null && e.hidden !== undefined && e.side !== knownTo;
    if (hidden && rule.hidden === 'ignored-until-contact') continue;
    // Asked only for the media around it (exerts is pure): an enemy inland needs no water answer.
    let onLand: boolean | undefined;
    let onWater: boolean | undefined;
    const other = hidden ? true : null;
    let dirs = 0;
    for (let d = 0; d < 6; d++) {
      const n = nb[at * 6 + d]!;
      if (n < 0) continue;
      const m = mediumOf(board, moverType, n);
      const ex =
        m === 'land'
          ? (onLand ??= hidden || exerts(state, e, moverType, 'land', knownTo))
          : m === 'water'
            ? (onWater ??= hidden || exerts(state, e, moverType, 'water', knownTo))
            : (other ?? exerts(state, e, moverType, m, knownTo));
      if (!ex) continue;
      stop[n]! |= ZOC_STOP;
      dirs |= 1 << d;
    }
    if (dirs !== 0) reach.set(at, (reach.get(at) ?? 0) | dirs);
  }
  return { scenario: state.scenario, sides: state.sides, ext: state.ext, phase: state.phase, exerts, knownTo, moverType, stop, reach };
}

/** A unit standing in a hex of the board, with the hex's index. */
export interface Placed {
  readonly unit: UnitState;
  readonly at: number;
}

const placedCache = new WeakMap<object, { readonly board: Board; readonly list: readonly Placed[] }>();

/**
 * The units of every side but `side` standing in a hex of the board, in record order: the
 * same for as long as enemyVersion is, so found once for all of `side`'s movers (the zones of
 * each mover type, the hexes enemies hold) instead of scanning every unit each time.
 */
export function enemiesOnBoard(state: GameState, board: Board, side: string): readonly Placed[] {
  const key = enemyVersion(state, side);
  const hit = placedCache.get(key);
  if (hit !== undefined && hit.board === board) return hit.list;
  const list: Placed[] = [];
  for (const u of allUnits(state)) {
    // A hitched gun is where its towers stand, and exerts its zone from there as any unit does.
    if (u.side === side || (u.loc.at !== 'hex' && u.loc.at !== 'towed')) continue;
    const tower = u.loc.at === 'towed' ? state.units[u.loc.by[0]!] : undefined;
    const hex = u.loc.at === 'hex' ? u.loc.hex : tower?.loc.at === 'hex' ? tower.loc.hex : null;
    const at = hex === null ? -1 : board.grid.indexOf(hex);
    if (at >= 0) list.push({ unit: u, at });
  }
  placedCache.set(key, { board, list });
  return list;
}

const zeroArrays = new WeakMap<Board, Uint8Array>();

/** A board-sized array of zeros, shared: read only. */
export function zeros(board: Board): Uint8Array {
  let z = zeroArrays.get(board);
  if (z === undefined) zeroArrays.set(board, (z = new Uint8Array(board.grid.size)));
  return z;
}
