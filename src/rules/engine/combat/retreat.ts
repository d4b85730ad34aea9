import { GameState, UnitState } from '../../model/state';
import { Board, boardOf } from '../board';
import { typeOf } from '../queries';
import { unitIndex } from '../unit-index';
import { stackAt, withTowed } from '../stacking';
import { stackEndProblem } from '../stack-end';
import { canStepInto } from '../transport';
import { defaultExertsZoc } from '../zoc';
import { concealedFrom } from '../visibility';
import { mediumOf } from '../queries';
import type { MoveHooks } from '../movement/context';

/**
 * What a system closes to a retreat beyond terrain, as to a move: the hexes a unit may not enter
 * (MoveHooks.blocked: Debris for a vehicle, GT-6Q.3) and the reasons a stack may not end in a hex
 * (MoveHooks.endProblem: the HERS set down off its hex, GT-6N.1). A retreat is forced on the
 * stack, but it is still the stack that goes there: where its own move may not end, neither may it.
 */
export type RetreatBlocked = Pick<MoveHooks, 'blocked' | 'endProblem'>;

export interface RetreatRules {
  /** Each step must take the stack farther from every one of these hexes (Q-GT-35). */
  readonly awayFrom: readonly number[];
  readonly mayEnterEnemyZoc: boolean;
  /** A retreat enters hexes as a move does, so what closes a hex to a move closes it to a retreat, and it ends only where a move may. */
  readonly blocked?: RetreatBlocked | undefined;
}

/** One legal retreat: the hexes entered, and whether it ends in an enemy zone of control. */
export interface RetreatOption {
  readonly path: readonly string[];
  /** Counts concealed enemies too, so it is never shown to the retreating side before the retreat. */
  readonly endsInZoc: boolean;
  readonly end: number;
}

/**
 * Every retreat path of exactly `hexes` steps for a stack (GT-7B.4, Q-GT-35):
 * every hex one the stack's units may stand in, free of enemy units and
 * of what the system closes to them (`blocked`), no hexside closed to them, each step farther from every attacker; the last
 * hex must obey the kernel's end rules (stacking, a tower by an untowed gun: stackEndProblem) and the system's. In search order (neighbour directions 0–5).
 */
export function retreatOptions(state: GameState, stack: readonly UnitState[], from: number, hexes: number, rules: RetreatRules): RetreatOption[] {
  const board = boardOf(state.scenario);
  const side = stack[0]?.side;
  if (side === undefined) return [];
  const movers = withTowed(state, stack);
  const types = movers.map((u) => typeOf(state, u));
  // Looked up only for the hexes the search reaches: a retreat is one to three hexes long, and
  // going over every enemy's zone of control first cost more than the whole search.
  const x = unitIndex(state);
  const enemyAt = (i: number) => (x.standing.get(board.grid.label(i)) ?? []).some((e) => e.side !== side);
  const near = new Map<number, boolean>();
  const enemyNear = (n: number): boolean => {
    let v = near.get(n);
    if (v === undefined) {
      v = false;
      for (let d = 0; d < 6 && !v; d++) {
        const i = board.grid.neighbour(n, d);
        // As the retreating side knows them: whether a unit under a marker exerts a zone of control
        // depends on what it is, so the engine's choice would tell it; any concealed enemy counts.
        if (i >= 0) v = (x.standing.get(board.grid.label(i)) ?? []).some((e) => e.side !== side && (concealedFrom(state, e).includes(side) || types.some((t) => defaultExertsZoc(state, e, t, mediumOf(board, t, n)))));
      }
      near.set(n, v);
    }
    return v;
  };
  const ids = new Set(movers.map((u) => u.id));
  const closed = new Set(movers.flatMap((u) => [...(rules.blocked?.blocked?.(state, u, board).keys() ?? [])]));
  const out: RetreatOption[] = [];
  const path: number[] = [];
  const visit = (cur: number) => {
    if (path.length === hexes) {
      const end = path[path.length - 1]!;
      if (endOk(state, board, side, end, movers, ids, types) && (rules.blocked?.endProblem?.(state, movers, end) ?? null) === null) out.push({ path: path.map((i) => board.grid.label(i)), endsInZoc: enemyNear(end), end });
      return;
    }
    for (let d = 0; d < 6; d++) {
      const n = board.grid.neighbour(cur, d);
      if (n < 0 || n === from || path.includes(n) || enemyAt(n) || closed.has(n)) continue;
      // Q-GT-35: terrain the unit could enter on this step (a bridge over water only along the road).
      if (!types.every((t) => canStepInto(board, t, cur, d, n))) continue;
      if (closedHexside(board, types, cur, d)) continue;
      if (!rules.mayEnterEnemyZoc && enemyNear(n) && path.length + 1 < hexes) continue;
      if (!rules.awayFrom.every((a) => board.grid.distance(n, a) > board.grid.distance(cur, a))) continue;
      path.push(n);
      visit(n);
      path.pop();
    }
  };
  visit(from);
  return out;
}

/** The engine's choice (Q-GT-35 when the owner does not choose): a final hex outside enemy zones of control first, then the lowest hex, then search order. */
export function preferredRetreat(options: readonly RetreatOption[]): RetreatOption | null {
  let best: RetreatOption | null = null;
  for (const o of options) {
    if (best === null || Number(o.endsInZoc) < Number(best.endsInZoc) || (o.endsInZoc === best.endsInZoc && o.end < best.end)) best = o;
  }
  return best;
}

/** The engine's retreat path for a stack, or null when there is none (the stack is then destroyed). */
export function retreatPath(state: GameState, stack: readonly UnitState[], from: number, hexes: number, rules: RetreatRules): string[] | null {
  const best = preferredRetreat(retreatOptions(state, stack, from, hexes, rules));
  return best === null ? null : [...best.path];
}

function endOk(state: GameState, board: Board, side: string, end: number, movers: readonly UnitState[], moving: ReadonlySet<string>, types: readonly ReturnType<typeof typeOf>[]): boolean {
  return stackEndProblem(state, board, side, end, movers, types, stackAt(state, side, board.grid.label(end), moving)) === null;
}

function closedHexside(board: Board, types: readonly ReturnType<typeof typeOf>[], from: number, dir: number): boolean {
  if (board.hexsides === null) return false;
  const mask = board.hexsides[from * 6 + dir]!;
  if (mask === 0) return false;
  return board.hexsideIds.some((h, k) => {
    if ((mask & (1 << k)) === 0) return false;
    const def = board.scenario.terrain.hexsides[h]!;
    return types.some((t) => (def.movement[t.movementClass] ?? def.movement['*'])?.impassable === true);
  });
}
