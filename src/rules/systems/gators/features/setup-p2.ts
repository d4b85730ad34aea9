import { z } from 'zod';
import { boardOf, hasOverlay, isOnMap } from '../../../engine/board';
import { OrderHandler } from '../../../engine/kit/types';
import { hexOptions, labelSchema } from '../../../engine/orders/common';
import { placeOrder } from '../../../engine/orders/place';
import { allUnits, hexOf, mediumAt } from '../../../engine/queries';
import { setupViolations } from '../../../engine/setup';
import { unitViolation, violation } from '../../../engine/violation';
import { SideId, Violation } from '../../../engine/types';
import { gatorsData } from '../data';
import { CombinedHooks, GatorsFeature } from '../feature';
import { friendlyAirfield } from '../air-queries';
import { GatorsExt, GState, gext, notesOf } from '../ext';
import { closedToPlacing, distanceToAirfield, isAircraft, publicOf, tagged } from '../queries';

/**
 * P2's secret deployment (GT-4.2–GT-4.7), sealed together with P1's loading:
 * units into their setup.json zones (not on bridges, boats at the shore
 * Q-GT-15, aircraft on airfields), up to 18 under "?" markers (GT-4.3),
 * Debris markers (GT-4.7, Q-GT-32), and the airborne F-5A pair (GT-4.4).
 */
export const debrisSchema = z.strictObject({ kind: z.literal('debris'), hex: labelSchema });
export type DebrisOrder = z.infer<typeof debrisSchema>;

function debrisProblem(state: GState, side: SideId, o: DebrisOrder, i: number): Violation[] {
  const board = boardOf(state.scenario);
  const at = board.grid.indexOf(o.hex);
  if (side !== gatorsData(state.scenario).options.defendingSide) return [violation('GT-4.7', 'setup/not_yours', `${side} places no Debris markers`, i)];
  if (!isOnMap(board, at) || mediumAt(board, at) !== 'land') return [violation('GT-4.7', 'setup/debris_place', `Debris goes on a land hex, not ${o.hex}`, i)];
  if (hasOverlay(board, at, 'road') || hasOverlay(board, at, 'bridge')) return [violation('GT-4.7', 'setup/debris_road', `no Debris on roads or bridges (${o.hex})`, i)];
  if (gext(state).debris.includes(o.hex)) return [violation('GT-4.7', 'setup/debris_twice', `${o.hex} already has a Debris marker`, i)];
  return [];
}

/** GT-4.7: registered by the debris feature, so that a scenario without Debris places none. */
export function debrisOrder(): OrderHandler<GatorsExt, DebrisOrder> {
  return {
    kind: 'debris',
    schema: debrisSchema,
    validate: debrisProblem,
    sideOptions: {
      list: (state, side) => hexOptions(state, 'debris', (hex) => debrisProblem(state as GState, side, { kind: 'debris', hex }, 0).length === 0),
      order: (x) => ({ kind: 'debris', hex: (x.detail as { hex: string }).hex }),
    },
    project: (_s, _side, o) => [{ type: 'DebrisPlaced', data: { hex: o.hex } }],
    resolve: (ctx, o) => ctx.emit(publicOf('DebrisPlaced', { hex: o.hex })),
  };
}

/** Whole-submission checks of P2's setup. */
function p2Setup(after: GState, side: SideId, h: CombinedHooks): Violation[] {
  const d = gatorsData(after.scenario).options;
  const out = setupViolations(after, side);
  const debris = gext(after).debris.length;
  if (debris > d.debrisMarkers) out.push(violation('Q-GT-32', 'setup/too_much_debris', `${debris} Debris markers, only ${d.debrisMarkers}`, null));
  const board = boardOf(after.scenario);
  // On the whole setup, so that Debris placed after the unit counts too (GT-6Q.3, Q-GT-22).
  for (const u of allUnits(after)) {
    if (u.side !== side || u.loc.at !== 'hex') continue;
    const closed = closedToPlacing(h.move, after, u, u.loc.hex);
    if (closed !== null) out.push(unitViolation(closed.ruleId, closed.code, `${u.id} cannot be set up in ${u.loc.hex}: ${closed.message}`, u.id));
  }
  const airborne: string[] = [];
  for (const u of allUnits(after)) {
    if (u.side !== side || !isAircraft(after, u) || u.loc.at !== 'hex') continue;
    const at = board.grid.indexOf(u.loc.hex);
    // Stacked on an airfield = landed there (GT-4.4); over one its Debris makes unusable, it would be in the air (GT-6Q.4).
    if (friendlyAirfield(after, side, at)) continue;
    if (!tagged(after, u, ...gatorsData(after.scenario).setup.airborneTags)) {
      out.push(
        board.airfieldOf[at]! >= 0
          ? unitViolation('GT-6Q.4', 'setup/airfield_unusable', `${u.id} cannot start on the airfield at ${u.loc.hex}: its Debris makes it unusable`, u.id)
          : unitViolation('GT-4.4', 'setup/aircraft_off_airfield', `${u.id} must start on an airfield`, u.id),
      );
      continue;
    }
    airborne.push(u.id);
    if (distanceToAirfield(after, hexOf(after, u)!) > d.airborneF5aDistance)
      out.push(unitViolation('GT-4.4', 'setup/airborne_too_far', `airborne ${u.id} must be within ${d.airborneF5aDistance} hexes of an airfield`, u.id));
    if ((notesOf(after, side).loadouts?.[u.id] ?? []).length === 0)
      out.push(unitViolation('Q-GT-15', 'setup/airborne_unarmed', `airborne ${u.id} must carry an Air-Attack loadout`, u.id));
  }
  if (airborne.length > d.airborneF5aMax)
    out.push(violation('GT-4.4', 'setup/too_many_airborne', `${airborne.length} aircraft airborne, at most ${d.airborneF5aMax}`, null));
  return out;
}

export const setupP2: GatorsFeature = {
  id: 'setup-p2',
  rules: ['GT-4.2', 'GT-4.3', 'GT-4.4', 'GT-4.5', 'GT-4.6', 'GT-4.7', 'Q-GT-15', 'Q-GT-32'],
  phases: {
    setup: {
      orders: () => [placeOrder<GatorsExt>()],
      validateSubmission: (_before, after, side, _orders, h) => (side === gatorsData(after.scenario).options.defendingSide ? p2Setup(after, side, h) : []),
    },
  },
  events: { DebrisPlaced: (s, e) => ({ ...s, ext: { ...gext(s), debris: [...gext(s).debris, (e.data as { hex: string }).hex] } }) },
};
