/**
 * The pure rules engine's share of bench:submit: the same Gators! movement phase of 30 unit
 * moves and combat phase of 10 attacks, through parse, validate, resolve (forced dice) and the
 * fold of every resulting event into the state (evolve, as GameCommitter folds them), with no
 * database, beside a baseline measured in the same run.
 *
 * Each run starts from a fresh copy of the state's units, sides, ext and phase (as a game loaded
 * from its events would be; the scenario is shared, as the catalog shares it), so no per-state
 * cache of the engine is warm when the clock starts.
 *
 * Baseline: one JSON.stringify of that state without its scenario (units, sides, ext, phase),
 * i.e. visiting every unit once and writing it out; the least any work over the whole state
 * costs, and about what the commit pays to serialise a snapshot.
 *
 * "fold, events copied" folds structured clones of the same events: evolve without any memo of
 * the resolution (the committer folds the very event objects resolve returned).
 * Run: npm run bench:engine
 */
import { ForcedDice } from '../src/rules/dice/forced-dice';
import type { Submission } from '../src/rules/engine/kit/types';
import type { GameSystem, RulesEvent } from '../src/rules/engine/types';
import type { GameState } from '../src/rules/model/state';
import { gators } from '../src/rules/systems/gators';
import { gatorsBenchScenario } from './gators-bench-scenario';
import { Orders, plan } from './gators-bench-phases';
import { Stats, stats } from './support';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 200);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 20);

type S = GameState;
type Stage = 'parse' | 'validate' | 'resolve' | 'fold' | 'total';

function fresh(s: S): S {
  const { scenario, ...rest } = s;
  return { scenario, ...(structuredClone(rest) as Omit<S, 'scenario'>) };
}

function ms(t0: bigint): number {
  return Number(process.hrtime.bigint() - t0) / 1e6;
}

/** One submission, timed by stage; returns the folded state. */
function phase(system: GameSystem<S, Submission>, state: S, orders: Orders, into: Record<Stage, number[]>): S {
  const dice = new ForcedDice(Array(200).fill(3));
  const t0 = process.hrtime.bigint();
  const p = system.parse(state, 'P1', { kind: 'orders', orders });
  const t1 = process.hrtime.bigint();
  if (!p.ok) throw new Error(JSON.stringify(p.violations));
  const v = system.validate(state, 'P1', p.value);
  const t2 = process.hrtime.bigint();
  if (v.length) throw new Error(JSON.stringify(v.slice(0, 5)));
  const events = system.resolve(state, 'P1', p.value, dice);
  const t3 = process.hrtime.bigint();
  const after = foldAll(system, state, events);
  const t4 = process.hrtime.bigint();
  into.parse.push(Number(t1 - t0) / 1e6);
  into.validate.push(Number(t2 - t1) / 1e6);
  into.resolve.push(Number(t3 - t2) / 1e6);
  into.fold.push(Number(t4 - t3) / 1e6);
  into.total.push(Number(t4 - t0) / 1e6);
  return after;
}

function foldAll(system: GameSystem<S, Submission>, state: S, events: readonly RulesEvent[]): S {
  return events.reduce((s, e) => system.evolve(s, { type: e.type, data: e.data }), state);
}

function empty(): Record<Stage, number[]> {
  return { parse: [], validate: [], resolve: [], fold: [], total: [] };
}

function main(): void {
  const { scenario, movers, attacks } = gatorsBenchScenario();
  const planned = plan(gators as GameSystem<S, Submission>, scenario, movers.slice(0, 30), attacks);
  const system = gators as GameSystem<S, Submission>;
  const afterMoves = phase(system, fresh(planned.start), planned.moves, empty());
  const moveEvents = (() => {
    const s = fresh(planned.start);
    const p = system.parse(s, 'P1', { kind: 'orders', orders: planned.moves });
    return p.ok ? system.resolve(s, 'P1', p.value, new ForcedDice(Array(200).fill(3))) : [];
  })();

  const move = empty();
  const combat = empty();
  const copied: number[] = [];
  const baseline: number[] = [];
  for (let round = 0; round < WARMUP + ROUNDS; round++) {
    const keep = round >= WARMUP;
    const m = empty();
    const c = empty();
    phase(system, fresh(planned.start), planned.moves, m);
    phase(system, fresh(afterMoves), planned.combat, c);
    const s = fresh(planned.start);
    const evs = structuredClone(moveEvents);
    let t = process.hrtime.bigint();
    foldAll(system, s, evs);
    const foldCopied = ms(t);
    const b = fresh(planned.start);
    t = process.hrtime.bigint();
    JSON.stringify({ ...b, scenario: undefined });
    const base = ms(t);
    if (!keep) continue;
    for (const k of Object.keys(move) as Stage[]) {
      move[k].push(...m[k]);
      combat[k].push(...c[k]);
    }
    copied.push(foldCopied);
    baseline.push(base);
  }

  const b = stats(baseline);
  const f = (st: Stats) => `p50 ${st.p50.toFixed(3).padStart(7)} ms  p99 ${st.p99.toFixed(3).padStart(7)} ms  p50 ${(st.p50 / b.p50).toFixed(1).padStart(6)}x baseline`;
  const units = Object.keys(planned.start.units).length;
  console.log(`Gators! benchmark position: ${units} units; ${planned.moves.length} moves (${moveEvents.length} events), then ${planned.combat.length} attacks; ${ROUNDS} runs each, node ${process.version}\n`);
  console.log(`baseline: JSON.stringify(state without scenario)  ${f(b)}\n`);
  for (const [name, r] of [['movement, 30 moves', move], ['combat, 10 attacks', combat]] as const) {
    console.log(name);
    for (const k of Object.keys(r) as Stage[]) console.log(`  ${k.padEnd(28)} ${f(stats(r[k]))}`);
    const decide = stats(r.parse.map((x, i) => x + r.validate[i]! + r.resolve[i]!));
    console.log(`  ${'decide (parse+validate+resolve)'.padEnd(28)} ${f(decide)}`);
  }
  console.log(`\nmovement fold, events copied   ${f(stats(copied))}`);
}

main();
