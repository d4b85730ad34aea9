import { ForcedDice, ForcedRoll } from '../dice/forced-dice';
import { SeededDice } from '../dice/seeded-dice';
import { JsonObject } from '../model/json';
import { GameState } from '../model/state';
import { RawSubmission, RulesEvent, SideId } from '../engine/types';
import { CaseTarget, caseSchema, decide } from './case-runner';
import { Prestate, buildState } from './prestate';

/**
 * Bad input must come back as violations, never as an exception: the server turns an
 * exception into a 500. This takes every rule case's states and submissions as seeds, breaks
 * the submissions at random (wrong types, missing and extra fields, unknown ids, names every
 * object answers to such as "constructor"), and runs parse, validate, resolve, evolve and
 * both sides' views on each. Deterministic for a given seed, so a failure can be replayed.
 */
export interface FuzzResult {
  runs: number;
  /** One line per distinct exception: the case, the message and the submission that threw. */
  crashes: string[];
}

interface CaseStep {
  side?: SideId;
  submission?: { kind: RawSubmission['kind']; orders: unknown };
  dice: ForcedRoll[];
  expire?: boolean;
}

export function fuzzCases<X extends JsonObject>(target: CaseTarget<X>, cases: Array<{ file: string; json: unknown }>, opts: { seed: number; perStep: number }): FuzzResult {
  const rnd = lcg(opts.seed);
  const crashes = new Map<string, string>();
  let runs = 0;
  for (const { file, state, side, submission, units } of caseSteps(target, cases)) {
    for (let n = 0; n < opts.perStep; n++) {
      let orders: unknown = submission.orders;
      for (let t = 1 + Math.floor(rnd() * 3); t > 0; t--) orders = mutate(orders, units, rnd);
      const kind = rnd() < 0.95 ? submission.kind : pick(['orders', 'reaction', 'standing-orders'] as const, rnd);
      runs++;
      try {
        playOnce(target, state, side, { kind, orders } as RawSubmission, new SeededDice(n));
      } catch (err) {
        const message = err instanceof Error ? err.message : String(err);
        if (!crashes.has(message)) crashes.set(message, `${file}: ${message} :: ${JSON.stringify({ kind, orders }).slice(0, 400)}`);
      }
    }
  }
  return { runs, crashes: [...crashes.values()] };
}

/** A submission of a rule case, with the state it is made in. */
export interface CaseStepState<X extends JsonObject> {
  file: string;
  state: GameState<X>;
  side: SideId;
  submission: RawSubmission;
  /** Every unit id of the case's position. */
  units: string[];
  /** The values of the dice the case forces for this step. */
  dice: number[];
}

/**
 * Every submission of the rule cases with the state it meets: each case's position, then the
 * state after each of its own steps, so that later steps come with the state they expect. A case
 * stops at a step that is refused (it expects violations) or incomplete.
 */
export function* caseSteps<X extends JsonObject>(target: CaseTarget<X>, cases: Array<{ file: string; json: unknown }>): Generator<CaseStepState<X>> {
  for (const c of cases) {
    const parsed = caseSchema.safeParse(c.json);
    if (!parsed.success || parsed.data.prestate === undefined) continue;
    let state = buildState(target.scenario, parsed.data.prestate as Prestate, target.initialExt(target.scenario)) as GameState<X>;
    const units = Object.keys(state.units);
    for (const step of parsed.data.steps as CaseStep[]) {
      if (step.side !== undefined && step.submission !== undefined) yield { file: c.file, state, side: step.side, submission: step.submission as RawSubmission, units, dice: step.dice.map((d) => (typeof d === 'number' ? d : d.value)) };
      const events = realStep(target, state, step);
      if (events === null) break;
      for (const e of events) state = target.system.evolve(state, e);
    }
  }
}

function playOnce<X extends JsonObject>(target: CaseTarget<X>, state: GameState<X>, side: SideId, raw: RawSubmission, dice: SeededDice): void {
  const { system } = target;
  let after = state;
  for (const e of decide(system, state, side, raw, dice).events) after = system.evolve(after, e);
  for (const s of Object.keys(after.sides)) system.view(after, { kind: 'side', side: s });
}

/** The case's own step, or null when it is refused (the case expects violations) or incomplete. */
function realStep<X extends JsonObject>(target: CaseTarget<X>, state: GameState<X>, step: CaseStep): RulesEvent[] | null {
  const dice = new ForcedDice(step.dice);
  if (step.expire === true) return target.system.expireReaction(state, dice);
  if (step.side === undefined || step.submission === undefined) return null;
  const { violations, events } = decide(target.system, state, step.side, step.submission as RawSubmission, dice);
  return violations.length > 0 ? null : events;
}

export function mutate(v: unknown, units: string[], rnd: () => number): unknown {
  const junk = (): unknown =>
    pick<unknown>(
      [null, -1, 0, 1.5, 1e12, 2 ** 53, '', ' ', 'zzz', '9999', '0000', '0101', 'P1', 'P2', '__proto__', 'constructor', 'toString', true, [], {}, [[]], ['1010', '1010'], pick(units, rnd), [pick(units, rnd), pick(units, rnd)], { unit: pick(units, rnd) }, 'x'.repeat(300)],
      rnd,
    );
  if (Array.isArray(v)) {
    const c = [...v];
    const r = rnd();
    if (c.length > 0 && r < 0.2) c.splice(Math.floor(rnd() * c.length), 1);
    else if (c.length > 0 && r < 0.35) c.push(structuredClone(pick(c, rnd)));
    else if (c.length > 0 && r < 0.9) {
      const i = Math.floor(rnd() * c.length);
      c[i] = mutate(c[i], units, rnd);
    } else c.push(junk());
    return c;
  }
  if (v !== null && typeof v === 'object') {
    const o: Record<string, unknown> = { ...(v as Record<string, unknown>) };
    const keys = Object.keys(o);
    const r = rnd();
    if (keys.length > 0 && r < 0.15) delete o[pick(keys, rnd)];
    else if (keys.length > 0 && r < 0.85) {
      const k = pick(keys, rnd);
      o[k] = mutate(o[k], units, rnd);
    } else o[pick(['extra', 'path', 'to', 'retreat', 'unit', 'target', 'kind', 'attackers', 'mode', 'constructor'], rnd)] = junk();
    return o;
  }
  return rnd() < 0.8 ? junk() : v;
}

function pick<T>(xs: readonly T[], rnd: () => number): T {
  return xs[Math.floor(rnd() * xs.length)]!;
}

/** A small seeded generator: the fuzz must replay exactly from its seed. */
export function lcg(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}
