import { Json, JsonObject } from '../../model/json';
import { GameState } from '../../model/state';
import { forgetTransition } from '../transitions';
import { currentPhase } from '../phase-machine';
import { OtherOption, SideId, UnitOptions, Violation } from '../types';
import { INPUT_RULE, violation } from '../violation';
import { applyOrders, parse } from './checks';
import { fold, handlerFor } from './runner';
import { Submission, SystemSpec } from './types';

/**
 * What a unit may do now, or once the orders of `draft` (a phase being written, valid as
 * validateDraft says) are carried out: each option is an order validation accepts after them.
 * After a draft, moves and attacks go through the checks of the whole submission too, which may
 * refuse an order for where it comes (Gators! GT-5.2: ships move before everything else).
 */
export function options<X extends Json>(spec: SystemSpec<X>, state: GameState<X>, side: SideId, unitId: string, draft?: Submission): UnitOptions | Violation[] {
  const { before, s } = afterDraft(spec, state, side, draft);
  const u = s.units[unitId];
  if (u === undefined || u.side !== side) return [violation(INPUT_RULE, 'input/not_your_unit', `${side} has no unit "${unitId}"`)];
  const out: UnitOptions = { unitId, moves: [], attacks: [] };
  if (!givesOrders(state, side)) return out;
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
export function sideOptions<X extends Json>(spec: SystemSpec<X>, state: GameState<X>, side: SideId, draft?: Submission): OtherOption[] {
  if (!givesOrders(state, side)) return [];
  const { before, s } = afterDraft(spec, state, side, draft);
  const accepted = acceptedAfter(spec, state, s, side, before);
  const def = currentPhase(state);
  const out: OtherOption[] = [];
  for (const h of (def && spec.phases[def.kind]?.orders) ?? []) for (const x of h.sideOptions?.list(s, side) ?? []) if (accepted(h.sideOptions!.order(x) as JsonObject)) out.push(x);
  forgetTransition(state);
  return out;
}

/** Whether the side may give orders now: options are offered only then. */
const givesOrders = (state: GameState, side: SideId): boolean => state.phase.acting.includes(side) && state.phase.mode !== 'reaction' && state.phase.mode !== 'ended';

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
