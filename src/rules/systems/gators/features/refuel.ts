import { z } from 'zod';
import { JsonObject } from '../../../model/json';
import { GameState, UnitState } from '../../../model/state';
import { boardOf } from '../../../engine/board';
import { patchUnit } from '../../../engine/evolve';
import { OrderHandler, ResolveContext } from '../../../engine/kit/types';
import { isViolation, ownUnit, unitIdSchema } from '../../../engine/orders/common';
import { allUnits, everythingAboard } from '../../../engine/queries';
import { violation } from '../../../engine/violation';
import { SideId, Viewer, Violation } from '../../../engine/types';
import { EventBody } from '../../../engine/events';
import { concealedFrom } from '../../../engine/visibility';
import { airOps } from '../air-data';
import { HersPoint, hasAnyTag, hersPoints, isFuelled, refuelLeft, standingAt, typeValue } from '../air-queries';
import { GatorsFeature } from '../feature';
import { GatorsExt, GState, gext } from '../ext';
import { privateTo, publicOf } from '../queries';
import { cancel } from '../orders/wrap';
import { explodeIfHers, resumeExplosion } from './hers-explosion';
import { HERS_TAKEN_ASHORE, hersStays, moveShoreHexes, noteAshore, shoreNotes, takenAshore, withoutShore } from './hers-stays';

/**
 * GT-6N, Q-GT-29: the HERS and fuel. The HERS goes ashore in its CH-53E and
 * stays loaded; the pair on a beach or open hex is one refuelling point (it
 * counts as landed, landed-aircraft.ts). Each refuelling takes one of its
 * Refuel markers (ext.refuel): an aircraft that must return refuels by ending
 * its move next to it (GT-6N.2), and each 1–2 P1 tanks moving take one per
 * move (pairs per turn, rounding up). Tanks move only while a HERS ashore has
 * an LVS next to it and fuel left, except their first move (GT-6N.7); they
 * always attack and defend. Refilling: the HERS or an LVS brought back aboard
 * a ship, or an LVS next to the HERS handing over its markers (GT-6N.4); a
 * tank brought back aboard has its first move ashore free again (GT-6N.7).
 * Once ashore, the HERS is ashore again only on that hex until a ship recovers
 * it (hers-stays.ts). A destroyed HERS explodes (hers-explosion.ts, GT-6N.8).
 */
const TANK_MOVES = 'tankMoves';
const MOVED_ASHORE = 'movedAshore';

export const refillSchema = z.strictObject({ kind: z.literal('refill'), lvs: unitIdSchema, hers: unitIdSchema });
export type RefillOrder = z.infer<typeof refillSchema>;

/** A HERS ashore with an LVS of its side next to it: what tanks need to move (GT-6N.5). */
function fuelPoint(state: GameState, side: SideId): HersPoint | undefined {
  const points = hersPoints(state, side);
  if (points.length === 0) return undefined;
  const grid = boardOf(state.scenario).grid;
  const lvs = allUnits(state).filter((u) => u.side === side && u.loc.at === 'hex' && hasAnyTag(state, u, airOps(state.scenario).lvsTags));
  return points.find((p) => lvs.some((l) => grid.distance(standingAt(state, l), p.index) === 1));
}

/** Whether this tank's move now takes a marker: the first of each pair this turn (Q-GT-29). */
function takesMarker(state: GameState, p: HersPoint): boolean {
  return Number(p.hers.flags[TANK_MOVES] ?? 0) % airOps(state.scenario).fuelUnitsPerMarker === 0;
}

function tankProblem(state: GameState, u: UnitState, i: number): Violation | null {
  if (!isFuelled(state, u) || u.attrs[MOVED_ASHORE] !== true) return null;
  const p = fuelPoint(state, u.side);
  if (p === undefined) return violation('GT-6N.5', 'fuel/no_supply', `${u.id} moves only while a HERS ashore has an LVS next to it`, i);
  if (takesMarker(state, p) && refuelLeft(state, p.hers) <= 0) return violation('Q-GT-29', 'fuel/empty', `${p.hers.id} has no Refuel markers left`, i);
  return null;
}

/** Q-GT-29 across a submission: the markers the tanks' moves will take, in order, after any refill before them. */
function fuelBudget(before: GState, side: SideId, orders: readonly JsonObject[]): Violation[] {
  const p = fuelPoint(before, side);
  const per = airOps(before.scenario).fuelUnitsPerMarker;
  const out: Violation[] = [];
  let left = p === undefined ? 0 : refuelLeft(before, p.hers);
  let n = p === undefined ? 0 : Number(p.hers.flags[TANK_MOVES] ?? 0);
  orders.forEach((o, i) => {
    const unit = before.units[String(o['unit'])];
    if (o['kind'] === 'unload' && unit !== undefined && hasAnyTag(before, unit, airOps(before.scenario).hersTags))
      out.push(violation('GT-6N.1', 'fuel/hers_stays_loaded', `${unit.id} stays loaded in its CH-53E`, i));
    if (p !== undefined && o['kind'] === 'refill' && o['hers'] === p.hers.id) {
      const lvs = before.units[String(o['lvs'])];
      if (lvs !== undefined) left = Math.min(typeValue(before, p.hers, 'refuelMarkers', 0), left + refuelLeft(before, lvs));
    }
    if (p === undefined || o['kind'] !== 'move') return;
    const ids = [String(o['unit']), ...(Array.isArray(o['with']) ? o['with'].map(String) : [])];
    for (const id of ids) {
      const u = before.units[id];
      // A move the tank may not make at all is reported by its own check (tankProblem).
      if (u === undefined || !isFuelled(before, u) || u.attrs[MOVED_ASHORE] !== true || tankProblem(before, u, i) !== null) continue;
      if (n % per === 0) {
        if (left <= 0) out.push(violation('Q-GT-29', 'fuel/empty', `no Refuel marker is left for ${id}'s move`, i));
        left--;
      }
      n++;
    }
  });
  return out;
}

/** GT-6N.2: an aircraft next to a HERS with fuel refuels there (one marker); whether it did. */
export function refuelAircraft(ctx: ResolveContext<GatorsExt>, u: UnitState): boolean {
  const grid = boardOf(ctx.state.scenario).grid;
  const at = standingAt(ctx.state, u);
  const p = hersPoints(ctx.state, u.side).find((x) => grid.distance(x.index, at) === 1 && refuelLeft(ctx.state, x.hers) > 0);
  if (p === undefined) return false;
  ctx.emit(publicOf('FuelDrawn', { hers: p.hers.id, unit: u.id, markers: 1, tank: false }));
  return true;
}

/**
 * GT-6N.4: a HERS or LVS back aboard a ship (with the unit just recovered) is full again. So is a
 * tank (GT-6N.7: "they come off the ship with full tanks"): its next move ashore is free again.
 * One hidden from another side (cargo aboard the ship) is refilled as its side's own record of the
 * recovery: a public event would tell the others it was aboard, and an event only its side reads
 * would still be counted, so it goes into the run's SecretOrdersApplied (own-records.ts).
 */
export function refillAboard(ctx: ResolveContext<GatorsExt>, unit: string): void {
  const d = airOps(ctx.state.scenario);
  const u = ctx.state.units[unit];
  if (u === undefined) return;
  for (const x of [u, ...everythingAboard(ctx.state, unit)]) {
    const depot = hasAnyTag(ctx.state, x, [...d.hersTags, ...d.lvsTags]) && gext(ctx.state).refuel[x.id] !== undefined;
    const tank = isFuelled(ctx.state, x) && x.attrs[MOVED_ASHORE] === true;
    if (!depot && !tank) continue;
    const data = { unit: x.id };
    ctx.emit(concealedFrom(ctx.state, x).length > 0 ? privateTo(x.side, 'RefuelRefilled', data) : publicOf('RefuelRefilled', data));
  }
}

/**
 * The Refuel markers a viewer may see: those of the units not concealed from it. ext.refuel is
 * public for a HERS or LVS in sight (Q-GT-29), but a concealed one's entry would tell that it
 * exists, and its refill that it was aboard. The test is kernelView's for its units list, so an
 * entry shows exactly while its unit does and tells nothing the list does not: it goes when the
 * unit goes out of sight (its CH-53E leaves the beach, an LVS is loaded) and comes back with it,
 * at events the viewer reads either way.
 */
function refuelSeenBy(state: GState, viewer: Viewer): { readonly [unit: string]: number } {
  if (viewer.kind === 'referee') return gext(state).refuel;
  const seen = (id: string) => {
    const u = state.units[id];
    // Units stay in the state when eliminated (loc "eliminated"); an unknown id hides nothing.
    if (u === undefined) return true;
    const from = concealedFrom(state, u);
    return viewer.kind === 'side' ? !from.includes(viewer.side) : from.length === 0;
  };
  return Object.fromEntries(Object.entries(gext(state).refuel).filter(([id]) => seen(id)));
}

function checkRefill(state: GameState, side: SideId, o: RefillOrder, i: number): Violation[] {
  const d = airOps(state.scenario);
  const lvs = ownUnit(state, side, o.lvs, i);
  if (isViolation(lvs)) return [lvs];
  if (!hasAnyTag(state, lvs, d.lvsTags) || lvs.loc.at !== 'hex') return [violation('GT-6N.4', 'fuel/not_lvs', `${o.lvs} is not an LVS on the map`, i)];
  const p = hersPoints(state, side).find((x) => x.hers.id === o.hers);
  if (p === undefined) return [violation('GT-6N.4', 'fuel/hers_not_ashore', `${o.hers} is not ashore in its CH-53E`, i)];
  if (boardOf(state.scenario).grid.distance(standingAt(state, lvs), p.index) !== 1) return [violation('GT-6N.4', 'fuel/not_adjacent', `${o.lvs} is not next to ${o.hers}`, i)];
  if (refuelLeft(state, lvs) <= 0) return [violation('GT-6N.4', 'fuel/lvs_empty', `${o.lvs} has no Refuel markers`, i)];
  if (refuelLeft(state, p.hers) >= typeValue(state, p.hers, 'refuelMarkers', 0)) return [violation('GT-6N.4', 'fuel/hers_full', `${o.hers} is full`, i)];
  return [];
}

function refillData(state: GameState, o: RefillOrder) {
  const hers = state.units[o.hers]!;
  const room = typeValue(state, hers, 'refuelMarkers', 0) - refuelLeft(state, hers);
  return { lvs: o.lvs, hers: o.hers, markers: Math.min(room, refuelLeft(state, state.units[o.lvs]!)) };
}

function refillOrder(): OrderHandler<GatorsExt, RefillOrder> {
  return {
    kind: 'refill',
    schema: refillSchema,
    validate: checkRefill,
    project: (state, _side, o) => [{ type: 'RefuelTransferred', data: refillData(state, o) }],
    optionOrder: (lvs, x) => (x.action === 'refill' ? { kind: 'refill', lvs, hers: (x.detail as { hers: string }).hers } : null),
    // The HERS this LVS may refill now, by the same checks as validation.
    options: (state, side, unitId) => {
      const other = hersPoints(state, side)
        .filter((p) => checkRefill(state, side, { kind: 'refill', lvs: unitId, hers: p.hers.id }, 0).length === 0)
        .map((p) => ({ action: 'refill', detail: { hers: p.hers.id } }));
      return other.length > 0 ? { other } : {};
    },
    resolve: (ctx, o, i) => {
      const v = checkRefill(ctx.state, ctx.side, o, i);
      if (v.length > 0) return cancel(ctx, i, 'refill', v[0]!);
      ctx.emit(publicOf('RefuelTransferred', refillData(ctx.state, o)));
    },
  };
}

function setRefuel(state: GState, unit: string, markers: number | null): GState {
  const ext = gext(state);
  const { [unit]: _drop, ...rest } = ext.refuel;
  return { ...state, ext: { ...ext, refuel: markers === null ? rest : { ...rest, [unit]: markers } } };
}

/** A depot's markers back to full (no entry), a tank's first move ashore free again (GT-6N.4, GT-6N.7). */
function refilled(state: GState, unit: string): GState {
  const out = setRefuel(state, unit, null);
  if (out.units[unit]?.attrs[MOVED_ASHORE] === undefined) return out;
  return patchUnit(out, unit, (u) => {
    const { [MOVED_ASHORE]: _drop, ...attrs } = u.attrs;
    return { ...u, attrs };
  });
}

function fuelDrawn(state: GState, data: unknown): GState {
  const d = data as { hers: string; markers: number; tank: boolean };
  const out = setRefuel(state, d.hers, refuelLeft(state, state.units[d.hers]!) - d.markers);
  return d.tank ? patchUnit(out, d.hers, (u) => ({ ...u, flags: { ...u.flags, [TANK_MOVES]: Number(u.flags[TANK_MOVES] ?? 0) + 1 } })) : out;
}

function transferred(state: GState, data: unknown): GState {
  const d = data as { lvs: string; hers: string; markers: number };
  const s = setRefuel(state, d.lvs, refuelLeft(state, state.units[d.lvs]!) - d.markers);
  return setRefuel(s, d.hers, refuelLeft(s, s.units[d.hers]!) + d.markers);
}

export const refuel: GatorsFeature = {
  id: 'refuel',
  rules: ['GT-6N.1', 'GT-6N.2', 'GT-6N.3', 'GT-6N.4', 'GT-6N.5', 'GT-6N.6', 'GT-6N.7', 'GT-6N.8', 'Q-GT-29', 'Q-GT-54'],
  phases: {
    movement: { orders: () => [refillOrder()], validateSubmission: (before, _after, side, orders) => fuelBudget(before, side, orders) },
  },
  move: { moveProblem: tankProblem, endProblem: hersStays },
  odds: { applyResult: explodeIfHers, resumeResult: resumeExplosion },
  // So that the submission's later orders see where the HERS went ashore (GT-6N.1).
  projectMove: (state, moved) => {
    const out: EventBody[] = [];
    for (const id of [moved.unit, ...moved.with]) for (const e of shoreNotes(state, id, moveShoreHexes(moved.path))) out.push(e);
    return out;
  },
  afterMove: () => (ctx, moved, resume) => {
    if (resume !== undefined) return;
    for (const id of [moved.unit, ...moved.with]) noteAshore(ctx, id, moveShoreHexes(moved.path));
    for (const id of [moved.unit, ...moved.with]) {
      const u = ctx.state.units[id];
      if (u === undefined || !isFuelled(ctx.state, u)) continue;
      // GT-6N.7: the first move ashore is on the tanks they came with.
      if (u.attrs[MOVED_ASHORE] !== true) {
        ctx.emit(publicOf('UnitMarked', { unit: id, attrs: { [MOVED_ASHORE]: true } }));
        continue;
      }
      const p = fuelPoint(ctx.state, u.side);
      if (p !== undefined) ctx.emit(publicOf('FuelDrawn', { hers: p.hers.id, unit: id, markers: takesMarker(ctx.state, p) ? 1 : 0, tank: true }));
    }
  },
  // Refilled aboard while hidden, it is logged at the end of the recovery run (own-records.ts).
  // No event that run may write after it reads ext.refuel when folded: a recovery phase allows
  // only recover and arm orders (UnitRecovered, AircraftReturned, AircraftArmed, OrderCancelled,
  // and another unit's RefuelRefilled, which drops only its own entry and a tank's movedAshore, read
  // only by that tank's moves, none of which a recovery run makes); a HERS aboard a ship is
  // no refuelling point (hersPoints), so nothing draws on it before the run ends.
  // HersTakenAshore (hers-stays.ts) sets only the attr that this CH-53E's own move or launch reads.
  records: ['RefuelRefilled', HERS_TAKEN_ASHORE],
  view: (state, viewer, base) => withoutShore({ ...base, ext: { ...(base.ext as JsonObject), refuel: refuelSeenBy(state, viewer) } }, viewer),
  events: {
    FuelDrawn: (s, e) => fuelDrawn(s, e.data),
    RefuelTransferred: (s, e) => transferred(s, e.data),
    RefuelRefilled: (s, e) => refilled(s, (e.data as { unit: string }).unit),
    HersExploded: (s) => s,
    [HERS_TAKEN_ASHORE]: (s, e) => takenAshore(s, e.data),
  },
};
