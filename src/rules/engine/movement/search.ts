import { MinHeap } from '../../hex/heap';
import { Board } from '../board';
import { MoveContext } from './context';
import { TERMINAL, step } from './step';

export const UNREACHED = 0x7fffffff;

/**
 * Cheapest arrival at each hex for one move profile. Nodes are (hex, ended):
 * layer 0 = arrived and may go on, layer 1 = arrived and the move is over
 * (entered a ZOC, crossed the waterline as the last step, used the whole
 * move). Keeping both layers makes the search exact when a cheap arrival
 * ends the move but a dearer one could continue.
 *
 * The arrays belong to a scratch area shared per board: a result is valid
 * until the next search on the same board (read it, then search again).
 */
export interface Reachable {
  readonly ctx: MoveContext;
  /** Hexes reached (either layer), each once, start excluded, in the order first reached. */
  readonly hexes: Int32Array;
  /** Cost in ticks of a node (hex * 2 + layer), UNREACHED when not reached. */
  cost(node: number): number;
  /** Previous node on the cheapest path; -1 for the start. */
  prev(node: number): number;
}

/** Reused per board so that a search allocates nothing proportional to the map. */
interface Scratch {
  gen: number;
  readonly stamp: Uint32Array;
  readonly cost: Int32Array;
  readonly prev: Int32Array;
  /** 1 where the cheapest arrival at a node left the unit afloat (step.ts c.afloat). */
  readonly afloat: Uint8Array;
  readonly seenStamp: Uint32Array;
  readonly heap: MinHeap;
}

const scratches = new WeakMap<Board, Scratch>();

function scratchFor(board: Board): Scratch {
  let s = scratches.get(board);
  if (s === undefined) {
    const n = board.grid.size;
    s = { gen: 0, stamp: new Uint32Array(n * 2), cost: new Int32Array(n * 2), prev: new Int32Array(n * 2), afloat: new Uint8Array(n * 2), seenStamp: new Uint32Array(n), heap: new MinHeap(256) };
    scratches.set(board, s);
  }
  return s;
}

export function searchReachable(c: MoveContext): Reachable {
  const sc = scratchFor(c.board);
  const gen = ++sc.gen;
  if (gen === 0xffffffff) {
    sc.stamp.fill(0);
    sc.seenStamp.fill(0);
    sc.gen = 1;
  }
  const g = sc.gen;
  const { stamp, cost, prev, afloat, seenStamp, heap } = sc;
  const hexes: number[] = [];
  const result: Reachable = {
    ctx: c,
    hexes: new Int32Array(0),
    cost: (n) => (stamp[n] === g ? cost[n]! : UNREACHED),
    prev: (n) => (stamp[n] === g ? prev[n]! : -1),
  };
  const start = c.start;
  if (start < 0 || c.budget <= 0) return result;
  const nb = c.board.grid.neighbours;
  heap.clear();
  stamp[start * 2] = g;
  cost[start * 2] = 0;
  prev[start * 2] = -1;
  heap.push(0, start * 2);
  while (heap.size > 0) {
    const spent = heap.peekPriority();
    const node = heap.pop();
    if (spent > cost[node]!) continue;
    const from = node >> 1;
    const base = from * 6;
    for (let d = 0; d < 6; d++) {
      const to = nb[base + d]!;
      if (to < 0 || to === start) continue;
      const s = step(c, from, d, to, spent, from === start ? undefined : afloat[node] === 1);
      if (s < 0) continue;
      const nc = spent + s;
      const n = to * 2 + (c.terminal === TERMINAL.NONE ? 0 : 1);
      if (stamp[n] !== g || nc < cost[n]!) {
        stamp[n] = g;
        cost[n] = nc;
        prev[n] = node;
        afloat[n] = c.afloat ? 1 : 0;
        if (seenStamp[to] !== g) {
          seenStamp[to] = g;
          hexes.push(to);
        }
        if ((n & 1) === 0) heap.push(nc, n);
      }
    }
  }
  return { ...result, hexes: Int32Array.from(hexes) };
}

/** Cheapest node reaching a hex (either layer), or -1. */
export function bestNode(r: Reachable, hex: number): number {
  const a = r.cost(hex * 2);
  const b = r.cost(hex * 2 + 1);
  if (a === UNREACHED && b === UNREACHED) return -1;
  return a <= b ? hex * 2 : hex * 2 + 1;
}

/** Hexes entered on the way to `node` (start excluded). */
export function nodePath(r: Reachable, node: number): number[] {
  const out: number[] = [];
  for (let n = node; r.prev(n) >= 0; n = r.prev(n)) out.push(n >> 1);
  return out.reverse();
}
