import { GameState, UnitState } from '../../model/state';
import { boardOf } from '../board';
import { mediumAt, unitOf } from '../queries';
import { MoveContext, MoveOptions, contextsEntry, moveContexts } from './context';
import { bestNode, nodePath, searchReachable } from './search';
import { STEP, TERMINAL, step } from './step';
import { MoveProblem, PathCheck, checkPath, endProblem, sameList } from './validate-path';

export interface MoveOption {
  readonly hex: string;
  /** Movement points spent (fractions allowed). */
  readonly cost: number;
  /** Hexes entered, start excluded: submit this as the move's path. */
  readonly path: readonly string[];
}

/**
 * Every hex the unit may end a move in, with the cheapest cost and a path.
 * `with`: units moving along as one stack (GT-6D.1 (6), a Hawk's two trucks);
 * only the end hex is checked for them here, the path per unit by checkMove.
 */
export function reachableHexes(state: GameState, unitId: string, opts: MoveOptions, withUnits: readonly string[] = []): MoveOption[] {
  const contexts = moveContexts(state, unitId, opts);
  const movers = [unitOf(state, unitId), ...withUnits.map((w) => unitOf(state, w))];
  const best = new Map<number, { ctx: MoveContext; ticks: number; path: number[] }>();
  for (const c of contexts) {
    const r = searchReachable(c);
    for (const h of r.hexes) {
      if (best.has(h)) continue; // the water profile comes first and is preferred
      const node = bestNode(r, h);
      if (node < 0 || endProblem(c, movers, h) !== null) continue;
      best.set(h, { ctx: c, ticks: r.cost(node), path: nodePath(r, node) });
    }
  }
  const grid = boardOf(state.scenario).grid;
  return [...best.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([h, v]) => ({ hex: grid.label(h), cost: v.ticks / v.ctx.board.costScale, path: v.path.map((i) => grid.label(i)) }));
}

/**
 * The paths by which the unit reaches each hex of `goals`, the cheapest of each move context (an
 * amphibian's water and land moves) in the order reachableHexes prefers them, whatever the end hex holds: a move that ends in boarding
 * a transport there (GT-6G.1) is judged on the stack after boarding, which reachableHexes cannot.
 */
export function pathsInto(state: GameState, unitId: string, opts: MoveOptions, goals: ReadonlySet<string>): Map<string, string[][]> {
  const out = new Map<string, string[][]>();
  if (goals.size === 0) return out;
  const grid = boardOf(state.scenario).grid;
  for (const c of moveContexts(state, unitId, opts)) {
    // The search's buffers are reused by the next search: read its paths now.
    const r = searchReachable(c);
    for (const h of r.hexes) {
      const hex = grid.label(h);
      const node = goals.has(hex) ? bestNode(r, h) : -1;
      if (node < 0) continue;
      const path = nodePath(r, node).map((i) => grid.label(i));
      const known = out.get(hex);
      if (known === undefined) out.set(hex, [path]);
      else if (!known.some((k) => sameList(k, path))) known.push(path);
    }
  }
  return out;
}

export type MoveCheck =
  | { readonly ok: true; readonly cost: number; readonly end: string; readonly ctx: MoveContext }
  | { readonly ok: false; readonly problem: MoveProblem };

/**
 * Checks one unit's whole move (GT-6A.2: a move is one indivisible action).
 * For amphibians with two speeds, a path that touches land is a land move,
 * one entirely on water a water move (Q-GT-23).
 */
export function checkMove(state: GameState, unitId: string, path: readonly string[], opts: MoveOptions, movers?: readonly UnitState[]): MoveCheck {
  const entry = contextsEntry(state, unitId, opts);
  const who = movers ?? [unitOf(state, unitId)];
  // Validating, projecting and resolving an order check the same move of the same state up to
  // four times (resolution walks the states validation made, transitions.ts). A check depends
  // only on the contexts, the path and the movers (by identity), and its result is never changed.
  const seen = entry.checks;
  const hit = seen.find((k) => sameList(k.path, path) && sameList(k.movers, who));
  if (hit !== undefined) return hit.result;
  const result = computeCheck(state, entry.list, path, who);
  if (seen.length >= MAX_CHECKS) seen.shift();
  seen.push({ path: path.slice(), movers: who.slice(), result });
  return result;
}

const MAX_CHECKS = 4;

function computeCheck(state: GameState, contexts: readonly MoveContext[], path: readonly string[], movers: readonly UnitState[]): MoveCheck {
  const board = boardOf(state.scenario);
  const idx = path.map((l) => board.grid.indexOf(l));
  let ctx = contexts[0]!;
  let r: PathCheck;
  if (contexts.length > 1) {
    const touchesLand = [ctx.start, ...idx].some((i) => i >= 0 && mediumAt(board, i) !== 'water');
    ctx = contexts.find((c) => c.profile === (touchesLand ? 'land' : 'water'))!;
    r = checkPath(ctx, idx);
    // A bridge over water is land to a unit on it (GT-3.14): a move along bridges touches land
    // though every hex lies over water. Each profile refuses a step the other takes, so at most one fits.
    if (!r.ok) {
      const other = contexts.find((c) => c !== ctx)!;
      const alt = checkPath(other, idx);
      if (alt.ok) {
        ctx = other;
        r = alt;
      }
    }
  } else r = checkPath(ctx, idx);
  if (!r.ok) return r;
  const end = endProblem(ctx, movers, r.end);
  if (end !== null) return { ok: false, problem: end };
  return { ok: true, cost: r.cost / board.costScale, end: board.grid.label(r.end), ctx };
}

export type StopReason = 'zoc' | 'zoc_same' | 'blocked';

/**
 * The part of a planned (already valid) path that the real state lets the
 * unit carry out: hidden enemies' zones of control stop it where planning
 * could not know (rules.zoc.hidden "ignored-until-contact"). If the hex where
 * it stops may not hold it, it stops at the last earlier hex that may (at
 * worst its start). `zocAt` is the hex whose zone of control stopped it, which
 * is then beyond the end: the enemies that stopped it need not be next to the end.
 */
export function realPath(
  state: GameState,
  unitId: string,
  path: readonly string[],
  opts: Omit<MoveOptions, 'knownTo'>,
  movers?: readonly UnitState[],
  /** The move ends by boarding (a load): the stack at its planned end is the load's to check, once boarded. */
  boards = false,
): { path: string[]; stoppedBy: StopReason | null; zocAt: string | null } {
  // Options written out, not spread: this runs for every move resolved.
  const planned = checkMove(state, unitId, path, { knownTo: unitOf(state, unitId).side, hooks: opts.hooks, from: opts.from }, boards ? [] : movers);
  if (!planned.ok) throw new Error(`realPath needs a valid planned path: ${planned.problem.message}`);
  const contexts = moveContexts(state, unitId, { knownTo: null, hooks: opts.hooks, from: opts.from });
  const c = contexts.find((x) => x.profile === planned.ctx.profile) ?? contexts[0]!;
  const grid = c.board.grid;
  let from = c.start;
  let spent = 0;
  const done: number[] = [];
  let stoppedBy: StopReason | null = null;
  let zocAt: string | null = null;
  for (const l of path) {
    const to = grid.indexOf(l);
    const s = step(c, from, grid.directionTo(from, to), to, spent, done.length === 0 ? undefined : c.afloat);
    if (s < 0) {
      stoppedBy = s === STEP.ZOC_SAME ? 'zoc_same' : 'blocked';
      break;
    }
    done.push(to);
    spent += s;
    from = to;
    if (c.terminal === TERMINAL.ZOC && done.length < path.length) {
      stoppedBy = 'zoc';
      zocAt = l;
      break;
    }
  }
  const who = movers ?? [unitOf(state, unitId)];
  // The whole path carried out ends where the planned check found no end problem, and a context of the same
  // mover (its friendlyStack) has the same enemies, stacks and hooks, which are all endProblem reads.
  if (done.length === path.length && c.friendlyStack === planned.ctx.friendlyStack) return { path: done.map((i) => grid.label(i)), stoppedBy, zocAt };
  done.length = holdingLength(c, who, done, 0);
  return { path: done.map((i) => grid.label(i)), stoppedBy, zocAt };
}

/** How many of `hexes` (a move's, in order) to keep so that the last kept may hold the movers; at least `floor`. */
function holdingLength(c: MoveContext, movers: readonly UnitState[], hexes: readonly number[], floor: number): number {
  let n = hexes.length;
  while (n > floor && endProblem(c, movers, hexes[n - 1]!) !== null) n--;
  return n;
}

/**
 * Where a move along `path` (its start first) that is cut short on entering path[at] ends, as realPath ends
 * one (GT-6D.1): the last of path[floor + 1 .. at] that may hold the movers, else path[floor], a hex they
 * stand in already. What may hold them (enemy hexes, stacking) is all on the board for both sides to see.
 */
export function lastHoldingHex(
  state: GameState,
  unitId: string,
  path: readonly string[],
  floor: number,
  at: number,
  opts: Omit<MoveOptions, 'knownTo' | 'from'>,
  movers: readonly UnitState[],
): number {
  const c = moveContexts(state, unitId, { knownTo: null, hooks: opts.hooks, from: path[0]! })[0]!;
  return holdingLength(c, movers, path.slice(0, at + 1).map((l) => c.board.grid.indexOf(l)), floor + 1) - 1;
}
