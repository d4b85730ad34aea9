import { z } from 'zod';
import { JsonObject } from '../../../model/json';
import { GameState } from '../../../model/state';
import { boardOf, isOnMap } from '../../../engine/board';
import { patchUnit } from '../../../engine/evolve';
import { OrderHandler } from '../../../engine/kit/types';
import { moveContexts } from '../../../engine/movement/context';
import { reachableHexes } from '../../../engine/movement/moves';
import { checkPath } from '../../../engine/movement/validate-path';
import { zeros } from '../../../engine/zoc';
import { isViolation, labelSchema, ownUnit, unitIdSchema } from '../../../engine/orders/common';
import { allUnits, flag, hexOf, unitsAt } from '../../../engine/queries';
import { INPUT_RULE, unitViolation, violation } from '../../../engine/violation';
import { SideId, Violation } from '../../../engine/types';
import { airOps } from '../air-data';
import { hasAnyTag, isOffMap, neighbourHexes, standingAt, typeValue } from '../air-queries';
import { CoreHooks, GatorsFeature } from '../feature';
import { GatorsExt, GState, gext } from '../ext';
import { isShip, isWater, publicOf } from '../queries';
import { cancel } from '../orders/wrap';
import { emitReturned } from './air-ops';
import { refillAboard } from './refuel';
import { forgetShore, noteAshore } from './hers-stays';

/**
 * GT-5.3, GT-5.4, Q-GT-16: launch and recovery. A ship launches up to its
 * launch slots (6) per turn — aircraft, landing craft and amphibians (the SEAL
 * straight into the sea, GT-2.16) — each into a free adjacent hex it could
 * enter, or, when the ship is at the edge and it fits in none of those, into
 * an adjacent cell off the map (its first move must then enter the map).
 * Amphibians (the LCAC and the SEAL among them) go only into water or off the
 * map, never onto land: they come ashore by moving (GT-6E, GT-7O.1). A landing
 * craft on the map launches the Zodiac it carries (GT-2.32) or a SEAL. Recovery takes aircraft,
 * landing craft and amphibians afloat next to a ship aboard it; the AV-8B only
 * aboard the LHD (GT-2.38). Launches share the ship's budget with passengers
 * that fire (passenger-fire.ts, GT-7F.3).
 */
export const launchSchema = z.strictObject({ kind: z.literal('launch'), unit: unitIdSchema, hex: labelSchema });
export type LaunchOrder = z.infer<typeof launchSchema>;
export const recoverSchema = z.strictObject({ kind: z.literal('recover'), unit: unitIdSchema, ship: unitIdSchema });
export type RecoverOrder = z.infer<typeof recoverSchema>;

/** Launch slots a ship has left this turn (GT-5.3, Q-GT-39). */
export function slotsLeft(state: GameState, ship: string): number {
  const s = state.units[ship];
  if (s === undefined) return 0;
  return typeValue(state, s, 'launchSlots', airOps(state.scenario).launchSlots) - (gext(state).launches[ship] ?? 0);
}

function checkLaunch(state: GameState, h: CoreHooks, side: SideId, o: LaunchOrder, i: number): Violation[] {
  const d = airOps(state.scenario);
  const u = ownUnit(state, side, o.unit, i);
  if (isViolation(u)) return [u];
  if (u.loc.at !== 'carried') return [violation('GT-5.3', 'launch/not_aboard', `${o.unit} is not aboard a ship or a landing craft`, i)];
  const carrier = state.units[u.loc.by]!;
  if (isShip(state, carrier)) {
    if (!hasAnyTag(state, u, d.launchable)) return [violation('Q-GT-16', 'launch/not_launchable', `${o.unit} leaves a ship only as cargo of a launched transport`, i)];
    if (slotsLeft(state, carrier.id) <= 0) return [violation('GT-5.3', 'launch/no_slots', `${carrier.id} has no launches left this turn`, i)];
  } else {
    const rule = d.craftLaunch.find((r) => hasAnyTag(state, u, r.unit) && hasAnyTag(state, carrier, r.from));
    if (rule === undefined) return [violation('Q-GT-16', 'launch/not_from_here', `${o.unit} may not be launched from ${carrier.id}`, i)];
    if (carrier.loc.at !== 'hex' || isOffMap(state, carrier)) return [violation(rule.ruleId, 'launch/craft_not_on_map', `${carrier.id} must be on the map to launch`, i)];
  }
  const from = hexOf(state, carrier);
  const board = boardOf(state.scenario);
  const to = board.grid.indexOf(o.hex);
  if (from === null) return [violation('GT-5.3', 'launch/carrier_not_on_map', `${carrier.id} is not on the map`, i)];
  if (to < 0) return [violation(INPUT_RULE, 'input/bad_hex', `${o.hex} is not a hex of the board`, i)];
  if (board.grid.distance(board.grid.indexOf(from), to) !== 1) return [violation('GT-5.3', 'launch/not_adjacent', `${o.hex} is not next to ${carrier.id}`, i)];
  if (unitsAt(state, o.hex).length > 0) return [violation('Q-GT-22', 'launch/not_free', `${o.hex} is not a free hex`, i)];
  if (!isOnMap(board, to)) {
    const entry = mapEntryFrom(state, h, side, o, to, i);
    return entry.length > 0 ? entry : roomOnMap(state, h, side, o, carrier.id, from, i);
  }
  // An amphibian put on land would skip coming ashore: the waterline (GT-6E) and anti-landing fire (GT-7O.1).
  const afloat = d.launchAfloat.find((r) => hasAnyTag(state, u, r.unit));
  if (afloat !== undefined && !isWater(board, to))
    return [violation(afloat.ruleId, 'launch/not_afloat', `${o.unit} is launched only into the water (or off the map), not onto land at ${o.hex}: it comes ashore by moving`, i)];
  // "A hex it could enter": a launch places the counter, so it leaves no zone of control (GT-6C.3)
  // however close an enemy is to the ship.
  const contexts = moveContexts(state, u.id, { knownTo: side, hooks: h.move, from });
  const checks = contexts.map((c) => checkPath({ ...c, zoc: zeros(c.board) }, [to]));
  if (checks.some((c) => c.ok)) {
    // Placed there, it ends there as a move would (Q-GT-22): the system's end rules, each with the move's own code (the HERS set ashore on Debris, GT-6Q.3).
    const end = h.move.endProblem?.(state, [u], to) ?? null;
    return end === null ? [] : [violation(end.ruleId, end.code, end.message, i)];
  }
  const p = checks.find((c) => !c.ok);
  return [violation('GT-5.3', 'launch/cannot_enter', `${o.unit} cannot be placed in ${o.hex}${p && !p.ok ? `: ${p.problem.message}` : ''}`, i)];
}

/**
 * AIR-01: a cell off the map takes a launched counter only if its first move could enter the map
 * from there: an edge hex next to it whose terrain is open to it (deep water is not, to an AAV,
 * GT-3.4). What stands there now is not judged: it may have moved by the movement phase.
 */
function mapEntryFrom(state: GameState, h: CoreHooks, side: SideId, o: LaunchOrder, cell: number, i: number): Violation[] {
  const board = boardOf(state.scenario);
  const edge = [0, 1, 2, 3, 4, 5].map((d) => board.grid.neighbour(cell, d)).filter((n) => n >= 0 && isOnMap(board, n));
  const contexts = moveContexts(state, o.unit, { knownTo: side, hooks: h.move, from: o.hex });
  const open = (n: number) =>
    contexts.some((c) => {
      const p = checkPath({ ...c, zoc: zeros(c.board) }, [n]);
      return p.ok || p.problem.code !== 'movement/impassable';
    });
  return edge.some(open) ? [] : [violation('GT-5.3', 'launch/no_way_in', `${o.unit} could not enter the map from ${o.hex}: no edge hex next to it is open to it`, i)];
}

/**
 * GT-5.3 "counters that do not fit are placed off the map": a cell off the map takes a counter
 * only while no free hex next to its carrier on the map could (the same checks as a launch there).
 * Launches are placed in their order, so the counters meant for the map go first.
 */
function roomOnMap(state: GameState, h: CoreHooks, side: SideId, o: LaunchOrder, carrier: string, from: string, i: number): Violation[] {
  const board = boardOf(state.scenario);
  const room = neighbourHexes(state, board.grid.indexOf(from))
    .filter((n) => isOnMap(board, n))
    .map((n) => board.grid.label(n))
    .find((hex) => checkLaunch(state, h, side, { ...o, hex }, i).length === 0);
  if (room === undefined) return [];
  return [violation('GT-5.3', 'launch/room_on_map', `${o.unit} fits in ${room} next to ${carrier}: a counter is placed off the map only when it fits in no free hex on the map`, i)];
}

function launchData(state: GameState, o: LaunchOrder) {
  const u = state.units[o.unit]!;
  const carrier = u.loc.at === 'carried' ? state.units[u.loc.by]! : u;
  const off = !isOnMap(boardOf(state.scenario), boardOf(state.scenario).grid.indexOf(o.hex));
  return { unit: o.unit, from: carrier.id, hex: o.hex, ship: isShip(state, carrier) ? carrier.id : null, offMap: off };
}

function launchOrder(h: CoreHooks): OrderHandler<GatorsExt, LaunchOrder> {
  return {
    kind: 'launch',
    schema: launchSchema,
    validate: (state, side, o, i) => checkLaunch(state, h, side, o, i),
    project: (state, _side, o) => [{ type: 'UnitLaunched', data: launchData(state, o) }],
    optionOrder: (unit, x) => (x.action === 'launch' ? { kind: 'launch', unit, hex: (x.detail as { hex: string }).hex } : null),
    resolve: (ctx, o, i) => {
      const v = checkLaunch(ctx.state, h, ctx.side, o, i);
      if (v.length > 0) return cancel(ctx, i, 'launch', v[0]!);
      ctx.emit(publicOf('UnitLaunched', launchData(ctx.state, o)));
      // GT-6N.1: a CH-53E launched onto a beach has taken its HERS ashore there.
      noteAshore(ctx, o.unit, [o.hex]);
    },
    // The hexes this unit may be launched into now (the same checks as validation).
    options: (state, side, unitId) => {
      const u = state.units[unitId];
      const carrier = u?.loc.at === 'carried' ? state.units[u.loc.by] : undefined;
      const from = carrier === undefined ? null : hexOf(state, carrier);
      if (from === null) return {};
      const grid = boardOf(state.scenario).grid;
      const other = neighbourHexes(state, grid.indexOf(from))
        .map((n) => grid.label(n))
        .filter((hex) => checkLaunch(state, h, side, { kind: 'launch', unit: unitId, hex }, 0).length === 0)
        .map((hex) => ({ action: 'launch', detail: { hex } }));
      return other.length > 0 ? { other } : {};
    },
  };
}

function checkRecover(state: GameState, side: SideId, o: RecoverOrder, i: number): Violation[] {
  const d = airOps(state.scenario);
  const u = ownUnit(state, side, o.unit, i);
  if (isViolation(u)) return [u];
  const ship = ownUnit(state, side, o.ship, i);
  if (isViolation(ship)) return [ship];
  if (!isShip(state, ship) || ship.loc.at !== 'hex') return [violation('GT-5.4', 'recovery/not_a_ship', `${o.ship} is not a ship on the map`, i)];
  const at = standingAt(state, u);
  const board = boardOf(state.scenario);
  if (at < 0) return [violation('GT-5.4', 'recovery/not_on_map', `${o.unit} is not standing on the map`, i)];
  if (board.grid.distance(at, board.grid.indexOf(ship.loc.hex)) !== 1) return [violation('GT-5.4', 'recovery/not_adjacent', `${o.unit} is not next to ${o.ship}`, i)];
  const anywhere = d.recoverable.filter((t) => !d.recoverAfloat.includes(t));
  if (!hasAnyTag(state, u, anywhere) && !(hasAnyTag(state, u, d.recoverAfloat) && isWater(board, at)))
    return [violation('Q-GT-16', 'recovery/not_recoverable', `${o.unit} cannot be recovered (aircraft, landing craft and amphibians afloat only)`, i)];
  const only = d.onlyShips.find((r) => hasAnyTag(state, u, r.unit) && !hasAnyTag(state, ship, r.ship));
  if (only !== undefined) return [violation(only.ruleId, 'recovery/wrong_ship', `${o.unit} may land only on a ${only.ship.join('/')}`, i)];
  return [];
}

function recoverOrder(): OrderHandler<GatorsExt, RecoverOrder> {
  return {
    kind: 'recover',
    schema: recoverSchema,
    validate: checkRecover,
    project: (_s, _side, o) => [{ type: 'UnitRecovered', data: { unit: o.unit, ship: o.ship } }],
    optionOrder: (unit, x) => (x.action === 'recover' ? { kind: 'recover', unit, ship: (x.detail as { ship: string }).ship } : null),
    options: (state, side, unitId) => {
      const ships = Object.values(state.units).filter((x) => x.side === side && isShip(state, x) && x.loc.at === 'hex');
      const other = ships
        .filter((x) => checkRecover(state, side, { kind: 'recover', unit: unitId, ship: x.id }, 0).length === 0)
        .map((x) => ({ action: 'recover', detail: { ship: x.id } }));
      return other.length > 0 ? { other } : {};
    },
    resolve: (ctx, o, i) => {
      const v = checkRecover(ctx.state, ctx.side, o, i);
      if (v.length > 0) return cancel(ctx, i, 'recover', v[0]!);
      ctx.emit(publicOf('UnitRecovered', { unit: o.unit, ship: o.ship }));
      // Q-GT-20: a recovered aircraft has returned; GT-6N.4: a HERS or LVS brought back aboard is refilled.
      emitReturned(ctx, o.unit, 'recovered');
      refillAboard(ctx, o.unit);
    },
  };
}

/**
 * GT-5.3, AIR-01: no counter may end P1's movement phase off the map while it could enter it after
 * the phase's other orders, as a move of its own would. One with no way onto the map (each edge
 * hex next to it closed to it: deep water to an AAV, a hex full or held by the enemy, as the side
 * knows them) may wait there, for a later phase or a recovery: refusing it would leave the side no
 * movement phase the rules accept, and the game stuck.
 */
function offMapLeft(after: GState, side: SideId, h: CoreHooks): Violation[] {
  const board = boardOf(after.scenario);
  const canEnter = (unit: string) => reachableHexes(after, unit, { knownTo: side, hooks: h.move }).some((m) => isOnMap(board, board.grid.indexOf(m.hex)));
  // The indexed list (record order, as Object.values gives it): no list made of every unit per submission.
  return allUnits(after)
    .filter((u) => u.side === side && isOffMap(after, u) && (flag(u, 'moved') || canEnter(u.id)))
    .map((u) => unitViolation('GT-5.3', 'launch/off_map_end', `${u.id} was launched off the map and must enter it this phase`, u.id));
}

function launched(state: GState, data: unknown): GState {
  const d = data as { unit: string; hex: string; ship: string | null };
  const out = patchUnit(state, d.unit, (u) => ({ ...u, loc: { at: 'hex', hex: d.hex }, flags: { ...u.flags, launched: true } }));
  if (d.ship === null) return out;
  const ext = gext(out);
  return { ...out, ext: { ...ext, launches: { ...ext.launches, [d.ship]: (ext.launches[d.ship] ?? 0) + 1 } } };
}

function recovered(state: GState, data: unknown): GState {
  const d = data as { unit: string; ship: string };
  const out = patchUnit(state, d.unit, (u) => ({ ...u, loc: { at: 'carried', by: d.ship }, flags: { ...u.flags, recovered: true } }));
  return forgetShore(out, d.unit);
}

export const launchRecovery: GatorsFeature = {
  id: 'launch-recovery',
  rules: ['GT-5.3', 'GT-5.4', 'Q-GT-16', 'GT-2.16', 'GT-2.32', 'GT-2.38'],
  phases: {
    launch: {
      orders: (h) => [launchOrder(h)],
      // A new turn: every ship has its launches again (GT-5.3).
      onEnter: (ctx) => {
        if (Object.keys(gext(ctx.state).launches).length > 0) ctx.emit(publicOf('LaunchesReset', {}));
      },
    },
    recovery: { orders: () => [recoverOrder()] },
    movement: { validateSubmission: (_before, after, side: SideId, _orders: readonly JsonObject[], h) => offMapLeft(after, side, h) },
  },
  odds: {
    attackerProblem: (state, u, i) => (isOffMap(state, u) ? violation('GT-5.3', 'combat/off_map', `${u.id} is off the map`, i) : null),
  },
  events: {
    UnitLaunched: (s, e) => launched(s, e.data),
    UnitRecovered: (s, e) => recovered(s, e.data),
    LaunchesReset: (s) => ({ ...s, ext: { ...gext(s), launches: {} } }),
  },
};
