import { z } from 'zod';
import { Json, JsonObject } from '../../model/json';
import { parseScenario } from '../../model/parse-scenario';
import { Scenario } from '../../model/scenario';
import { ScenarioError, ScenarioIssue } from '../../model/scenario-error';
import { GameState } from '../../model/state';
import { privateEvent, publicEvent } from '../events';
import { evolve } from '../evolve';
import { forgetTransition } from '../transitions';
import { currentPhase, phaseInfo } from '../phase-machine';
import { Dice, GameSystem, OtherOption, Parsed, RawSubmission, RulesEvent, SideId, UnitOptions, Viewer, Violation } from '../types';
import { kernelView } from '../view';
import { INPUT_RULE, violation } from '../violation';
import { assertNever } from '../assert-never';
import { scenarioChecker } from './check-scenario';
import { secretsBundled } from './sealed-secrets';
import { issueText } from './issue-text';
import { readRawOrders } from './raw-orders';
import { Resolution, advance, fold, handlerFor, markParsed, runOrders } from './runner';
import { Submission, SystemSpec } from './types';

/**
 * Builds the contract's GameSystem from a system's spec. The kernel owns the
 * pipeline (parse → validate → resolve → evolve), the phase machine,
 * reactions and standing orders, and view; the spec brings the orders, the
 * phases and the reactions that make the game.
 */
export function defineSystem<X extends Json>(spec: SystemSpec<X>): GameSystem<GameState<X>, Submission> {
  const check = scenarioChecker(spec);
  return {
    id: spec.id,
    checkScenario: check,
    start: (scenario, options) => start(spec, check, scenario, options.sides),
    evolve: (state, event) => evolve(state, event, spec.evolve),
    phase: phaseInfo,
    parse: (state, side, raw) => parse(spec, state, side, raw),
    validate: (state, side, sub) => validate(spec, state, side, sub),
    validateDraft: (state, side, sub) => validateDraft(spec, state, side, sub),
    resolve: (state, side, sub, dice) => resolve(spec, state, side, sub, dice),
    expireReaction: (state, dice) => expire(spec, state, dice),
    view: (state, viewer) => view(spec, state, viewer),
    options: (state, side, unitId, draft) => options(spec, state, side, unitId, draft),
    sideOptions: (state, side, draft) => sideOptions(spec, state, side, draft),
  };
}

function start<X extends Json>(spec: SystemSpec<X>, check: (s: Scenario) => readonly ScenarioIssue[], input: unknown, sides: SideId[]): RulesEvent[] {
  const scenario = asScenario(input);
  if (scenario.manifest.system !== spec.id) throw new Error(`scenario ${scenario.manifest.id} is for system "${scenario.manifest.system}", not "${spec.id}"`);
  const known = scenario.manifest.sides.map((s) => s.id);
  for (const s of sides) if (!known.includes(s)) throw new Error(`side "${s}" is not a side of scenario ${scenario.manifest.id}`);
  // Normally checked at load already (cached); a scenario handed straight to start is checked here.
  const issues = check(scenario);
  if (issues.length > 0) throw new ScenarioError(`"${scenario.manifest.id}"`, issues);
  const first = publicEvent('GameStarted', { scenario, ext: spec.initialExt(scenario) });
  const r = new Resolution(spec, evolve<X>(undefined, first, spec.evolve), noDice, sides[0] ?? known[0]!);
  advance(r);
  return [first, ...r.events];
}

const noDice: Dice = {
  roll: () => {
    throw new Error('no dice may be rolled while a game is being started');
  },
};

function isScenario(x: unknown): x is Scenario {
  return typeof x === 'object' && x !== null && 'manifest' in x && 'map' in x && 'rules' in x;
}

/** What `start` receives: a parsed scenario, or its raw files to parse. */
export function asScenario(input: unknown): Scenario {
  return isScenario(input) ? input : parseScenario(input as Record<string, unknown>);
}

/**
 * The rule a malformed order breaks: a custom issue may name it in
 * `params.ruleId` (a string, or read from the scenario's data), e.g. a
 * malformed retreat choice (Q-GT-35); otherwise it is only bad input.
 */
function issueRule(state: GameState, issues: readonly z.core.$ZodIssue[]): string {
  for (const x of issues) {
    const id = x.code === 'custom' ? (x.params as { ruleId?: unknown } | undefined)?.ruleId : undefined;
    if (typeof id === 'string') return id;
    if (typeof id === 'function') return (id as (s: GameState) => string)(state);
  }
  return INPUT_RULE;
}

/**
 * Why `side` may not answer now, or null when a reaction of its own is being asked for. With
 * none asked (its window closed, or none opened) the answer breaks the scenario's
 * `reactionRuleId`. It tells only what the phase shows everyone, so the service may pass on
 * the rule it names (through parse).
 */
export function answerRefusal(state: GameState, side: SideId): Violation | null {
  const req = state.pending?.request;
  const seqRule = currentPhase(state)?.ruleId ?? 'SEQ';
  if (state.phase.mode !== 'reaction' || req === null || req === undefined)
    return violation(state.scenario.turns.reactionRuleId ?? seqRule, 'phase/no_reaction', 'no reaction is being asked for');
  if (req.side !== side) return violation(seqRule, 'phase/not_your_reaction', `the reaction is ${req.side}'s to make`);
  return null;
}

function parse<X extends Json>(spec: SystemSpec<X>, state: GameState<X>, side: SideId, raw: RawSubmission): Parsed<Submission> {
  const bad = (code: string, message: string, orderIndex: number | null = null, ruleId = INPUT_RULE): Parsed<Submission> => ({
    ok: false,
    violations: [violation(ruleId, code, message, orderIndex)],
  });
  if (state.sides[side] === undefined) return bad('input/unknown_side', `"${side}" is not a side of this game`);
  const p = state.phase;
  const def = currentPhase(state);
  const seqRule = def?.ruleId ?? 'SEQ';
  switch (raw.kind) {
    case 'standing-orders': {
      const o = z.record(z.string(), z.unknown()).safeParse(raw.orders);
      if (!o.success) return bad('input/malformed', 'standing orders are an object keyed by reaction kind');
      const out: Record<string, Json> = {};
      const violations: Violation[] = [];
      // The keys as sent: zod's record drops "__proto__", which would then erase the standing orders.
      for (const [kind, value] of Object.entries(raw.orders as Record<string, unknown>)) {
        // Own keys only: "constructor" must be an unknown reaction, not Object's constructor.
        const rk = spec.reactions !== undefined && Object.hasOwn(spec.reactions, kind) ? spec.reactions[kind] : undefined;
        if (rk === undefined) {
          violations.push(violation(INPUT_RULE, 'input/unknown_reaction', `"${kind}" is not a reaction of this game`));
          continue;
        }
        const v = rk.standingSchema.safeParse(value);
        if (v.success) out[kind] = v.data;
        else violations.push(violation(INPUT_RULE, 'input/malformed', `standing orders ${issueText(kind, v.error.issues)}`));
      }
      return violations.length > 0 ? { ok: false, violations } : { ok: true, value: { kind: 'standing-orders', orders: out } };
    }
    case 'reaction': {
      const refused = answerRefusal(state, side);
      if (refused !== null) return { ok: false, violations: [refused] };
      const req = state.pending!.request!;
      const a = spec.reactions?.[req.kind]?.answerSchema.safeParse(raw.orders);
      if (a === undefined || !a.success) return bad('input/malformed', `malformed ${req.kind} answer: ${a?.error.issues[0]?.message ?? 'unknown kind'}`);
      return { ok: true, value: { kind: 'reaction', answer: a.data } };
    }
    case 'orders': {
      if (p.mode === 'ended') return bad('phase/game_over', 'the game is over', null, seqRule);
      if (p.mode === 'reaction') return bad('phase/reaction_pending', 'waiting for a reaction', null, seqRule);
      if (!p.acting.includes(side)) return bad('phase/not_your_turn', `it is not ${side}'s turn to submit orders (phase ${def?.id ?? '?'})`, null, seqRule);
      const list = readRawOrders(raw.orders);
      if (list === null) return bad('input/malformed', 'orders are a list of objects, or { orders, endPhase }');
      // Each order as sent: zod's record drops a "__proto__" key, which the order's own strict schema must see to refuse.
      const items = (Array.isArray(raw.orders) ? raw.orders : (raw.orders as { orders: unknown[] }).orders) as Array<Record<string, unknown>>;
      const endPhase = list.endPhase;
      const violations: Violation[] = [];
      const orders: JsonObject[] = [];
      const schemas: unknown[] = [];
      items.forEach((item, i) => {
        const h = handlerFor(spec, state, typeof item['kind'] === 'string' ? item['kind'] : '');
        if (h === undefined) {
          violations.push(violation(seqRule, 'input/unknown_order', `order kind "${String(item['kind'])}" is not allowed in phase ${def?.id ?? '?'}`, i));
          return;
        }
        const r = h.schema.safeParse(item);
        if (r.success) {
          orders.push(r.data as JsonObject);
          schemas.push(h.schema);
        } else
          violations.push(
            violation(issueRule(state, r.error.issues), 'input/malformed', `${h.kind} order: ${r.error.issues.map((x) => `${x.path.join('.') || '(order)'} ${x.message}`).join('; ')}`, i),
          );
      });
      if (violations.length > 0) return { ok: false, violations };
      markParsed(orders, schemas);
      const endsPhase = def?.multiSubmission === true ? endPhase === true : true;
      return { ok: true, value: { kind: 'orders', orders, endsPhase } };
    }
    default:
      return assertNever(raw.kind, 'submission kind');
  }
}

function validate<X extends Json>(spec: SystemSpec<X>, state: GameState<X>, side: SideId, sub: Submission): Violation[] {
  switch (sub.kind) {
    case 'standing-orders':
      return Object.entries(sub.orders).flatMap(([kind, standing]) => spec.reactions?.[kind]?.checkStanding?.(state, side, standing, kind) ?? []);
    case 'reaction': {
      const refused = answerRefusal(state, side);
      if (refused !== null) return [refused];
      const req = state.pending!.request!;
      return spec.reactions?.[req.kind]?.validateAnswer(state, req, sub.answer) ?? [];
    }
    case 'orders': {
      const { after, violations } = applyOrders(spec, state, side, sub.orders);
      const def = currentPhase(state);
      const whole = def === undefined ? undefined : spec.phases[def.kind]?.validateSubmission;
      if (whole !== undefined) violations.push(...whole(state, after, side, sub.orders));
      // Rejected orders are not resolved: let the projected states go (transitions.ts).
      if (violations.length > 0) forgetTransition(state);
      return violations;
    }
    default:
      return assertNever(sub, 'submission');
  }
}

/**
 * Each order checked on the state the orders before it leave (their projected events folded in),
 * as a submission's orders are; `after` is that state once every order that passed is folded.
 */
function applyOrders<X extends Json>(spec: SystemSpec<X>, state: GameState<X>, side: SideId, orders: readonly JsonObject[]): { after: GameState<X>; violations: Violation[] } {
  const violations: Violation[] = [];
  let s = state;
  orders.forEach((o, i) => {
    const h = handlerFor(spec, state, String(o['kind']));
    if (h === undefined) {
      violations.push(violation(INPUT_RULE, 'input/unknown_order', `order kind "${String(o['kind'])}" is not allowed now`, i));
      return;
    }
    const v = h.validate(s, side, o, i);
    if (v.length > 0) violations.push(...v);
    else s = fold(spec, s, h.project(s, side, o));
  });
  return { after: s, violations };
}

/**
 * A phase a client is still writing: its orders checked as a submission's are, but not the checks
 * of the whole submission, which a phase not yet complete may fail (units still to be set up).
 */
function validateDraft<X extends Json>(spec: SystemSpec<X>, state: GameState<X>, side: SideId, draft: Submission): Violation[] {
  if (draft.kind !== 'orders') return [violation(INPUT_RULE, 'input/bad_draft', 'a draft is a list of orders')];
  const { violations } = applyOrders(spec, state, side, draft.orders);
  forgetTransition(state);
  return violations;
}

function resolve<X extends Json>(spec: SystemSpec<X>, state: GameState<X>, side: SideId, sub: Submission, dice: Dice): RulesEvent[] {
  const r = new Resolution(spec, state, dice, side);
  switch (sub.kind) {
    case 'standing-orders':
      r.emit(privateEvent('StandingOrdersSet', { side, orders: sub.orders }, [side], { type: 'StandingOrdersSet', data: { side } }));
      return r.events;
    case 'reaction':
      return continueAfterReaction(r, sub.answer, 'side');
    case 'orders': {
      if (state.phase.mode === 'simultaneous') {
        r.emit(privateEvent('OrdersSealed', { side, orders: sub.orders }, [side], { type: 'OrdersSealed', data: { side } }));
        if (r.state.phase.acting.length > 0) return r.events;
        const def = currentPhase(r.state)!;
        const sealed: Record<SideId, readonly JsonObject[]> = {};
        for (const s of r.state.phase.submitted) sealed[s] = (r.state.sides[s]?.secret.sealed ?? []) as readonly JsonObject[];
        const kind = spec.phases[def.kind]!;
        const opened = r.events.length;
        const before = r.state;
        if (kind.resolveSealed !== undefined) kind.resolveSealed(r, sealed);
        else
          for (const s of r.state.phase.submitted) {
            r.side = s;
            if (!runOrders(r, sealed[s]!, 0, 0, true, undefined, 'sealed')) throw new Error('sealed orders may not stop for a reaction');
          }
        r.rewrite(opened, before, secretsBundled(r.events.slice(opened), Object.keys(sealed)));
        // Applying them opens every side's sealed orders to the others: the submission that did
        // so showed its side the other setups, so it may not be taken back (undo).
        for (let i = opened; i < r.events.length; i++) r.events[i] = { ...r.events[i]!, reveals: true };
        r.side = side;
        kind.afterSealed?.(r);
        advance(r);
        return r.events;
      }
      if (runOrders(r, sub.orders, 0, 0, sub.endsPhase) && sub.endsPhase && r.state.phase.stage !== 'ended') advance(r);
      return r.events;
    }
    default:
      return assertNever(sub, 'submission');
  }
}

function continueAfterReaction<X extends Json>(r: Resolution<X>, answer: Json, by: 'side' | 'expiry'): RulesEvent[] {
  const p = r.state.pending;
  if (p === null || p.request === null) return [];
  const req = p.request;
  r.emit(privateEvent('ReactionAnswered', { side: req.side, kind: req.kind, answer, by }, [req.side], { type: 'ReactionAnswered', data: { side: req.side, kind: req.kind, by } }));
  r.emit(publicEvent('ResolutionResumed', { side: p.side }));
  r.side = p.side;
  const orders = p.orders as readonly JsonObject[];
  if (runOrders(r, orders, p.index, p.indexOffset, p.endsPhase, { stage: p.stage, answer }) && p.endsPhase && r.state.phase.stage !== 'ended') advance(r);
  return r.events;
}

function expire<X extends Json>(spec: SystemSpec<X>, state: GameState<X>, dice: Dice): RulesEvent[] {
  const req = state.pending?.request;
  if (!req) return [];
  const kind = spec.reactions?.[req.kind];
  if (kind === undefined) throw new Error(`no reaction kind "${req.kind}"`);
  const r = new Resolution(spec, state, dice, state.pending!.side);
  const answer = kind.fromStanding(state, req, state.sides[req.side]?.secret.standing[req.kind]) ?? kind.none(state, req);
  return continueAfterReaction(r, answer, 'expiry');
}

function view<X extends Json>(spec: SystemSpec<X>, state: GameState<X>, viewer: Viewer): unknown {
  const base = kernelView(state, viewer);
  return spec.view === undefined ? base : spec.view(state, viewer, base);
}

/**
 * What a unit may do now, or once the orders of `draft` (a phase being written, valid as
 * validateDraft says) are carried out: each option is an order validation accepts after them.
 * After a draft, moves and attacks go through the checks of the whole submission too, which may
 * refuse an order for where it comes (Gators! GT-5.2: ships move before everything else).
 */
function options<X extends Json>(spec: SystemSpec<X>, state: GameState<X>, side: SideId, unitId: string, draft?: Submission): UnitOptions | Violation[] {
  const { before, s } = afterDraft(spec, state, side, draft);
  const u = s.units[unitId];
  if (u === undefined || u.side !== side) return [violation(INPUT_RULE, 'input/not_your_unit', `${side} has no unit "${unitId}"`)];
  const out: UnitOptions = { unitId, moves: [], attacks: [] };
  if (!state.phase.acting.includes(side) || state.phase.mode === 'reaction' || state.phase.mode === 'ended') return out;
  const def = currentPhase(state);
  const accepted = acceptedAfter(spec, state, s, side, before);
  const drafted = before.length > 0;
  for (const h of (def && spec.phases[def.kind]?.orders) ?? []) {
    const o = h.options?.(s, side, unitId);
    if (o === undefined) continue;
    if (o.moves) out.moves.push(...(drafted ? o.moves.filter((m) => accepted(moveOfOption(unitId, m))) : o.moves));
    if (o.attacks) out.attacks.push(...(drafted ? o.attacks.filter((x) => accepted(attackOfOption(unitId, x))) : o.attacks));
    const other = h.optionOrder === undefined ? o.other : o.other?.filter((x) => accepted(h.optionOrder!(unitId, x) as JsonObject | null));
    if (other !== undefined && other.length > 0) out.other = [...(out.other ?? []), ...other];
  }
  // A read: the states its checks folded are not to be resolved.
  forgetTransition(state);
  return out;
}

/** The side's orders of no one unit (OrderHandler.sideOptions), now or after the draft: each one validation accepts after it. */
function sideOptions<X extends Json>(spec: SystemSpec<X>, state: GameState<X>, side: SideId, draft?: Submission): OtherOption[] {
  if (!state.phase.acting.includes(side) || state.phase.mode === 'reaction' || state.phase.mode === 'ended') return [];
  const { before, s } = afterDraft(spec, state, side, draft);
  const accepted = acceptedAfter(spec, state, s, side, before);
  const def = currentPhase(state);
  const out: OtherOption[] = [];
  for (const h of (def && spec.phases[def.kind]?.orders) ?? []) for (const x of h.sideOptions?.list(s, side) ?? []) if (accepted(h.sideOptions!.order(x) as JsonObject)) out.push(x);
  forgetTransition(state);
  return out;
}

/** A draft's orders, and the state their projections leave (the state itself without a draft). */
function afterDraft<X extends Json>(spec: SystemSpec<X>, state: GameState<X>, side: SideId, draft: Submission | undefined): { before: readonly JsonObject[]; s: GameState<X> } {
  const before = draft?.kind === 'orders' ? draft.orders : [];
  return { before, s: before.length === 0 ? state : applyOrders(spec, state, side, before).after };
}

/** The order a move option stands for, as the API documents it. */
const moveOfOption = (unit: string, m: UnitOptions['moves'][number]): JsonObject => ({ kind: 'move', unit, path: m.path, ...(m.with === undefined ? {} : { with: m.with }) });

/** The order an attack option stands for: the unit alone against the target hex. */
const attackOfOption = (unit: string, a: UnitOptions['attacks'][number]): JsonObject => ({ kind: 'attack', attackers: [{ unit }], target: a.targetHex });

/**
 * Whether parse and validate accept an order sent after the draft's orders (`before`, each valid,
 * which leave the state `after`), as a client would send it: the same checks as validate() of the
 * draft and the order, without checking the draft's orders again. What the checks of the whole
 * submission say of the draft alone is not the order's fault (they may ask for an order the client
 * has yet to add), so only what the order adds counts.
 */
function acceptedAfter<X extends Json>(spec: SystemSpec<X>, state: GameState<X>, after: GameState<X>, side: SideId, before: readonly JsonObject[]): (order: JsonObject | null) => boolean {
  const key = (v: Violation) => `${v.ruleId} ${v.code} ${v.message}`;
  const def = currentPhase(state);
  const whole = def === undefined ? undefined : spec.phases[def.kind]?.validateSubmission;
  let baseline: ReadonlySet<string> | undefined;
  return (order) => {
    if (order === null) return true;
    // Parsed where the draft leaves the game, so that it may name a unit the draft made (a split).
    const p = parse(spec, after, side, { kind: 'orders', orders: [order] });
    if (!p.ok || p.value.kind !== 'orders' || p.value.orders.length !== 1) return false;
    const o = p.value.orders[0]!;
    const h = handlerFor(spec, state, String(o['kind']));
    if (h === undefined || h.validate(after, side, o, before.length).length > 0) return false;
    if (whole === undefined) return true;
    baseline ??= new Set(whole(state, after, side, before).map(key));
    const next = fold(spec, after, h.project(after, side, o));
    return whole(state, next, side, [...before, o]).every((v) => baseline!.has(key(v)));
  };
}
