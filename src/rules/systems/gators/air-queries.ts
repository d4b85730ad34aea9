import { GameState, UnitState } from '../../model/state';
import { boardOf, hasOverlay, isOnMap, terrainIdAt } from '../../engine/board';
import { allUnits, cargoOf, hasTag, typeOf } from '../../engine/queries';
import { SideId } from '../../engine/types';
import { airOps } from './air-data';
import { gatorsData } from './data';
import { gext, notesOf } from './ext';
import { loadoutFor } from './features/loadouts';
import { isAircraft, isShip, tagged } from './queries';

/** Reads of the state shared by the air-operations features (GT-5.3–5.4, GT-6B, GT-6N, GT-6P, GT-7G, GT-7H). */

export function landingSide(state: GameState): SideId {
  return gatorsData(state.scenario).options.landingSide;
}

/** A number from units.json `values` (launchSlots, refuelMarkers), or the fallback. */
export function typeValue(state: GameState, u: UnitState, key: string, fallback: number): number {
  const v = typeOf(state, u).values[key];
  return typeof v === 'number' ? v : fallback;
}

export function hasAnyTag(state: GameState, u: UnitState, tags: readonly string[]): boolean {
  return hasTag(typeOf(state, u), tags);
}

/**
 * The Air-Attack markers a unit carries (GT-6B.2), from its owner's notes. A
 * type whose loadout is never reloaded (the Missile Boat's SSM, GT-2.45)
 * starts with it: there is no arming for it to miss.
 */
export function markersOf(state: GameState, u: UnitState): readonly string[] {
  const noted = notesOf(state, u.side).loadouts?.[u.id];
  if (noted !== undefined) return noted;
  const lo = loadoutFor(state, u.type);
  return lo !== undefined && !lo.reloadable ? lo.slots.map((s) => s[0]!) : [];
}

/** The hex index a unit stands in (itself, not carried), or -1. */
export function standingAt(state: GameState, u: UnitState): number {
  return u.loc.at === 'hex' ? boardOf(state.scenario).grid.indexOf(u.loc.hex) : -1;
}

/** GT-5.3: a launched counter placed "off the map" stands in a grid cell outside the map until it enters. */
export function isOffMap(state: GameState, u: UnitState): boolean {
  return u.loc.at === 'hex' && !isOnMap(boardOf(state.scenario), standingAt(state, u));
}

/** The grid cells next to hex i (on the map or not). */
export function neighbourHexes(state: GameState, i: number): number[] {
  const grid = boardOf(state.scenario).grid;
  const out: number[] = [];
  for (let d = 0; d < 6; d++) {
    const n = grid.neighbour(i, d);
    if (n >= 0) out.push(n);
  }
  return out;
}

/** The airfield at hex i, if any. */
export function airfieldAt(state: GameState, i: number): { readonly id: string; readonly owner: string | undefined } | null {
  const board = boardOf(state.scenario);
  const k = i >= 0 ? board.airfieldOf[i]! : -1;
  if (k < 0) return null;
  const af = state.scenario.map.airfields[k]!;
  return { id: af.id, owner: af.owner };
}

/**
 * GT-6P, Q-GT-31, GT-6Q.4: whether hex i is an airfield `side` may use now:
 * its own that the enemy has not captured, or one it captured and activated
 * with a CH-53E; never while Debris lies on it.
 */
export function friendlyAirfield(state: GameState, side: SideId, i: number): boolean {
  const af = airfieldAt(state, i);
  if (af === null) return false;
  if (gext(state).debris.includes(boardOf(state.scenario).grid.label(i))) return false;
  const held = gext(state).airfields[af.id];
  if (held === undefined) return af.owner === side;
  return held.side === side && (held.active || af.owner === side);
}

/** A ship that hands out Air-Attack markers (units.json values.rearms: the LHD, GT-6B.4). */
export function isRearmShip(state: GameState, u: UnitState): boolean {
  return isShip(state, u) && typeOf(state, u).values['rearms'] === true;
}

/** GT-6B.4: may take new markers here — aboard the LHD, or on a friendly usable airfield. */
export function mayRearm(state: GameState, u: UnitState): boolean {
  if (u.loc.at === 'carried') {
    const c = state.units[u.loc.by];
    return c !== undefined && isRearmShip(state, c);
  }
  return friendlyAirfield(state, u.side, standingAt(state, u));
}

/**
 * GT-6B.5, Q-GT-19: an aircraft whose own hex is (or is next to) a friendly
 * usable airfield, or next to its side's LHD, keeps the marker it fires.
 */
export function quickRearm(state: GameState, u: UnitState): boolean {
  const at = standingAt(state, u);
  if (at < 0 || !isAircraft(state, u)) return false;
  const grid = boardOf(state.scenario).grid;
  if (friendlyAirfield(state, u.side, at) || neighbourHexes(state, at).some((n) => friendlyAirfield(state, u.side, n))) return true;
  return allUnits(state).some((s) => s.side === u.side && isRearmShip(state, s) && s.loc.at === 'hex' && grid.distance(grid.indexOf(s.loc.hex), at) === 1);
}

export interface HersPoint {
  readonly hers: UnitState;
  readonly carrier: UnitState;
  readonly hex: string;
  readonly index: number;
}

const pointCache = new WeakMap<GameState['units'], Map<SideId, HersPoint[]>>();

/**
 * GT-6N.1, Q-GT-29: the side's HERS that are ashore, each still loaded in its
 * CH-53E on a beach or open hex. Cached per units record (states never change),
 * because the ZOC veto of landed aircraft asks for them during move searches.
 */
export function hersPoints(state: GameState, side: SideId): HersPoint[] {
  let bySide = pointCache.get(state.units);
  if (bySide === undefined) pointCache.set(state.units, (bySide = new Map()));
  let points = bySide.get(side);
  if (points === undefined) bySide.set(side, (points = findHersPoints(state, side)));
  return points;
}

function findHersPoints(state: GameState, side: SideId): HersPoint[] {
  const d = airOps(state.scenario);
  const board = boardOf(state.scenario);
  const out: HersPoint[] = [];
  for (const h of allUnits(state)) {
    if (h.side !== side || h.loc.at !== 'carried' || !hasAnyTag(state, h, d.hersTags)) continue;
    const c = state.units[h.loc.by];
    if (c === undefined || c.loc.at !== 'hex' || !hasAnyTag(state, c, d.hersCarrierTags)) continue;
    const i = board.grid.indexOf(c.loc.hex);
    if (hersGround(state, i)) out.push({ hers: h, carrier: c, hex: c.loc.hex, index: i });
  }
  return out;
}

/** GT-6N.1, Q-GT-29: hex i is one where a HERS in its CH-53E is ashore: a beach or open hex, not under a city. */
export function hersGround(state: GameState, i: number): boolean {
  const d = airOps(state.scenario);
  const board = boardOf(state.scenario);
  const t = i < 0 ? null : terrainIdAt(board, i);
  return t !== null && d.hersTerrain.includes(t) && !d.hersNotInOverlays.some((o) => hasOverlay(board, i, o));
}

/** Refuel markers a HERS or LVS holds now (GT-6N.3, GT-6N.4): ext.refuel, or full (units.json values.refuelMarkers). */
export function refuelLeft(state: GameState, u: UnitState): number {
  return gext(state).refuel[u.id] ?? typeValue(state, u, 'refuelMarkers', 0);
}

/**
 * GT-7H.1, Q-GT-41, Q-GT-29: an aircraft counts as landed on its side's
 * usable airfield, in the capital when the scenario says so (Q-GT-46), as the
 * CH-53E holding a HERS ashore (empty or not), or next to its side's
 * functioning HERS (besideHers) when it carries no markers and no cargo.
 * Markers and cargo are secret: planning for the enemy (`knownTo`) never
 * counts the last case, so options do not tell what the aircraft carries.
 */
export function isLanded(state: GameState, u: UnitState, knownTo: SideId | null = null): boolean {
  // The tag first: this is every ZOC's veto, and most units are not aircraft (a label lookup saved).
  if (!isAircraft(state, u)) return false;
  const at = standingAt(state, u);
  if (at < 0) return false;
  if (friendlyAirfield(state, u.side, at) || landedInCapital(state, u, at)) return true;
  const points = hersPoints(state, u.side);
  if (points.some((p) => p.carrier.id === u.id)) return true;
  if (knownTo !== null && knownTo !== u.side) return false;
  return besideHers(state, u) && markersOf(state, u).length === 0 && cargoOf(state, u.id).length === 0;
}

/** Q-GT-46: the types of airOps.landedInCapital count as landed where they stand in a capital hex, whatever they carry. */
function landedInCapital(state: GameState, u: UnitState, at: number): boolean {
  const tags = airOps(state.scenario).landedInCapital;
  if (tags.length === 0 || !hasAnyTag(state, u, tags)) return false;
  const city = boardOf(state.scenario).cityOf[at]!;
  return city >= 0 && state.scenario.map.cities[city]!.capital;
}

/**
 * Next to its side's functioning HERS: landed or not by its secret markers and cargo (isLanded), a
 * question only its owner can answer. Functioning = ashore with a Refuel marker, as for returning
 * to it (Q-GT-20): an empty one refuels nobody (Q-GT-29). Its markers are public while it is ashore.
 */
export function besideHers(state: GameState, u: UnitState): boolean {
  const at = standingAt(state, u);
  if (at < 0 || !isAircraft(state, u)) return false;
  const grid = boardOf(state.scenario).grid;
  return hersPoints(state, u.side).some((p) => grid.distance(p.index, at) === 1 && refuelLeft(state, p.hers) > 0);
}

export function isFuelled(state: GameState, u: UnitState): boolean {
  return u.side === landingSide(state) && tagged(state, u, ...airOps(state.scenario).fuelTags);
}

/** The state with a side's loadout of one unit replaced (its notes: secret, GT-6C.2). */
export function withLoadout<S extends GameState>(state: S, side: SideId, unit: string, markers: readonly string[]): S {
  const s = state.sides[side]!;
  const loadouts = { ...(notesOf(state, side).loadouts ?? {}), [unit]: [...markers] };
  return { ...state, sides: { ...state.sides, [side]: { ...s, secret: { ...s.secret, notes: { ...s.secret.notes, loadouts } } } } };
}

/** `markers` without `count` of `marker`. */
export function withoutMarkers(markers: readonly string[], marker: string, count: number): string[] {
  const out = [...markers];
  for (let k = 0; k < count; k++) {
    const at = out.indexOf(marker);
    if (at >= 0) out.splice(at, 1);
  }
  return out;
}
