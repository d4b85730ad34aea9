import { z } from 'zod';
import { Json } from '../../model/json';
import { GameState } from '../../model/state';
import { boardOf } from '../board';
import { orderCancelled } from '../events';
import { OrderHandler } from '../kit/types';
import { typeOf, unitOf } from '../queries';
import { inZone, waitingForSetup } from '../setup';
import { stackProblem, stackTypesAt } from '../stacking';
import { cargoProblem, canStandIn } from '../transport';
import { cargoOf } from '../queries';
import { SideId, Violation } from '../types';
import { violation } from '../violation';
import { visibilityFor } from '../visibility';
import { isViolation, labelSchema, ownUnit, unitIdSchema } from './common';

export const placeSchema = z.union([
  z.strictObject({ kind: z.literal('place'), unit: unitIdSchema, hex: labelSchema, hidden: z.boolean().optional() }),
  z.strictObject({ kind: z.literal('place'), unit: unitIdSchema, carrier: unitIdSchema }),
]);
export type PlaceOrder = z.infer<typeof placeSchema>;
/** A place option's detail: the order less its kind and unit. */
type PlaceDetail = { hex: string } | { carrier: string };

/** Setup placement: into the unit's zone, obeying stacking; optionally under a concealment marker (GT-4.3). */
export function placeOrder<X extends Json>(): OrderHandler<X, PlaceOrder> {
  const check = (state: GameState, side: SideId, o: PlaceOrder, i: number): Violation[] => {
    const u = ownUnit(state, side, o.unit, i);
    if (isViolation(u)) return [u];
    const zone = String(u.attrs['setupZone'] ?? '');
    const zoneRule = state.scenario.setup.zones[zone]?.ruleId ?? 'SETUP';
    if (!waitingForSetup(u)) return [violation(zoneRule, 'setup/already_placed', `${o.unit} is not waiting to be set up`, i)];
    const board = boardOf(state.scenario);
    if ('carrier' in o) {
      const c = ownUnit(state, side, o.carrier, i);
      if (isViolation(c)) return [c];
      const p = cargoProblem(state, c, [...cargoOf(state, o.carrier), u]);
      return p === null ? [] : [violation(p.ruleId, p.code, p.message, i)];
    }
    const at = board.grid.indexOf(o.hex);
    if (!inZone(state, board, zone, at)) return [violation(zoneRule, 'setup/outside_zone', `${o.hex} is not in ${o.unit}'s setup zone ${zone}`, i)];
    const t = typeOf(state, u);
    if (!canStandIn(board, t, at)) return [violation(zoneRule, 'setup/terrain', `${t.name} cannot stand in ${o.hex}`, i)];
    if (o.hidden === true && state.scenario.setup.hiddenMarkers[side] === undefined)
      return [violation(zoneRule, 'setup/no_markers', `${side} has no concealment markers`, i)];
    const sp = stackProblem(state, board, side, at, [...stackTypesAt(state, side, o.hex), t]);
    return sp === null ? [] : [violation(sp.ruleId, 'setup/stacking', `${sp.message}: ${o.hex}`, i)];
  };
  const marker = (state: GameState, side: SideId) => state.scenario.setup.hiddenMarkers[side]?.marker ?? '?';
  return {
    kind: 'place',
    schema: placeSchema,
    validate: check,
    // Every hex of the unit's zone and every own transport where the placement passes the order's
    // own check; optionOrder lets options() drop those the system's checks of the whole setup refuse
    // (Gators!: aircraft on airfields, ships only at ship placement). `hidden: true` may be added to
    // a hex placement where the side has concealment markers: their number is a whole-setup check.
    options: (state, side, unitId) => {
      const u = state.units[unitId];
      if (u === undefined || u.side !== side || !waitingForSetup(u)) return {};
      const board = boardOf(state.scenario);
      const zone = String(u.attrs['setupZone'] ?? '');
      const other: Array<{ action: string; detail: PlaceDetail }> = [];
      for (let at = 0; at < board.grid.size; at++) {
        if (!inZone(state, board, zone, at)) continue;
        const hex = board.grid.label(at);
        if (check(state, side, { kind: 'place', unit: unitId, hex }, 0).length === 0) other.push({ action: 'place', detail: { hex } });
      }
      for (const c of Object.values(state.units))
        if (c.side === side && c.id !== unitId && typeOf(state, c).transport !== undefined && check(state, side, { kind: 'place', unit: unitId, carrier: c.id }, 0).length === 0)
          other.push({ action: 'place', detail: { carrier: c.id } });
      return other.length > 0 ? { other } : {};
    },
    optionOrder: (unitId, option) => ({ kind: 'place', unit: unitId, ...(option.detail as PlaceDetail) }),
    project: (state, side, o) => [
      'carrier' in o
        ? { type: 'UnitPlaced', data: { unit: o.unit, carrier: o.carrier } }
        : { type: 'UnitPlaced', data: { unit: o.unit, hex: o.hex, ...(o.hidden ? { hidden: marker(state, side) } : {}) } },
    ],
    resolve: (ctx, o, i) => {
      const v = check(ctx.state, ctx.side, o, i);
      if (v.length > 0) {
        ctx.emit(orderCancelled(ctx.side, i, 'place', v[0]!));
        return;
      }
      if ('carrier' in o) {
        const after = { ...ctx.state, units: { ...ctx.state.units, [o.unit]: { ...unitOf(ctx.state, o.unit), loc: { at: 'carried' as const, by: o.carrier } } } };
        ctx.emit({ type: 'UnitPlaced', data: { unit: o.unit, carrier: o.carrier }, visibility: visibilityFor(after, [unitOf(after, o.unit)]) });
        return;
      }
      const m = marker(ctx.state, ctx.side);
      const data = { unit: o.unit, hex: o.hex, ...(o.hidden ? { hidden: m } : {}) };
      const u = { ...unitOf(ctx.state, o.unit), ...(o.hidden ? { hidden: { marker: m } } : {}) };
      const withMarker = { ...ctx.state, units: { ...ctx.state.units, [o.unit]: u } };
      // No hex: one marker stands for any number of units (the view's), so a placement per unit
      // naming its hex would count them; the view shows where the markers are.
      ctx.emit({ type: 'UnitPlaced', data, visibility: visibilityFor(withMarker, [u], () => ({ type: 'MarkerPlaced', data: { marker: m, side: ctx.side } })) });
    },
  };
}
