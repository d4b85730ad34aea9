import { z } from 'zod';
import { Json, JsonObject } from '../../model/json';
import { GameState } from '../../model/state';
import { forgetTransition } from '../transitions';
import { currentPhase } from '../phase-machine';
import { Parsed, RawSubmission, SideId, Violation } from '../types';
import { INPUT_RULE, violation } from '../violation';
import { assertNever } from '../assert-never';
import { fastSchema } from './fast-schema';
import { issueText } from './issue-text';
import { readRawOrders } from './raw-orders';
import { fold, handlerFor, markParsed } from './runner';
import { Submission, SystemSpec } from './types';

/*
 * The kernel's parse and validate of a submission, and of a draft (a phase still being written):
 * what the orders break, read from the acting side's knowledge. defineSystem wires them; options
 * (options.ts) checks each option with them.
 */

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

export function parse<X extends Json>(spec: SystemSpec<X>, state: GameState<X>, side: SideId, raw: RawSubmission): Parsed<Submission> {
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
        else violations.push(violation(INPUT_RULE, 'input/malformed', `standing orders ${issueText(kind, v.error.issues, value)}`));
      }
      return violations.length > 0 ? { ok: false, violations } : { ok: true, value: { kind: 'standing-orders', orders: out } };
    }
    case 'reaction': {
      const refused = answerRefusal(state, side);
      if (refused !== null) return { ok: false, violations: [refused] };
      const req = state.pending!.request!;
      const a = spec.reactions?.[req.kind]?.answerSchema.safeParse(raw.orders);
      // Named down to the field, as standing orders are: "expected array" alone left a client guessing which.
      if (a === undefined || !a.success) return bad('input/malformed', `malformed ${req.kind} answer: ${a === undefined ? 'unknown kind' : issueText('orders', a.error.issues, raw.orders)}`);
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
      // A client that means to send more of a phase sent whole would see it end under it.
      if (endPhase === false && def?.multiSubmission !== true) {
        return bad('input/malformed', `phase ${def?.id ?? '?'} is sent whole, in one submission: endPhase false is only for a phase sent in parts`, null, seqRule);
      }
      const violations: Violation[] = [];
      const orders: JsonObject[] = [];
      const schemas: unknown[] = [];
      items.forEach((item, i) => {
        const h = handlerFor(spec, state, typeof item['kind'] === 'string' ? item['kind'] : '');
        if (h === undefined) {
          violations.push(violation(seqRule, 'input/unknown_order', `order kind "${String(item['kind'])}" is not allowed in phase ${def?.id ?? '?'}`, i));
          return;
        }
        const r = fastSchema(h.schema).safeParse(item);
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

export function validate<X extends Json>(spec: SystemSpec<X>, state: GameState<X>, side: SideId, sub: Submission): Violation[] {
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
export function applyOrders<X extends Json>(spec: SystemSpec<X>, state: GameState<X>, side: SideId, orders: readonly JsonObject[]): { after: GameState<X>; violations: Violation[] } {
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
export function validateDraft<X extends Json>(spec: SystemSpec<X>, state: GameState<X>, side: SideId, draft: Submission): Violation[] {
  if (draft.kind !== 'orders') return [violation(INPUT_RULE, 'input/bad_draft', 'a draft is a list of orders')];
  const { violations } = applyOrders(spec, state, side, draft.orders);
  forgetTransition(state);
  return violations;
}
