import { z } from 'zod';
import { ForcedDice, RecordedRoll } from '../dice/forced-dice';
import { unbundled } from '../engine/kit/sealed-secrets';
import { Submission } from '../engine/kit/types';
import { Dice, GameSystem, RawSubmission, RulesEvent, SideId, Violation } from '../engine/types';
import { eventAsSeenBy } from '../engine/visibility';
import { JsonObject } from '../model/json';
import { Scenario } from '../model/scenario';
import { GameState } from '../model/state';
import { Prestate, buildState, prestateSchema } from './prestate';
import { testScenario } from './scenario-files';
import { testSpec, testSystem } from './test-system';

const forced = z.union([z.int(), z.strictObject({ value: z.int(), sides: z.int().optional(), purpose: z.string().optional() })]);
const violationMatch = z.strictObject({ ruleId: z.string(), code: z.string(), orderIndex: z.int().nullable().optional(), unit: z.string().nullable().optional() });
const eventMatch = z.strictObject({
  type: z.string(),
  data: z.unknown().optional(),
  visibility: z.unknown().optional(),
  reveals: z.boolean().optional(),
  /** How the named side reads this event (its redacted form, or null for nothing), and strings its JSON must not contain. */
  seenBy: z.strictObject({ side: z.string(), as: z.unknown(), lacks: z.array(z.string()).default([]) }).optional(),
});

const expectSchema = z.strictObject({
  /** Violations from parse or validate, exactly (ruleId, code, and orderIndex and unit when given). [] = accepted. */
  violations: z.array(violationMatch).optional(),
  /** Events that must appear, in this order, each matching by type and a subset of its data. */
  events: z.array(eventMatch).optional(),
  /** Event types that must not appear. */
  absent: z.array(z.string()).optional(),
  /** Post-state subsets by unit id. */
  units: z.record(z.string(), z.unknown()).optional(),
  phase: z.record(z.string(), z.unknown()).optional(),
  /** Strings that must (or must not) appear in a side's view, JSON-encoded. */
  view: z.strictObject({ side: z.string(), contains: z.array(z.string()).default([]), lacks: z.array(z.string()).default([]) }).optional(),
});

const stepSchema = z.strictObject({
  side: z.string().optional(),
  submission: z.strictObject({ kind: z.enum(['orders', 'reaction', 'standing-orders']), orders: z.unknown() }).optional(),
  /** Let an unanswered reaction window expire instead of submitting. */
  expire: z.boolean().optional(),
  dice: z.array(forced).default([]),
  expect: expectSchema,
});

const optionsSchema = z.strictObject({
  side: z.string(),
  unit: z.string(),
  /** Orders drafted first (a phase being written): the options are those after them; the draft must pass validateDraft. */
  after: z.array(z.record(z.string(), z.unknown())).optional(),
  /** `with`: the units the move option says must move along (a gun's other towers), exactly; absent = not checked. */
  includes: z.array(z.strictObject({ hex: z.string(), cost: z.number().optional(), path: z.array(z.string()).optional(), with: z.array(z.string()).optional() })).default([]),
  excludes: z.array(z.string()).default([]),
  attacks: z.array(z.strictObject({ targetHex: z.string(), preview: z.unknown().optional() })).default([]),
  /** Target hexes that must not be among the unit's attacks. */
  excludesAttacks: z.array(z.string()).default([]),
  /** Entries of the unit's `other` options (action, and detail matched in part) that must, or must not, be there. */
  other: z.array(z.strictObject({ action: z.string(), detail: z.unknown().optional() })).default([]),
  excludesOther: z.array(z.strictObject({ action: z.string(), detail: z.unknown().optional() })).default([]),
});

/** The side's orders of no one unit (sideOptions) that must, or must not, be offered, after `after` if given. */
const sideOptionsSchema = z.strictObject({
  side: z.string(),
  after: z.array(z.record(z.string(), z.unknown())).optional(),
  other: z.array(z.strictObject({ action: z.string(), detail: z.unknown().optional() })).default([]),
  excludesOther: z.array(z.strictObject({ action: z.string(), detail: z.unknown().optional() })).default([]),
});

/** A rule case file (src/rules/engine/cases/**.json, a system's cases). */
export const caseSchema = z.strictObject({
  ruleId: z.string().min(2),
  title: z.string().min(3),
  /** Further rule IDs the case also checks. */
  alsoChecks: z.array(z.string().min(2)).default([]),
  prestate: prestateSchema.optional(),
  /** Instead of a prestate: the state of a new game of the whole scenario (system.start), with these sides. */
  start: z.strictObject({ sides: z.array(z.string()).min(1) }).optional(),
  /** Views of the prestate that must (or must not) contain strings. */
  views: z.array(z.strictObject({ side: z.string(), contains: z.array(z.string()).default([]), lacks: z.array(z.string()).default([]) })).default([]),
  steps: z.array(stepSchema).default([]),
  options: z.array(optionsSchema).default([]),
  sideOptions: z.array(sideOptionsSchema).default([]),
});
export type RuleCase = z.infer<typeof caseSchema>;

export interface CaseResult {
  readonly failures: string[];
}

/** What a case runs against: a game system and the scenario its prestates are built on. */
export interface CaseTarget<X extends JsonObject> {
  readonly system: GameSystem<GameState<X>, Submission>;
  readonly scenario: Scenario;
  /** The system's initial public state for prestates (spec.initialExt). */
  readonly initialExt: (scenario: Scenario) => X;
}

/** The engine's pipeline for one submission: its violations, or (when there are none) the events resolving it gives. */
export function decide<S>(system: GameSystem<S, Submission>, state: S, side: SideId, raw: RawSubmission, dice: Dice): { violations: Violation[]; events: RulesEvent[] } {
  const parsed = system.parse(state, side, raw);
  if (!parsed.ok) return { violations: parsed.violations, events: [] };
  const violations = system.validate(state, side, parsed.value);
  return violations.length > 0 ? { violations, events: [] } : { violations, events: system.resolve(state, side, parsed.value, dice) };
}

/** A case's draft (`after`), parsed and accepted by validateDraft; or why not; undefined without one. */
function readDraft<S>(system: GameSystem<S, Submission>, state: S, side: SideId, after: readonly Record<string, unknown>[] | undefined): Submission | undefined | string {
  if (after === undefined) return undefined;
  const parsed = system.parse(state, side, { kind: 'orders', orders: after });
  const refused = parsed.ok ? system.validateDraft(state, side, parsed.value) : parsed.violations;
  return refused.length > 0 || !parsed.ok ? `the draft is refused: ${JSON.stringify(refused)}` : parsed.value;
}

/** Runs one case against the kernel test system and returns what did not match. */
export function runCase(input: unknown, onResolved?: Parameters<typeof runCaseWith>[2]): CaseResult {
  return runCaseWith({ system: testSystem, scenario: testScenario(), initialExt: testSpec.initialExt }, input, onResolved);
}

/**
 * Runs one case against a game system and its scenario; returns what did not match. `onResolved`
 * sees each resolved step's rolls and events (the dice verifier's tests read them).
 */
export function runCaseWith<X extends JsonObject>(target: CaseTarget<X>, input: unknown, onResolved?: (rolls: readonly RecordedRoll[], events: readonly RulesEvent[]) => void): CaseResult {
  const c = caseSchema.parse(input);
  const failures: string[] = [];
  const { system: testSystem } = target;
  let state: GameState<X>;
  if (c.start !== undefined) state = target.system.start(target.scenario, { sides: c.start.sides }).reduce<GameState<X> | undefined>((s, e) => target.system.evolve(s, e), undefined)!;
  else if (c.prestate !== undefined) state = buildState(target.scenario, c.prestate as Prestate, target.initialExt(target.scenario)) as GameState<X>;
  else return { failures: ['a case needs a prestate or start'] };
  for (const v of c.views) {
    const text = JSON.stringify(testSystem.view(state, { kind: 'side', side: v.side }));
    for (const x of v.contains) if (!text.includes(x)) failures.push(`views: ${v.side}'s view lacks ${x}`);
    for (const x of v.lacks) if (text.includes(x)) failures.push(`views: ${v.side}'s view contains ${x}`);
  }
  c.options.forEach((o, k) => {
    const draft = readDraft(testSystem, state, o.side, o.after);
    if (typeof draft === 'string') return void failures.push(`options[${k}]: ${draft}`);
    const got = testSystem.options(state, o.side, o.unit, draft);
    if (Array.isArray(got)) return void failures.push(`options[${k}]: violations ${JSON.stringify(got)}`);
    for (const inc of o.includes) {
      const m = got.moves.find((x) => x.hex === inc.hex);
      if (m === undefined) failures.push(`options[${k}]: ${inc.hex} missing from moves ${JSON.stringify(got.moves.map((x) => x.hex))}`);
      else {
        if (inc.cost !== undefined && Math.abs(m.cost - inc.cost) > 1e-9) failures.push(`options[${k}]: ${inc.hex} costs ${m.cost}, expected ${inc.cost}`);
        if (inc.path !== undefined && JSON.stringify(m.path) !== JSON.stringify(inc.path)) failures.push(`options[${k}]: path to ${inc.hex} is ${JSON.stringify(m.path)}`);
        if (inc.with !== undefined && JSON.stringify(m.with ?? []) !== JSON.stringify(inc.with)) failures.push(`options[${k}]: the move to ${inc.hex} goes with ${JSON.stringify(m.with ?? [])}`);
      }
    }
    for (const ex of o.excludes) if (got.moves.some((x) => x.hex === ex)) failures.push(`options[${k}]: ${ex} should not be reachable`);
    for (const a of o.attacks) {
      const t = got.attacks.find((x) => x.targetHex === a.targetHex);
      if (t === undefined) failures.push(`options[${k}]: no attack on ${a.targetHex}, got ${JSON.stringify(got.attacks.map((x) => x.targetHex))}`);
      else if (a.preview !== undefined && !matches(t.preview, a.preview)) failures.push(`options[${k}]: preview ${JSON.stringify(t.preview)}`);
    }
    for (const ex of o.excludesAttacks) if (got.attacks.some((x) => x.targetHex === ex)) failures.push(`options[${k}]: ${ex} should not be attackable`);
    const offers = (w: { action: string; detail?: unknown }) => (got.other ?? []).some((x) => x.action === w.action && (w.detail === undefined || matches(x.detail, w.detail)));
    for (const w of o.other) if (!offers(w)) failures.push(`options[${k}]: no ${JSON.stringify(w)} among ${JSON.stringify(got.other ?? [])}`);
    for (const w of o.excludesOther) if (offers(w)) failures.push(`options[${k}]: ${JSON.stringify(w)} should not be offered`);
  });
  c.sideOptions.forEach((o, k) => {
    const draft = readDraft(testSystem, state, o.side, o.after);
    if (typeof draft === 'string') return void failures.push(`sideOptions[${k}]: ${draft}`);
    const got = testSystem.sideOptions(state, o.side, draft);
    const offers = (w: { action: string; detail?: unknown }) => got.some((x) => x.action === w.action && (w.detail === undefined || matches(x.detail, w.detail)));
    for (const w of o.other) if (!offers(w)) failures.push(`sideOptions[${k}]: no ${JSON.stringify(w)} among ${JSON.stringify(got).slice(0, 500)}`);
    for (const w of o.excludesOther) if (offers(w)) failures.push(`sideOptions[${k}]: ${JSON.stringify(w)} should not be offered`);
  });
  c.steps.forEach((step, k) => {
    const where = `steps[${k}]`;
    const dice = new ForcedDice(step.dice);
    let events: RulesEvent[] = [];
    let violations: Violation[] = [];
    if (step.expire === true) events = testSystem.expireReaction(state, dice);
    else {
      if (step.side === undefined || step.submission === undefined) return void failures.push(`${where}: needs side and submission, or expire`);
      ({ violations, events } = decide(testSystem, state, step.side, { kind: step.submission.kind, orders: step.submission.orders }, dice));
    }
    const e = step.expect;
    if (e.violations !== undefined) {
      const at = (v: { orderIndex?: number | null; unit?: string | null }, w: { orderIndex?: number | null; unit?: string | null } | undefined) =>
        `${w?.orderIndex === undefined ? '' : ` @${v.orderIndex}`}${w?.unit === undefined ? '' : ` unit ${v.unit ?? null}`}`;
      const want = e.violations.map((v) => `${v.ruleId} ${v.code}${at(v, v)}`);
      const got = violations.map((v, i) => `${v.ruleId} ${v.code}${at(v, e.violations![i])}`);
      if (JSON.stringify(want) !== JSON.stringify(got))
        failures.push(`${where}: violations ${JSON.stringify(violations.map((v) => `${v.ruleId} ${v.code} @${v.orderIndex}${v.unit ? ` unit ${v.unit}` : ''}: ${v.message}`))}, expected ${JSON.stringify(want)}`);
    } else if (violations.length > 0) failures.push(`${where}: unexpected violations ${JSON.stringify(violations)}`);
    if (violations.length > 0) return;
    onResolved?.(dice.rolls, events);
    if (dice.remaining > 0) failures.push(`${where}: ${dice.remaining} forced dice were not used`);
    let from = 0;
    const found = unbundled(events);
    for (const want of e.events ?? []) {
      const i = found.findIndex((ev, j) => j >= from && ev.type === want.type && matchesEvent(ev, want));
      if (i < 0) {
        failures.push(`${where}: no event ${JSON.stringify(want)} after #${from} in ${JSON.stringify(found.slice(from).map((x) => ({ type: x.type, data: x.data })))}`);
        break;
      }
      from = i + 1;
    }
    for (const t of e.absent ?? []) if (found.some((ev) => ev.type === t)) failures.push(`${where}: event ${t} should not occur`);
    for (const ev of events) state = testSystem.evolve(state, ev);
    for (const [id, want] of Object.entries(e.units ?? {}))
      if (!matches(state.units[id], want)) failures.push(`${where}: unit ${id} is ${JSON.stringify(state.units[id])}, expected ${JSON.stringify(want)}`);
    if (e.phase !== undefined && !matches(state.phase, e.phase)) failures.push(`${where}: phase ${JSON.stringify(state.phase)}, expected ${JSON.stringify(e.phase)}`);
    if (e.view !== undefined) {
      const text = JSON.stringify(testSystem.view(state, { kind: 'side', side: e.view.side }));
      for (const s of e.view.contains) if (!text.includes(s)) failures.push(`${where}: ${e.view.side}'s view lacks ${s}`);
      for (const s of e.view.lacks) if (text.includes(s)) failures.push(`${where}: ${e.view.side}'s view contains ${s}`);
    }
  });
  return { failures };
}

function matchesEvent(ev: RulesEvent, want: z.infer<typeof eventMatch>): boolean {
  if (want.data !== undefined && !matches(ev.data, want.data)) return false;
  if (want.visibility !== undefined && !matches(ev.visibility, want.visibility)) return false;
  if (want.reveals !== undefined && (ev.reveals === true) !== want.reveals) return false;
  if (want.seenBy !== undefined) {
    const seen = eventAsSeenBy(ev, want.seenBy.side);
    if (want.seenBy.as === null ? seen !== null : !matches(seen, want.seenBy.as)) return false;
    const text = JSON.stringify(seen);
    if (want.seenBy.lacks.some((x) => text.includes(x))) return false;
  }
  return true;
}

/** Deep subset match: every key of `want` matches; arrays match element-wise and by length. */
export function matches(got: unknown, want: unknown): boolean {
  if (want === null || typeof want !== 'object') return got === want;
  if (Array.isArray(want)) return Array.isArray(got) && got.length === want.length && want.every((w, i) => matches(got[i], w));
  if (got === null || typeof got !== 'object') return false;
  return Object.entries(want).every(([k, v]) => matches((got as Record<string, unknown>)[k], v));
}
