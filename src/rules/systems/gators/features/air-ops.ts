import { JsonObject } from '../../../model/json';
import { GameState } from '../../../model/state';
import { boardOf } from '../../../engine/board';
import { patchUnit } from '../../../engine/evolve';
import { ResolveContext } from '../../../engine/kit/types';
import { violation } from '../../../engine/violation';
import { SideId, Violation } from '../../../engine/types';
import { friendlyAirfield, landingSide, markersOf, mayRearm, standingAt, withLoadout, withoutMarkers } from '../air-queries';
import { GatorsFeature } from '../feature';
import { GatorsExt, GState } from '../ext';
import { isAircraft, publicOf } from '../queries';
import { withChecks } from '../orders/wrap';
import { ArmOrder, armOrder, loadoutFor } from './loadouts';
import { strikeOrder } from './air-strike';
import { refuelAircraft } from './refuel';

/**
 * Aircraft in play (GT-6B, GT-7C, Q-GT-18, Q-GT-19, Q-GT-20, Q-GT-37):
 * marker attacks (air-strike.ts); the duty to return after using a marker or
 * unloading cargo — until then no attack and no cargo (GT-6B.3); returning
 * (P1: recovered aboard a ship, or ending a move next to a HERS with fuel, or
 * on an activated captured airfield; P2: ending a move on a usable airfield);
 * re-arming only aboard the LHD or on a friendly airfield (GT-6B.4, GT-4.11),
 * never the Missile Boat's SSM (GT-7C.7). Gun attacks are the ordinary
 * "attack" with the units.json strength, once per phase (Q-GT-33, Q-GT-37).
 */
export const MUST_RETURN = 'mustReturn';

/** Q-GT-20: the aircraft has returned (recovered, airfield, HERS); nothing happens if it did not have to. */
export function emitReturned(ctx: ResolveContext<GatorsExt>, unit: string, how: string, at?: string): void {
  const u = ctx.state.units[unit];
  if (u === undefined || u.attrs[MUST_RETURN] !== true) return;
  ctx.emit(publicOf('AircraftReturned', { unit, how, ...(at === undefined ? {} : { at }) }));
}

function rearmCheck(state: GameState, _side: SideId, o: ArmOrder, i: number): Violation[] {
  const u = state.units[o.unit];
  if (u === undefined) return [];
  const lo = loadoutFor(state, u.type);
  if (lo !== undefined && !lo.reloadable) return [violation('GT-7C.7', 'air/not_reloadable', `${o.unit}'s markers are never reloaded`, i)];
  if (!mayRearm(state, u)) return [violation('GT-6B.4', 'air/no_rearm_here', `${o.unit} may take markers only aboard the LHD or on a friendly airfield`, i)];
  return [];
}

/** Arming in play: the setup order behind rearmCheck. */
const rearmOrder = () => withChecks(armOrder(), rearmCheck);

/**
 * GT-6B.3: an aircraft that must return may not take cargo (nor cargo that it unloads in this same
 * submission), whether by a load or by a squad of a split boarding it (squad-split.ts).
 */
function cargoWhileReturning(before: GState, orders: readonly JsonObject[]): Violation[] {
  const out: Violation[] = [];
  const emptied = new Set<string>();
  orders.forEach((o, i) => {
    const unit = before.units[String(o['unit'])];
    if (o['kind'] === 'unload' && unit?.loc.at === 'carried') emptied.add(unit.loc.by);
    for (const id of new Set(carriersLoaded(o))) {
      const c = before.units[id];
      if (c !== undefined && isAircraft(before, c) && (c.attrs[MUST_RETURN] === true || emptied.has(c.id)))
        out.push(violation('GT-6B.3', 'air/must_return', `${c.id} must return before it carries cargo again`, i));
    }
  });
  return out;
}

/** The transports a movement-phase order puts cargo into. */
function carriersLoaded(o: JsonObject): string[] {
  if (o['kind'] === 'load') return [String(o['carrier'])];
  if (o['kind'] !== 'split' || !Array.isArray(o['to'])) return [];
  return o['to'].flatMap((p) => (p !== null && typeof p === 'object' && !Array.isArray(p) && typeof p['carrier'] === 'string' ? [p['carrier']] : []));
}

function markersUsed(state: GState, data: unknown): GState {
  const d = data as { side: string; unit: string; marker: string; count: number; kept: boolean; mustReturn: boolean };
  const s = patchUnit(state, d.unit, (u) => ({ ...u, flags: { ...u.flags, markerAttack: true }, attrs: d.mustReturn ? { ...u.attrs, [MUST_RETURN]: true } : u.attrs }));
  return d.kept ? s : withLoadout(s, d.side, d.unit, withoutMarkers(markersOf(s, s.units[d.unit]!), d.marker, d.count));
}

function setReturn(state: GState, unit: string, on: boolean): GState {
  return patchUnit(state, unit, (u) => {
    const { [MUST_RETURN]: _drop, ...rest } = u.attrs;
    return { ...u, attrs: on ? { ...rest, [MUST_RETURN]: true } : rest };
  });
}

export const airOpsFeature: GatorsFeature = {
  id: 'air-ops',
  rules: ['GT-6B.2', 'GT-6B.3', 'GT-6B.4', 'GT-6B.5', 'Q-GT-18', 'Q-GT-19', 'Q-GT-20', 'GT-7C.3', 'GT-7C.4', 'GT-7C.5', 'GT-7C.7', 'GT-2.45', 'Q-GT-37', 'Q-GT-53'],
  phases: {
    combat: { orders: (h) => [strikeOrder(h)] },
    launch: { orders: () => [rearmOrder()] },
    recovery: { orders: () => [rearmOrder()] },
    movement: { orders: () => [rearmOrder()], validateSubmission: (before, _after, _side, orders) => cargoWhileReturning(before, orders) },
    guerrillas: { orders: () => [rearmOrder()] },
  },
  odds: {
    attackerProblem: (_state, u, i) => (u.attrs[MUST_RETURN] === true ? violation('GT-6B.3', 'air/must_return', `${u.id} must return to refuel and re-arm before it attacks again`, i) : null),
  },
  afterMove: () => (ctx, moved, resume) => {
    if (resume !== undefined) return;
    for (const id of [moved.unit, ...moved.with]) {
      const u = ctx.state.units[id];
      if (u === undefined || !isAircraft(ctx.state, u) || u.attrs[MUST_RETURN] !== true) continue;
      const at = standingAt(ctx.state, u);
      if (friendlyAirfield(ctx.state, u.side, at)) emitReturned(ctx, id, 'airfield', boardOf(ctx.state.scenario).grid.label(at));
      else if (u.side === landingSide(ctx.state) && refuelAircraft(ctx, u)) emitReturned(ctx, id, 'hers');
    }
  },
  afterUnload: () => (ctx, info, resume) => {
    if (resume !== undefined) return;
    const c = ctx.state.units[info.carrier];
    if (c !== undefined && isAircraft(ctx.state, c) && c.attrs[MUST_RETURN] !== true)
      ctx.emit(publicOf('AircraftMustReturn', { unit: c.id, cause: 'unloaded' }));
  },
  events: {
    AirAttackMarkersUsed: (s, e) => markersUsed(s, e.data),
    AircraftReturned: (s, e) => setReturn(s, (e.data as { unit: string }).unit, false),
    AircraftMustReturn: (s, e) => setReturn(s, (e.data as { unit: string }).unit, true),
  },
};
