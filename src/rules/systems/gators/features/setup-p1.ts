import { z } from 'zod';
import { JsonObject } from '../../../model/json';
import { GameState, UnitState } from '../../../model/state';
import { OrderHandler } from '../../../engine/kit/types';
import { isViolation, ownUnit, unitIdSchema } from '../../../engine/orders/common';
import { loadOrder } from '../../../engine/orders/transport-orders';
import { allUnits, cargoOf } from '../../../engine/queries';
import { unitViolation, violation } from '../../../engine/violation';
import { SideId, Violation } from '../../../engine/types';
import { visibilityFor } from '../../../engine/visibility';
import { airOps } from '../air-data';
import { gatorsData } from '../data';
import { groundData } from '../ground-data';
import { GatorsFeature } from '../feature';
import { GatorsExt, GState, notesOf } from '../ext';
import { idOrder, isShip, privateTo, shipCarrying, tagged } from '../queries';
import { withChecks } from '../orders/wrap';

/**
 * P1 loads the ships while P2 deploys (GT-4.10–GT-4.13). The loading lists
 * are the oob.json carriers. At setup P1 may: move 1–2 helicopters of any
 * type to each of the LPD and LSD (Q-GT-13; the AV-8B stays on the LHD,
 * GT-2.38); split rifle platoons — the platoon goes to the split box and three
 * squads come aboard its ship (GT-4.13: only these may be landed as squads);
 * load units into landing craft and aircraft aboard the same ship (GT-4.12,
 * nested cargo GT-6G.4); arm aircraft (loadouts feature; GT-4.11: attack
 * helicopters on the LPD/LSD must be armed). Which units and ships these are
 * is data: rules.json combat.setup, combat.airOps.onlyShips and
 * combat.squads; the number per ship is scenario.json options.
 */
export const assignSchema = z.strictObject({ kind: z.literal('assign'), unit: unitIdSchema, ship: unitIdSchema });
export type AssignOrder = z.infer<typeof assignSchema>;
export const splitSchema = z.strictObject({ kind: z.literal('split'), platoon: unitIdSchema });
export type SplitOrder = z.infer<typeof splitSchema>;

function checkAssign(state: GameState, side: SideId, o: AssignOrder, i: number): Violation[] {
  const u = ownUnit(state, side, o.unit, i);
  if (isViolation(u)) return [u];
  const ship = ownUnit(state, side, o.ship, i);
  if (isViolation(ship)) return [ship];
  if (!isShip(state, ship)) return [violation('GT-4.10', 'setup/not_a_ship', `${o.ship} is not a ship`, i)];
  if (!tagged(state, u, ...gatorsData(state.scenario).setup.assignTags))
    return [violation('Q-GT-13', 'setup/not_a_helicopter', `${o.unit} may not start on another ship (only helicopters may)`, i)];
  if (shipCarrying(state, u) === undefined) return [violation('GT-4.10', 'setup/not_aboard', `${o.unit} is not aboard a ship`, i)];
  // Its cargo would change ship with it, and only helicopters may (GT-4.10): loaded first, a platoon reached another ship.
  const cargo = cargoOf(state, u.id);
  if (cargo.length > 0) return [violation('GT-4.10', 'setup/ship_lists', `${o.unit} carries ${cargo.map((c) => c.id).join(', ')}, which must start on the ship the lists give: assign it before loading it`, i)];
  return [];
}

function assignOrder(): OrderHandler<GatorsExt, AssignOrder> {
  return {
    kind: 'assign',
    schema: assignSchema,
    validate: checkAssign,
    // The own ships this helicopter may start on, the one it is aboard too (a client may state it; the
    // order is accepted and changes nothing), by its own check; optionOrder drops what the whole setup
    // refuses (GT-2.38 LHD-only aircraft, Q-GT-13 helicopters per ship, GT-4.11 an attack helicopter
    // off the LHD unarmed: it needs its arm order in the same submission).
    options: (state, side, unitId) => {
      const u = state.units[unitId];
      const here = u === undefined || u.side !== side ? undefined : shipCarrying(state, u);
      if (here === undefined) return {};
      const other = allUnits(state)
        .filter((s) => s.side === side && isShip(state, s) && checkAssign(state, side, { kind: 'assign', unit: unitId, ship: s.id }, 0).length === 0)
        .map((s) => ({ action: 'assign', detail: { ship: s.id } }));
      return other.length > 0 ? { other } : {};
    },
    optionOrder: (unitId, option) => ({ kind: 'assign', unit: unitId, ship: (option.detail as { ship: string }).ship }),
    project: (_s, _side, o) => [{ type: 'UnitLoaded', data: { unit: o.unit, carrier: o.ship } }],
    resolve: (ctx, o) => {
      const after = { ...ctx.state, units: { ...ctx.state.units, [o.unit]: { ...ctx.state.units[o.unit]!, loc: { at: 'carried' as const, by: o.ship } } } };
      ctx.emit({ type: 'UnitLoaded', data: { unit: o.unit, carrier: o.ship }, visibility: visibilityFor(after, [after.units[o.unit]!]) });
    },
  };
}

/** The attr of a squad that has gone back to the pool by a merge, which P2 saw. */
export const RETURNED = 'returnedToPool';

/**
 * The three squads a split takes from the pool. At setup: the lowest-numbered. On land, where P2
 * reads their ids, they must not tell what the sealed setup took (Q-GT-01): first those P2 saw go
 * back by a merge, lowest first, then the highest-numbered of those never used, which the setup's
 * splits reach last. Squads are alike, so the choice is no loss to P1.
 */
export function squadsFromPool(state: GameState, side: SideId, on: 'setup' | 'land' = 'setup'): string[] {
  const d = groundData(state.scenario).squads;
  const pool = allUnits(state).filter((u) => u.side === side && u.loc.at === 'box' && u.loc.box === d.pool && tagged(state, u, ...d.squadTags));
  if (on === 'setup') return pool.map((u) => u.id).sort(idOrder).slice(0, 3);
  const back = pool.filter((u) => u.attrs[RETURNED] === true).map((u) => u.id).sort(idOrder);
  const unused = pool.filter((u) => u.attrs[RETURNED] !== true).map((u) => u.id).sort((a, b) => idOrder(b, a));
  return [...back, ...unused].slice(0, 3).sort(idOrder);
}

function checkSplit(state: GameState, side: SideId, o: SplitOrder, i: number): Violation[] {
  const u = ownUnit(state, side, o.platoon, i);
  if (isViolation(u)) return [u];
  if (!tagged(state, u, ...groundData(state.scenario).squads.splitTags)) return [violation('GT-4.13', 'setup/not_rifle_platoon', `only Rifle Platoons may be split (${o.platoon})`, i)];
  if (shipCarrying(state, u) === undefined) return [violation('GT-4.13', 'setup/not_aboard', `${o.platoon} must be aboard its ship to be split at setup`, i)];
  if (squadsFromPool(state, side).length < 3) return [violation('GT-4.13', 'setup/no_squads', 'no squads are left to split it into', i)];
  return [];
}

/** GT-4.13: registered by the squads feature, so that a scenario without squads has no split. */
export function splitOrder(): OrderHandler<GatorsExt, SplitOrder> {
  const data = (state: GameState, side: SideId, o: SplitOrder) => ({ side, platoon: o.platoon, squads: squadsFromPool(state, side), carrier: shipCarrying(state, state.units[o.platoon]!)!.id });
  return {
    kind: 'split',
    schema: splitSchema,
    validate: checkSplit,
    project: (state, side, o) => [{ type: 'PlatoonSplit', data: data(state, side, o) }],
    resolve: (ctx, o) => ctx.emit(privateTo(ctx.side, 'PlatoonSplit', data(ctx.state, ctx.side, o))),
  };
}

/** Evolve of PlatoonSplit: the platoon into the (secret) split box, its squads aboard its ship. */
export function split(state: GState, data: unknown): GState {
  const d = data as { platoon: string; squads: string[]; carrier: string };
  const box = groundData(state.scenario).squads.splitBox;
  const units: Record<string, UnitState> = { ...state.units };
  const p = units[d.platoon]!;
  units[d.platoon] = { ...p, loc: { at: 'box', box }, hidden: { marker: box } };
  for (const id of d.squads) {
    const { hidden: _h, ...sq } = units[id]!;
    units[id] = { ...sq, loc: { at: 'carried', by: d.carrier } };
  }
  return { ...state, units };
}

function p1Setup(after: GState, side: SideId, orders: readonly JsonObject[]): Violation[] {
  const out: Violation[] = [];
  const { options, setup } = gatorsData(after.scenario);
  const only = airOps(after.scenario).onlyShips;
  orders.forEach((o, i) => {
    if (o['kind'] === 'place') out.push(violation('GT-4.14', 'setup/ships_later', 'P1 places its ships after P2 has set up', i));
  });
  for (const ship of allUnits(after).filter((u) => u.side === side && isShip(after, u))) {
    const aboard = allUnits(after).filter((u) => u.loc.at === 'carried' && u.loc.by === ship.id);
    for (const u of aboard)
      for (const r of only.filter((x) => tagged(after, u, ...x.unit) && !tagged(after, ship, ...x.ship)))
        out.push(unitViolation(r.ruleId, 'setup/lhd_only', `${u.id} may not start on ${ship.id}`, u.id));
    if (tagged(after, ship, ...setup.mainShipTags)) continue;
    const assigned = aboard.filter((u) => tagged(after, u, ...setup.assignTags));
    if (assigned.length > options.helicoptersPerOtherShip)
      out.push(violation('Q-GT-13', 'setup/too_many_helicopters', `${assigned.length} helicopters on ${ship.id}, at most ${options.helicoptersPerOtherShip}`, null));
    for (const u of aboard.filter((x) => tagged(after, x, ...setup.armedOffMainShipTags)))
      if ((notesOf(after, side).loadouts?.[u.id] ?? []).length === 0)
        out.push(unitViolation('GT-4.11', 'setup/unarmed_helicopter', `${u.id} on ${ship.id} must be armed at setup`, u.id));
  }
  return out;
}

export const setupP1: GatorsFeature = {
  id: 'setup-p1',
  rules: ['GT-4.10', 'GT-4.11', 'GT-4.12', 'GT-4.13', 'Q-GT-12', 'Q-GT-13', 'GT-2.38'],
  phases: {
    setup: {
      orders: () => [
        assignOrder(),
        // GT-4.12: making up loads aboard a ship (cargo and carrier on the same ship; not into the ship itself).
        withChecks(loadOrder<GatorsExt>(), (state, _side, o, i) => {
          const c = state.units[o.carrier];
          return c !== undefined && isShip(state, c) ? [violation('GT-4.10', 'setup/ship_lists', 'the ships carry what GT-4.10 lists; load into craft and aircraft aboard', i)] : [];
        }),
      ],
      validateSubmission: (_before, after, side, orders) => (side === gatorsData(after.scenario).options.landingSide ? p1Setup(after, side, orders) : []),
    },
  },
};
