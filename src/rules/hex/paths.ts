import { HexGrid } from './grid';
import { MinHeap } from './heap';

/** Cost of stepping from `from` in `direction` into `to`; Infinity (or any non-finite value) = cannot. */
export type StepCost = (from: number, direction: number, to: number) => number;

export interface ShortestPaths {
  /** Cost to reach each hex; Infinity when unreached. */
  readonly cost: Float64Array;
  /** Previous hex on a cheapest path; -1 for the start and unreached hexes. */
  readonly prev: Int32Array;
}

/**
 * Plain Dijkstra over the whole grid (or up to `maxCost`). The engine's
 * movement search (engine/movement) is a specialised version of this with
 * rules in the step; this one is for generic needs and is the benchmark's
 * baseline.
 */
export function dijkstra(grid: HexGrid, start: number, stepCost: StepCost, maxCost = Infinity): ShortestPaths {
  const cost = new Float64Array(grid.size).fill(Infinity);
  const prev = new Int32Array(grid.size).fill(-1);
  const heap = new MinHeap(64);
  const nb = grid.neighbours;
  cost[start] = 0;
  heap.push(0, start);
  while (heap.size > 0) {
    const c = heap.peekPriority();
    const i = heap.pop();
    if (c > cost[i]!) continue;
    const base = i * 6;
    for (let d = 0; d < 6; d++) {
      const j = nb[base + d]!;
      if (j < 0) continue;
      const step = stepCost(i, d, j);
      if (!(step < Infinity)) continue;
      const nc = c + step;
      if (nc < cost[j]! && nc <= maxCost) {
        cost[j] = nc;
        prev[j] = i;
        heap.push(nc, j);
      }
    }
  }
  return { cost, prev };
}

/** The hexes entered on the way to `target` (start excluded), or null when unreached. */
export function pathTo(paths: ShortestPaths, target: number): number[] | null {
  if (!(paths.cost[target]! < Infinity)) return null;
  const out: number[] = [];
  for (let i = target; paths.prev[i]! >= 0; i = paths.prev[i]!) out.push(i);
  return out.reverse();
}

/**
 * Smallest sum of `hexValue` over a path of at most `maxSteps` hexes entered
 * from `from` to `to` (the start hex not counted, the target counted), or
 * Infinity. This is the shape of Grav Armor detection (GA-DETECT-2,
 * GA-RANGE-3): the firer may choose any path within range, and the target is
 * detected when some path's terrain sum is at most the firer's ECM.
 */
export function boundedMinSum(
  grid: HexGrid,
  from: number,
  to: number,
  maxSteps: number,
  hexValue: (i: number) => number,
): number {
  if (from === to) return 0;
  // Layered relaxation: best[i] after k steps. maxSteps is a weapon range, so small.
  let best = new Float64Array(grid.size).fill(Infinity);
  best[from] = 0;
  let frontier = [from];
  let answer = Infinity;
  for (let k = 1; k <= maxSteps && frontier.length > 0; k++) {
    const next = new Float64Array(grid.size).fill(Infinity);
    const touched: number[] = [];
    for (const i of frontier) {
      for (let d = 0; d < 6; d++) {
        const j = grid.neighbours[i * 6 + d]!;
        if (j < 0) continue;
        const v = best[i]! + hexValue(j);
        if (v < next[j]!) {
          if (next[j] === Infinity) touched.push(j);
          next[j] = v;
        }
      }
    }
    if (next[to]! < answer) answer = next[to]!;
    best = next;
    frontier = touched;
  }
  return answer;
}
