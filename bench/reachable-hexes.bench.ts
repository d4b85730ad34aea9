/**
 * Reachable hexes for a 10-MP unit on a 10,000-hex map with 200 units and
 * zones of control, beside a plain Dijkstra over the same map in the same run.
 *
 *   npx tsc -p tsconfig.build.json && node dist/bench/reachable-hexes.bench.js
 *
 * "plain (whole map)" is a textbook Dijkstra over every hex with the same
 * per-hex costs (the baseline); "plain (10 MP)" is the same stopped at
 * the budget. The engine's search also builds the ZOC and occupancy arrays,
 * applies every movement rule, checks stacking at each end hex and returns
 * each reachable hex with its cost and path as labels.
 */
import { uniformIntDistribution, xoroshiro128plus, RandomGenerator } from 'pure-rand';
import { dijkstra } from '../src/rules/hex/paths';
import { parseScenario } from '../src/rules/model/parse-scenario';
import { boardOf } from '../src/rules/engine/board';
import { initialState } from '../src/rules/engine/initial-state';
import { reachableHexes } from '../src/rules/engine/movement/moves';
import { GameState, UnitState } from '../src/rules/model/state';
import { JsonObject } from '../src/rules/model/json';

const COLUMNS = 125;
const ROWS = 80;
const UNITS = 200;
const RUNS = 400;

let rng: RandomGenerator = xoroshiro128plus(20261130);
function rand(lo: number, hi: number): number {
  const [v, next] = uniformIntDistribution(lo, hi, rng);
  rng = next;
  return v;
}

function label(c: number, r: number): string {
  return String(c + 1).padStart(3, '0') + String(r + 1).padStart(2, '0');
}

function scenarioFiles(): Record<string, unknown> {
  const rows: string[] = [];
  for (let r = 0; r < ROWS; r++) {
    let row = '';
    for (let c = 0; c < COLUMNS; c++) {
      const x = rand(0, 99);
      row += x < 60 ? '.' : x < 75 ? 'f' : x < 85 ? 'h' : x < 95 ? 'r' : '~';
    }
    rows.push(row);
  }
  // Long roads along alternate rows; consecutive hexes of a row are always adjacent in odd-q.
  const roads: string[][] = [];
  for (let r = 5; r < ROWS; r += 15) roads.push(Array.from({ length: COLUMNS }, (_, c) => label(c, r)));
  for (const p of roads) for (const l of p) rows[Number(l.slice(3)) - 1] = replaceAt(rows[Number(l.slice(3)) - 1]!, Number(l.slice(0, 3)) - 1, '.');
  const move = (cost: number) => ({ '*': { cost }, air: { cost: 1 } });
  return {
    'scenario.json': { id: 'bench', name: 'Benchmark plain', system: 'bench', sides: [{ id: 'A', name: 'A' }, { id: 'B', name: 'B' }] },
    'map.json': { columns: COLUMNS, rows: ROWS, terrainRows: rows, legend: { '.': 'clear', f: 'forest', h: 'hills', r: 'rough', '~': 'lake' }, roads },
    'terrain.json': {
      terrain: {
        clear: { name: 'Clear', movement: move(1) },
        forest: { name: 'Forest', movement: move(2) },
        hills: { name: 'Hills', movement: move(2) },
        rough: { name: 'Rough', movement: move(3) },
        lake: { name: 'Lake', medium: 'water', movement: { '*': { impassable: true } } },
      },
      overlays: { road: { name: 'Road', applies: 'along', movement: { '*': { cost: 0.5 } } } },
    },
    'rules.json': {
      movementClasses: { tracked: {}, foot: {}, air: { ignoresTerrain: true, passThroughEnemy: true } },
      targetClasses: ['soft', 'armored'],
      movement: { minimumMove: true },
      zoc: { exertedBy: 'can-attack', leaving: 'no-same-zoc' },
      stacking: { limit: 1, ruleId: 'STACK' },
    },
    'units.json': {
      types: {
        tank: { name: 'Tank', movementClass: 'tracked', speed: 10, targetClass: 'armored', strength: { soft: 1, armored: 3 }, defense: 3 },
        inf: { name: 'Infantry', movementClass: 'foot', speed: 3, targetClass: 'soft', strength: { soft: 2, armored: 1 }, defense: 2 },
      },
    },
    'oob.json': { units: [] },
    'setup.json': {},
    'turns.json': { turns: 1, phases: [{ id: 'move', kind: 'movement', side: 'A' }] },
    'victory.json': { atTurnLimit: { winner: null, reason: 'bench', ruleId: 'BENCH' } },
  };
}

function replaceAt(s: string, i: number, ch: string): string {
  return s.slice(0, i) + ch + s.slice(i + 1);
}

function stateWithUnits(): { state: GameState<JsonObject>; mover: string } {
  const scenario = parseScenario(scenarioFiles());
  const board = boardOf(scenario);
  const base = initialState<JsonObject>(scenario, {});
  const units: Record<string, UnitState> = {};
  const used = new Set<number>();
  const center = board.grid.index(Math.floor(COLUMNS / 2), Math.floor(ROWS / 2));
  const free = (i: number) => board.terrain[i] !== board.terrainIds.indexOf('lake') && !used.has(i);
  let start = center;
  while (!free(start)) start++;
  used.add(start);
  units['mover'] = { id: 'mover', type: 'tank', side: 'A', loc: { at: 'hex', hex: board.grid.label(start) }, flags: {}, attrs: {} };
  for (let k = 1; k < UNITS; k++) {
    // A third of the units near the mover, so that its move meets zones of control.
    let i: number;
    do {
      i = k % 3 === 0 ? board.grid.index(Math.floor(COLUMNS / 2) + rand(-12, 12), Math.floor(ROWS / 2) + rand(-12, 12)) : rand(0, board.grid.size - 1);
    } while (i < 0 || !free(i));
    used.add(i);
    const side = k % 2 === 0 ? 'A' : 'B';
    units[`u${k}`] = { id: `u${k}`, type: k % 4 < 2 ? 'inf' : 'tank', side, loc: { at: 'hex', hex: board.grid.label(i) }, flags: {}, attrs: {} };
  }
  const state = { ...base, units, phase: { stage: 'turns' as const, turn: 1, index: 0, mode: 'sequential' as const, acting: ['A'], submitted: [] } };
  return { state, mover: 'mover' };
}

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

function time(f: () => unknown): number {
  const t0 = process.hrtime.bigint();
  f();
  return Number(process.hrtime.bigint() - t0) / 1e6;
}

function main(): void {
  const { state, mover } = stateWithUnits();
  const board = boardOf(state.scenario);
  const start = board.grid.indexOf((state.units[mover]!.loc as { hex: string }).hex);
  const costs = new Float64Array(board.grid.size);
  for (let i = 0; i < board.grid.size; i++) {
    const t = board.terrainIds[board.terrain[i]!];
    costs[i] = t === 'clear' ? 1 : t === 'forest' || t === 'hills' ? 2 : t === 'rough' ? 3 : Infinity;
  }
  const plainWhole = () => dijkstra(board.grid, start, (_f, _d, to) => costs[to]!);
  const plainBudget = () => dijkstra(board.grid, start, (_f, _d, to) => costs[to]!, 10);
  const engine = () => reachableHexes(state, mover, { knownTo: 'A' });
  // A state the engine has not seen yet (no per-state caches): copy the units record before timing.
  let fresh = state;
  const engineCold = () => reachableHexes(fresh, mover, { knownTo: 'A' });

  const reached = engine();
  const zocHexes = Object.values(state.units).filter((u) => u.side === 'B').length;
  for (let k = 0; k < 50; k++) {
    engine();
    plainWhole();
    plainBudget();
  }
  const a: number[] = [];
  const b: number[] = [];
  const c: number[] = [];
  const d: number[] = [];
  for (let k = 0; k < RUNS; k++) {
    a.push(time(engine));
    b.push(time(plainWhole));
    c.push(time(plainBudget));
    fresh = { ...state, units: { ...state.units } };
    d.push(time(engineCold));
  }
  for (const xs of [a, b, c, d]) xs.sort((x, y) => x - y);
  const row = (name: string, xs: number[]) => `${name.padEnd(34)} median ${quantile(xs, 0.5).toFixed(3)} ms   p99 ${quantile(xs, 0.99).toFixed(3)} ms`;
  console.log(`map ${COLUMNS}x${ROWS} = ${board.grid.size} hexes, ${Object.keys(state.units).length} units (${zocHexes} enemies with ZOC), mover 10 MP; ${reached.length} hexes reachable; ${RUNS} runs each, node ${process.version}`);
  console.log(row('engine reachableHexes (10 MP, ZOC)', a));
  console.log(row('  same, on a state not seen before', d));
  console.log(row('plain Dijkstra (whole map)', b));
  console.log(row('plain Dijkstra (10 MP budget)', c));
  console.log(`ratio engine / plain whole-map: median ${(quantile(a, 0.5) / quantile(b, 0.5)).toFixed(2)}x   p99 ${(quantile(a, 0.99) / quantile(b, 0.99)).toFixed(2)}x   (target: median <= 1.5x)`);
  console.log(`ratio engine (unseen state) / plain whole-map: median ${(quantile(d, 0.5) / quantile(b, 0.5)).toFixed(2)}x   p99 ${(quantile(d, 0.99) / quantile(b, 0.99)).toFixed(2)}x`);
  console.log(`ratio engine / plain 10-MP:     median ${(quantile(a, 0.5) / quantile(c, 0.5)).toFixed(2)}x   p99 ${(quantile(a, 0.99) / quantile(c, 0.99)).toFixed(2)}x`);
}

main();
