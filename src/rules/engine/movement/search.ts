import { MinHeap } from '../../hex/heap';
import { MoveContext } from './context';
import { TERMINAL, step } from './step';

const UNREACHED = 0x7fffffff;

/**
 * Cheapest arrival at each hex for one move profile. Nodes are (hex, ended):
 * layer 0 = arrived and may go on, layer 1 = arrived and the move is over
 * (entered a ZOC, crossed the waterline as the last step, used the whole
 * move). Keeping both layers makes the search exact when a cheap arrival
 * ends the move but a dearer one could continue.
 */
export interface Reachable {
  readonly ctx: MoveContext;
  /** Cost in ticks per node (hex * 2 + layer); UNREACHED when not reached. */
  readonly cost: Int32Array;
  /** Previous node per node; -1 for the start and unreached nodes. */
  readonly prev: Int32Array;
  /** Hexes reached (either layer), each once, start excluded. */
  readonly hexes: Int32Array;
}

export function searchReachable(c: MoveContext, heap: MinHeap = new MinHeap(256)): Reachable {
  const size = c.board.grid.size;
  const cost = new Int32Array(size * 2).fill(UNREACHED);
  const prev = new Int32Array(size * 2).fill(-1);
  const seen = new Uint8Array(size);
  const hexes: number[] = [];
  const nb = c.board.grid.neighbours;
  const start = c.start;
  if (start < 0 || c.budget <= 0) return { ctx: c, cost, prev, hexes: new Int32Array(0) };
  heap.clear();
  cost[start * 2] = 0;
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
      const s = step(c, from, d, to, spent);
      if (s < 0) continue;
      const nc = spent + s;
      const layer = c.terminal === TERMINAL.NONE ? 0 : 1;
      const n = to * 2 + layer;
      if (nc < cost[n]!) {
        cost[n] = nc;
        prev[n] = node;
        if (seen[to] === 0) {
          seen[to] = 1;
          hexes.push(to);
        }
        if (layer === 0) heap.push(nc, n);
      }
    }
  }
  return { ctx: c, cost, prev, hexes: Int32Array.from(hexes) };
}

/** Cheapest node reaching a hex (either layer), or -1. */
export function bestNode(r: Reachable, hex: number): number {
  const a = r.cost[hex * 2]!;
  const b = r.cost[hex * 2 + 1]!;
  if (a === UNREACHED && b === UNREACHED) return -1;
  return a <= b ? hex * 2 : hex * 2 + 1;
}

/** Hexes entered on the way to `node` (start excluded). */
export function nodePath(r: Reachable, node: number): number[] {
  const out: number[] = [];
  for (let n = node; r.prev[n]! >= 0; n = r.prev[n]!) out.push(n >> 1);
  return out.reverse();
}
