import { z } from 'zod';
import { GameState, UnitState } from '../../../model/state';
import { patchUnit } from '../../../engine/evolve';
import { table } from '../../../engine/combat/attack-checks';
import { OrderHandler } from '../../../engine/kit/types';
import { isViolation, labelSchema, ownUnit, unitIdSchema } from '../../../engine/orders/common';
import { unitsAt } from '../../../engine/queries';
import { concealedFrom } from '../../../engine/visibility';
import { violation } from '../../../engine/violation';
import { SideId, Violation } from '../../../engine/types';
import { airOps } from '../air-data';
import { besideHers, isLanded } from '../air-queries';
import { GatorsFeature } from '../feature';
import { GatorsExt, GState } from '../ext';
import { idOrder, isAircraft, privateTo, publicOf } from '../queries';
import { cancel } from '../orders/wrap';

/**
 * GT-7H, Q-GT-41: landed aircraft (air-queries.ts isLanded: on a usable
 * friendly airfield, the CH-53E holding a HERS ashore, or next to a friendly
 * HERS with no markers and no cargo) are soft ground targets, cannot attack
 * and exert no ZOC (Q-GT-21); attacks on them shift two columns right, and a
 * retreat result destroys them. In a stack of landed aircraft the top one is
 * hit: its owner orders the stack in his movement phase ("stack-order");
 * unordered aircraft lie below the ordered ones.
 */
export const stackOrderSchema = z.strictObject({ kind: z.literal('stack-order'), hex: labelSchema, units: z.array(unitIdSchema).min(2).max(30) });
export type StackOrder = z.infer<typeof stackOrderSchema>;

function position(u: UnitState): number {
  const v = u.attrs['stackOrder'];
  return typeof v === 'number' ? v : Number.MAX_SAFE_INTEGER;
}

/** GT-7H.2: the top of a stack of landed aircraft (as `knownTo` can tell which are landed). */
function topOf(state: GameState, stack: readonly UnitState[], knownTo: SideId | null): UnitState | undefined {
  if (stack.length < 2 || !stack.every((u) => isLanded(state, u, knownTo))) return undefined;
  return [...stack].sort((a, b) => position(a) - position(b) || idOrder(a.id, b.id))[0];
}

function checkStackOrder(state: GameState, side: SideId, o: StackOrder, i: number): Violation[] {
  for (const id of o.units) {
    const u = ownUnit(state, side, id, i);
    if (isViolation(u)) return [u];
  }
  const here = unitsAt(state, o.hex).filter((u) => u.side === side && isAircraft(state, u)).map((u) => u.id);
  if (new Set(o.units).size !== o.units.length || here.length !== o.units.length || !o.units.every((id) => here.includes(id)))
    return [violation('Q-GT-41', 'air/stack_order', `list every aircraft of your stack in ${o.hex} once (${here.join(', ') || 'none'})`, i)];
  return [];
}

function stackOrder(): OrderHandler<GatorsExt, StackOrder> {
  return {
    kind: 'stack-order',
    schema: stackOrderSchema,
    validate: checkStackOrder,
    // "This one on top": the side's other aircraft of the hex below it, in their present order.
    options: (state, side, unitId) => {
      const u = state.units[unitId];
      if (u === undefined || u.loc.at !== 'hex') return {};
      const hex = u.loc.hex;
      const stack = unitsAt(state, hex).filter((x) => x.side === side && isAircraft(state, x));
      if (stack.length < 2 || !stack.some((x) => x.id === unitId)) return {};
      const rest = stack.filter((x) => x.id !== unitId).sort((a, b) => position(a) - position(b) || idOrder(a.id, b.id));
      const units = [unitId, ...rest.map((x) => x.id)];
      return checkStackOrder(state, side, { kind: 'stack-order', hex, units }, 0).length > 0 ? {} : { other: [{ action: 'stack-order', detail: { hex, units } }] };
    },
    optionOrder: (_unit, x) => (x.action === 'stack-order' ? { kind: 'stack-order', ...(x.detail as { hex: string; units: string[] }) } : null),
    project: (_s, _side, o) => [{ type: 'StackOrdered', data: { hex: o.hex, units: o.units } }],
    resolve: (ctx, o, i) => {
      const v = checkStackOrder(ctx.state, ctx.side, o, i);
      if (v.length > 0) return cancel(ctx, i, 'stack-order', v[0]!);
      // A stack with a counter under a "?" is ordered for its owner alone: the order names what the marker hides.
      const data = { hex: o.hex, units: o.units };
      const hidden = o.units.some((id) => concealedFrom(ctx.state, ctx.state.units[id]!).length > 0);
      ctx.emit(hidden ? privateTo(ctx.side, 'StackOrdered', data) : publicOf('StackOrdered', data));
    },
  };
}

function ordered(state: GState, data: unknown): GState {
  const d = data as { units: string[] };
  return d.units.reduce((s, id, k) => patchUnit(s, id, (u) => ({ ...u, attrs: { ...u.attrs, stackOrder: k } })), state);
}

/** The result that destroys the defender, for "retreat = destroyed" (GT-7H.1). */
function killResult(state: GameState): string | undefined {
  return Object.entries(table(state).results).find(([, s]) => s.side === 'defender' && s.effect === 'eliminate')?.[0];
}

export const landedAircraft: GatorsFeature = {
  id: 'landed-aircraft',
  rules: ['GT-7H.1', 'GT-7H.2', 'Q-GT-41'],
  phases: { movement: { orders: () => [stackOrder()] } },
  move: { zocVeto: (state, enemy, _type, _medium, knownTo) => isLanded(state, enemy, knownTo) },
  odds: {
    defender: topOf,
    // Next to the HERS the owner's secret markers and cargo decide (Q-GT-41): the attacker's planning cannot tell.
    targetClass: (state, u, knownTo) => {
      if (isLanded(state, u, knownTo)) return airOps(state.scenario).landedTargetClass;
      return knownTo !== null && knownTo !== u.side && besideHers(state, u) ? null : undefined;
    },
    attackerProblem: (state, u, i) => (isLanded(state, u) ? violation('GT-7H.1', 'air/landed', `${u.id} has landed and cannot attack`, i) : null),
    modifiers: (state, attack, knownTo) => ({
      shifts: isLanded(state, attack.defender.unit, knownTo ?? null) ? [{ value: airOps(state.scenario).landedShift, ruleId: 'GT-7H.1' }] : [],
      dieModifiers: [],
    }),
    adjustResult: (state, attack, result) => {
      const spec = table(state).results[result];
      if (spec?.side !== 'defender' || spec.effect !== 'retreat' || !isLanded(state, attack.defender.unit)) return result;
      return killResult(state) ?? result;
    },
  },
  events: { StackOrdered: (s, e) => ordered(s, e.data) },
  // Only the private ones are records (gathered at the run's end, so that no count tells of them).
  records: ['StackOrdered'],
};
