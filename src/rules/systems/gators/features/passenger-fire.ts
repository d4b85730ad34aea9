import { z } from 'zod';
import { GameState } from '../../../model/state';
import { boardOf } from '../../../engine/board';
import { pickDefender, plannedClass, strengthOf } from '../../../engine/combat/attack-checks';
import { isChoiceStage } from '../../../engine/combat/owner-choice';
import { resolveOddsAttack, resumeOddsAttack } from '../../../engine/combat/odds-step';
import { OrderHandler } from '../../../engine/kit/types';
import { isViolation, labelSchema, ownUnit, unitIdSchema } from '../../../engine/orders/common';
import { flag } from '../../../engine/queries';
import { INPUT_RULE, violation } from '../../../engine/violation';
import { SideId, Violation } from '../../../engine/types';
import { marksOf } from '../../../engine/visibility';
import { airOps } from '../air-data';
import { hasAnyTag, neighbourHexes } from '../air-queries';
import { CombinedHooks, CoreHooks, GatorsFeature } from '../feature';
import { GatorsExt, GState, gext } from '../ext';
import { publicOf, shipCarrying } from '../queries';
import { askFirst } from '../orders/attack';
import { cancel } from '../orders/wrap';
import { slotsLeft } from './launch-recovery';

/**
 * GT-7F.3, Q-GT-39: a Hmmwv/Stinger or Avenger aboard a ship fires back at an
 * aircraft next to the ship, in P1's attack phase, as an ordinary attack from
 * the ship's hex. Each firing passenger uses one of the ship's 6 launches of
 * the turn. Passengers never fire out of turn, and attacker results do not
 * reach them aboard.
 */
export const passengerFireSchema = z.strictObject({
  kind: z.literal('passenger-fire'),
  attackers: z.array(z.strictObject({ unit: unitIdSchema })).min(1).max(12),
  target: labelSchema,
});
export type PassengerFireOrder = z.infer<typeof passengerFireSchema>;

function check(state: GameState, h: CoreHooks, side: SideId, o: PassengerFireOrder, i: number): Violation[] {
  const d = airOps(state.scenario);
  const board = boardOf(state.scenario);
  const target = board.grid.indexOf(o.target);
  if (target < 0) return [violation(INPUT_RULE, 'input/bad_hex', `${o.target} is not a hex of the board`, i)];
  const def = pickDefender(state, o.target, side, h.odds, side);
  if (def === undefined) return [violation('GT-7A.1', 'combat/no_target', `no enemy unit in ${o.target}`, i)];
  const cls = plannedClass(state, h.odds, def, target, side);
  if (cls !== d.passengerTargetClass) return [violation('Q-GT-39', 'combat/passenger_target', `passengers fire only at ${d.passengerTargetClass} targets`, i)];
  const out: Violation[] = [];
  const perShip = new Map<string, number>();
  const seen = new Set<string>();
  for (const a of o.attackers) {
    const u = ownUnit(state, side, a.unit, i);
    if (isViolation(u)) return [u];
    if (seen.has(u.id)) return [violation(INPUT_RULE, 'input/duplicate_unit', `${u.id} is listed twice`, i)];
    seen.add(u.id);
    const ship = shipCarrying(state, u);
    if (ship === undefined || ship.loc.at !== 'hex') return [violation('GT-7F.3', 'combat/not_passenger', `${u.id} is not aboard a ship on the map`, i)];
    if (!hasAnyTag(state, u, d.passengerTags)) out.push(violation('GT-7F.3', 'combat/passenger_may_not_fire', `${u.id} may not fire from a ship`, i));
    if (board.grid.distance(board.grid.indexOf(ship.loc.hex), target) !== 1) out.push(violation('Q-GT-39', 'combat/out_of_range', `${o.target} is not next to ${ship.id}`, i));
    if (flag(u, 'attacked')) out.push(violation('Q-GT-33', 'combat/already_attacked', `${u.id} has already attacked this phase`, i));
    const p = h.odds.attackerProblem?.(state, u, i);
    if (p) out.push(p);
    if (strengthOf(state, h.odds, u, cls) <= 0) out.push(violation('GT-7A.4', 'combat/zero_strength', `${u.id} has no strength against ${cls}`, i));
    perShip.set(ship.id, (perShip.get(ship.id) ?? 0) + 1);
  }
  for (const [ship, n] of perShip)
    if (slotsLeft(state, ship) < n) out.push(violation('Q-GT-39', 'combat/no_slots', `${ship} has ${slotsLeft(state, ship)} launches left this turn for ${n} firing passengers`, i));
  return out;
}

function shipsOf(state: GameState, o: PassengerFireOrder): Map<string, number> {
  const m = new Map<string, number>();
  for (const a of o.attackers) {
    const s = shipCarrying(state, state.units[a.unit]!);
    if (s !== undefined) m.set(s.id, (m.get(s.id) ?? 0) + 1);
  }
  return m;
}

function passengerFireOrder(h: CombinedHooks): OrderHandler<GatorsExt, PassengerFireOrder> {
  return {
    kind: 'passenger-fire',
    schema: passengerFireSchema,
    validate: (state, side, o, i) => check(state, h, side, o, i),
    optionOrder: (unit, x) => (x.action === 'passenger-fire' ? { kind: 'passenger-fire', attackers: [{ unit }], target: (x.detail as { target: string }).target } : null),
    // The hexes next to its ship that this passenger may fire at alone, by the same check as
    // validation: a "?" there is offered exactly when check accepts it (what it plans from what
    // the side knows, plannedClass).
    options: (state, side, unitId) => {
      const u = state.units[unitId];
      const ship = u === undefined ? undefined : shipCarrying(state, u);
      if (u === undefined || ship?.loc.at !== 'hex' || !hasAnyTag(state, u, airOps(state.scenario).passengerTags)) return {};
      const grid = boardOf(state.scenario).grid;
      const other = neighbourHexes(state, grid.indexOf(ship.loc.hex))
        .map((n) => grid.label(n))
        .filter((target) => check(state, h, side, { kind: 'passenger-fire', attackers: [{ unit: unitId }], target }, 0).length === 0)
        .map((target) => ({ action: 'passenger-fire', detail: { target } }));
      return other.length > 0 ? { other } : {};
    },
    project: (state, _side, o) => [
      { type: 'UnitsMarked', data: { marks: o.attackers.map((a) => ({ unit: a.unit, flags: { attacked: true } })) } },
      ...[...shipsOf(state, o)].map(([ship, count]) => ({ type: 'LaunchSlotsUsed', data: { ship, count, cause: 'passenger-fire' } })),
    ],
    resolve: (ctx, o, i, resume) => {
      // The defender's owner chose its counter or its retreat (Q-GT-44, Q-GT-35): the fire goes on from there.
      if (resume !== undefined && isChoiceStage(resume.stage)) return void resumeOddsAttack(ctx, o.attackers, o.target, h.odds, resume, { cause: 'passenger-fire' });
      if (resume === undefined) {
        const v = check(ctx.state, h, ctx.side, o, i);
        if (v.length > 0) return cancel(ctx, i, 'passenger-fire', v[0]!);
      }
      const hooks = askFirst(ctx, h.attackReaction, o, resume, () => true, h.odds);
      if (hooks === false) return;
      const ships = shipsOf(ctx.state, o);
      ctx.emit(marksOf(ctx.state, o.attackers.map((a) => ({ unit: a.unit, flags: { attacked: true } }))));
      for (const [ship, count] of ships) ctx.emit(publicOf('LaunchSlotsUsed', { ship, count, cause: 'passenger-fire' }));
      resolveOddsAttack(ctx, o.attackers, o.target, hooks, { cause: 'passenger-fire', ownerChoices: true });
    },
  };
}

function slotsUsed(state: GState, data: unknown): GState {
  const d = data as { ship: string; count: number };
  const ext = gext(state);
  return { ...state, ext: { ...ext, launches: { ...ext.launches, [d.ship]: (ext.launches[d.ship] ?? 0) + d.count } } };
}

export const passengerFire: GatorsFeature = {
  id: 'passenger-fire',
  rules: ['GT-7F.3', 'Q-GT-39'],
  phases: { combat: { orders: (h) => [passengerFireOrder(h)] } },
  events: { LaunchSlotsUsed: (s, e) => slotsUsed(s, e.data) },
};
