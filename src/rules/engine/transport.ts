import { GameState, UnitState } from '../model/state';
import { UnitType } from '../model/scenario';
import { Board, OFF_MAP, boardOf, isOnMap } from './board';
import { cargoOf, hasTag, hexOf, mediumOf, towedBy, typeOf, unitOf, allUnits } from './queries';
import { movementTables } from './movement/tables';
import { stackAt } from './stacking';
import { stackEndProblem } from './stack-end';

export interface TransportProblem {
  readonly ruleId: string;
  readonly code: string;
  readonly message: string;
}

function towerCarriesRule(state: GameState): string {
  return state.scenario.rules.towing.ruleIds['tower_carries'] ?? 'GT-6K.1';
}

function ruleOf(state: GameState, key: string, fallback = 'GT-9.3'): string {
  return state.scenario.rules.transport.ruleIds[key] ?? fallback;
}

/**
 * Whether `carrier` may hold exactly `cargo` (capacity and what it accepts,
 * GT-9.3). Only the direct cargo's own weights count: a transport carried
 * inside another brings its cargo for free (GT-6G.4).
 */
export function cargoProblem(state: GameState, carrier: UnitState, cargo: readonly UnitState[]): TransportProblem | null {
  const ct = typeOf(state, carrier);
  const t = ct.transport;
  if (t === undefined) return { ruleId: ruleOf(state, 'capacity'), code: 'transport/not_a_transport', message: `${ct.name} carries nothing` };
  if (cargo.length > 0 && !state.scenario.rules.towing.towerMayCarry && towedBy(state, carrier.id) !== undefined)
    return { ruleId: towerCarriesRule(state), code: 'transport/tower_carries', message: `${carrier.id} is towing a gun and carries nothing while it tows` };
  const types = cargo.map((u) => typeOf(state, u));
  // A carrier of unlimited capacity (a ship, Q-GT-14) is not limited by weight:
  // it carries aircraft and landing craft, which have none (GT-9.1 "-").
  const uncarriable = t.capacity === null ? undefined : types.find((x) => x.weight === undefined);
  if (uncarriable !== undefined)
    return { ruleId: ruleOf(state, 'capacity'), code: 'transport/not_carriable', message: `${uncarriable.name} cannot be carried` };
  for (const a of t.allowances) if (types.every((x) => hasTag(x, a.cargo)) && types.length <= a.maxUnits) return null;
  if (t.accepts !== undefined) {
    const refused = types.find((x) => !hasTag(x, t.accepts!));
    if (refused !== undefined)
      return { ruleId: ruleOf(state, 'accepts'), code: 'transport/not_accepted', message: `${ct.name} may carry only ${t.accepts.join(' or ')}, not ${refused.name}` };
  }
  if (t.maxUnits !== undefined && types.length > t.maxUnits)
    return { ruleId: ruleOf(state, 'capacity'), code: 'transport/too_many', message: `${ct.name} carries at most ${t.maxUnits} units` };
  const weight = types.reduce((s, x) => s + (x.weight ?? 0), 0);
  if (t.capacity !== null && weight > t.capacity)
    return { ruleId: t.ruleId ?? ruleOf(state, 'capacity'), code: 'transport/over_capacity', message: `cargo weight ${weight} exceeds ${ct.name}'s capacity ${t.capacity}` };
  return null;
}

/** Loading rules that depend on where the carrier is: no helicopter loading in jungle, amphibians only on land. */
export function loadingPlaceProblem(state: GameState, carrier: UnitState, verb: 'load' | 'unload'): TransportProblem | null {
  const board = boardOf(state.scenario);
  const hex = hexOf(state, carrier);
  if (hex === null) return null;
  const i = board.grid.indexOf(hex);
  const ct = typeOf(state, carrier);
  const t = board.terrain[i]!;
  if (t !== OFF_MAP) {
    const def = board.terrainDefs[t]!;
    if ((def.noLoadingClasses ?? []).includes(ct.movementClass))
      return { ruleId: def.noLoadingRuleId ?? ruleOf(state, 'no_loading'), code: `transport/no_${verb}_here`, message: `${ct.name} cannot ${verb} in ${def.name}` };
  }
  const cls = state.scenario.rules.movementClasses[ct.movementClass]!;
  if (state.scenario.rules.transport.amphibiousCarrierOnLandOnly && cls.amphibious && mediumOf(board, ct, i) === 'water')
    return { ruleId: ruleOf(state, 'amphibious', 'GT-6F.3'), code: `transport/${verb}_afloat`, message: `${ct.name} must be ashore to ${verb}` };
  return null;
}

/** Whether a unit of this type may stand in hex i (terrain not closed to its class; "always" overlays count). */
export function canStandIn(board: Board, t: UnitType, i: number): boolean {
  if (i < 0 || board.terrain[i] === OFF_MAP) return false;
  const cls = board.scenario.rules.movementClasses[t.movementClass]!;
  if (cls.ignoresTerrain) return true;
  const c = t.movementClass;
  const mask = board.overlays[i]!;
  for (let k = 0; mask !== 0 && k < board.overlayDefs.length; k++) {
    const o = board.overlayDefs[k]!;
    if ((mask & (1 << k)) === 0 || o.applies !== 'always') continue;
    const e = o.movement[c] ?? o.movement['*'];
    if (e?.impassable === true) return false;
    if (e !== undefined && !o.keepsTerrainImpassability) return true;
  }
  const def = board.terrainDefs[board.terrain[i]!]!;
  const e = def.movement[c] ?? def.movement['*'];
  return e?.impassable !== true;
}

/**
 * Whether a unit of this type may step from hex `from` (direction `dir`) into hex `to` off its own
 * move (a retreat, Q-GT-35: "terrain that the unit could enter"): it may stand there, or an "along"
 * overlay opens the hex to it on this step, as in the movement step rule (movement/step.ts): a
 * bridge over water entered along the road (GT-3.14), a river along its course (GT-2.46).
 */
export function canStepInto(board: Board, t: UnitType, from: number, dir: number, to: number): boolean {
  if (to < 0 || board.terrain[to] === OFF_MAP) return false;
  // A hex that only an "along" overlay opens to the unit (a bridge over water) is left along it too (GT-3.14).
  if (!canStandIn(board, t, from) && !openedAlong(board, t, to, (dir + 3) % 6, from)) return false;
  return canStandIn(board, t, to) || openedAlong(board, t, from, dir, to);
}

/** Whether an "along" overlay of hex `to` opens it to this unit on the step into it from `from` (direction `dir`). */
export function openedAlong(board: Board, t: UnitType, from: number, dir: number, to: number): boolean {
  const mask = board.overlays[to]!;
  if (mask === 0) return false;
  const tb = movementTables(board);
  for (let k = 0; k < board.overlayDefs.length; k++) {
    const o = board.overlayDefs[k]!;
    if ((mask & (1 << k)) === 0 || o.applies !== 'along' || o.keepsTerrainImpassability) continue;
    const e = o.movement[t.movementClass] ?? o.movement['*'];
    if (e === undefined || e.impassable === true) continue;
    const net = tb.alongNetwork[k]! >= 0 ? board.networks[tb.alongNetwork[k]!] : null;
    const along =
      (net !== null && net !== undefined && (net[from]! & (1 << dir)) !== 0) ||
      (board.overlays[from]! & tb.alsoFromOverlays[k]!) !== 0 ||
      tb.alsoFromTerrain[k]![board.terrain[from]!] === 1 ||
      tb.alsoFromMedium[k]![board.staticMedium[from]!] === 1;
    if (along) return true;
  }
  return false;
}

/** Checks loading `cargo` into `carrier` where both now are (GT-6G.1: same hex, within capacity). */
export function loadProblem(state: GameState, cargoId: string, carrierId: string): TransportProblem | null {
  const cargo = unitOf(state, cargoId);
  const carrier = unitOf(state, carrierId);
  if (cargoId === carrierId) return { ruleId: ruleOf(state, 'load'), code: 'transport/self', message: 'a unit cannot carry itself' };
  if (cargo.side !== carrier.side) return { ruleId: ruleOf(state, 'load'), code: 'transport/enemy_carrier', message: 'cannot load into an enemy unit' };
  if (cargo.loc.at === 'carried' && cargo.loc.by === carrierId)
    return { ruleId: ruleOf(state, 'load'), code: 'transport/already_aboard', message: `${cargoId} is already aboard ${carrierId}` };
  const sameParent = cargo.loc.at === 'carried' && carrier.loc.at === 'carried' && cargo.loc.by === carrier.loc.by;
  const a = hexOf(state, cargo);
  const b = hexOf(state, carrier);
  if (!sameParent && (a === null || a !== b || cargo.loc.at !== 'hex'))
    return { ruleId: ruleOf(state, 'load'), code: 'transport/not_together', message: `${cargoId} must be in ${carrierId}'s hex to load` };
  for (let up = carrier; up.loc.at === 'carried'; up = unitOf(state, up.loc.by))
    if (up.loc.by === cargoId) return { ruleId: ruleOf(state, 'load'), code: 'transport/loop', message: 'a unit cannot carry its own carrier' };
  if (!sameParent) {
    const p = loadingPlaceProblem(state, carrier, 'load');
    if (p !== null) return p;
  }
  return cargoProblem(state, carrier, [...cargoOf(state, carrierId), cargo]);
}

/** Checks unloading `cargoId` into `hex` (GT-6F: after the move, next to the transport, into a hex it may stand in). */
export function unloadProblem(state: GameState, cargoId: string, hex: string): TransportProblem | null {
  const cargo = unitOf(state, cargoId);
  if (cargo.loc.at !== 'carried') return { ruleId: ruleOf(state, 'unload'), code: 'transport/not_aboard', message: `${cargoId} is not aboard a transport` };
  const carrier = unitOf(state, cargo.loc.by);
  const board = boardOf(state.scenario);
  const from = hexOf(state, carrier);
  const to = board.grid.indexOf(hex);
  if (from === null || to < 0) return { ruleId: ruleOf(state, 'unload'), code: 'transport/not_on_map', message: 'the transport is not on the map' };
  // A transport in a cell off the map (launched there, GT-5.3) must enter the map first: having
  // unloaded, it could no longer move, and would be stuck off it.
  if (!isOnMap(board, board.grid.indexOf(from)))
    return { ruleId: ruleOf(state, 'unload_off_map', ruleOf(state, 'unload')), code: 'transport/unload_off_map', message: `${carrier.id} is off the map: it enters the map before it unloads` };
  const dist = board.grid.distance(board.grid.indexOf(from), to);
  const mode = state.scenario.rules.transport.unloadTo;
  const ok = mode === 'adjacent' ? dist === 1 : mode === 'same-hex' ? dist === 0 : dist <= 1;
  if (!ok) return { ruleId: ruleOf(state, 'unload'), code: 'transport/unload_distance', message: `cargo is unloaded ${mode === 'adjacent' ? 'next to' : 'in'} the transport's hex, not in ${hex}` };
  const place = loadingPlaceProblem(state, carrier, 'unload');
  if (place !== null) return place;
  const ct = typeOf(state, cargo);
  // Placed next to the transport as if stepping there from it: a bridge over water takes cargo set down along its road (GT-3.14), as it takes a retreat.
  const at = board.grid.indexOf(from);
  if (!canStandIn(board, ct, to) && !(dist === 1 && openedAlong(board, ct, at, board.grid.directionTo(at, to), to)))
    return { ruleId: ruleOf(state, 'unload'), code: 'transport/unload_terrain', message: `${ct.name} cannot be put in ${hex}` };
  const units = allUnits(state).filter((u) => u.loc.at === 'hex' && u.loc.hex === hex);
  if (units.some((u) => u.side !== cargo.side)) return { ruleId: ruleOf(state, 'unload'), code: 'transport/unload_enemy', message: `${hex} is held by the enemy` };
  // Set down, the cargo stands there as if it had moved there (Q-GT-22): a truck not by an own untowed gun it could tow (GT-6D.1 (3)).
  const end = stackEndProblem(state, board, cargo.side, to, [cargo], [ct], stackAt(state, cargo.side, hex), 'unload');
  if (end === null) return null;
  return end.kind === 'stacking' ? { ruleId: end.ruleId, code: 'transport/unload_stacking', message: `${end.message}: ${hex}` } : { ruleId: end.ruleId, code: end.code, message: end.message };
}

/** Checks hitching gun `gunId` to `towers` (GT-6K.1: the towers are in the gun's hex; GT-6K.5: as many as it needs). */
export function hitchProblem(state: GameState, gunId: string, towers: readonly string[]): TransportProblem | null {
  const r = (k: string) => ruleOf(state, k, 'GT-6K.1');
  const tr = state.scenario.rules.towing.ruleIds;
  const gun = unitOf(state, gunId);
  const gt = typeOf(state, gun);
  const tow = gt.towable;
  if (tow === undefined) return { ruleId: tr['hitch'] ?? r('hitch'), code: 'transport/not_towable', message: `${gt.name} cannot be towed` };
  if (gun.loc.at !== 'hex') return { ruleId: tr['hitch'] ?? r('hitch'), code: 'transport/not_standing', message: `${gunId} is not standing in a hex` };
  if (towers.length !== tow.towers || new Set(towers).size !== towers.length)
    return { ruleId: tr['towers'] ?? tow.ruleId, code: 'transport/tow_team', message: `${gt.name} needs exactly ${tow.towers} tower(s)` };
  for (const id of towers) {
    // An unknown id is answered like an enemy unit: the answer must not tell which ids exist.
    const t = state.units[id];
    if (t === undefined || t.side !== gun.side || !hasTag(typeOf(state, t), tow.by))
      return { ruleId: tow.ruleId, code: 'transport/not_a_tower', message: `${id} cannot tow ${gt.name}` };
    if (!state.scenario.rules.towing.towerMayCarry && cargoOf(state, id).length > 0)
      return { ruleId: towerCarriesRule(state), code: 'transport/tower_carries', message: `${id} has cargo aboard and may not tow until it is unloaded` };
    if (t.loc.at !== 'hex' || t.loc.hex !== gun.loc.hex) return { ruleId: tr['hitch'] ?? r('hitch'), code: 'transport/not_together', message: `${id} must be in ${gunId}'s hex` };
    if (allUnits(state).some((u) => u.loc.at === 'towed' && u.loc.by.includes(id)))
      return { ruleId: tr['hitch'] ?? r('hitch'), code: 'transport/already_towing', message: `${id} is already towing` };
  }
  return null;
}
