import { GameState, UnitState } from '../../../model/state';
import { boardOf } from '../../../engine/board';
import { EventBody } from '../../../engine/events';
import { OrderHandler, ResolveContext, Resume } from '../../../engine/kit/types';
import { isViolation, ownUnit, ownUnitProblems, unloadedMoveProblem } from '../../../engine/orders/common';
import { MoveOrder, MoveOrderOptions, resolveMove, validateMove } from '../../../engine/orders/move';
import { LoadOrder, UnloadOrder } from '../../../engine/orders/transport-orders';
import { pausedDuring, projectedMove } from '../../../engine/orders/transport-common';
import { OtherOption } from '../../../engine/orders/transport-options';
import { pathsInto } from '../../../engine/movement/moves';
import { moveReach } from '../../../engine/movement/context';
import { cargoOf, unitsAt } from '../../../engine/queries';
import { cargoProblem, loadingPlaceProblem } from '../../../engine/transport';
import { SideId, UnitOptions, Violation } from '../../../engine/types';
import { violation } from '../../../engine/violation';
import { visibilityFor } from '../../../engine/visibility';
import { airOps } from '../air-data';
import { hasAnyTag, isOffMap, neighbourHexes } from '../air-queries';
import { AfterUnload } from '../feature';
import { GatorsExt } from '../ext';
import { isShip, shipCarrying } from '../queries';
import { SHIP_LOAD, SHIP_UNLOAD, loadedFromShip } from '../features/ship-cargo';
import { refillAboard } from '../features/refuel';
import { cancel } from './wrap';

/**
 * GT-6G.2 "helicopters may load from ships", GT-6F.2 "helicopters may unload onto ships": the
 * load and unload orders of a helicopter (rules.json `combat.airOps.shipCargoCarriers`) with a
 * ship of its side. A ship's hex holds no other counter, and aircraft land on a ship from the hex
 * next to it (recovery, GT-5.4), so the helicopter stands next to the ship: it loads there (its
 * move, if the order gives one, ends there; GT-6G.1), and unloads into the ship's hex as into
 * any hex next to it (GT-6F.1). Any other transport takes from and gives to a ship only by launch
 * and recovery (Q-GT-16). What a ship holds is hidden from the other side (Q-GT-01), so a load
 * from it is the side's own record (own-records.ts) while the cargo stays out of sight: the others
 * read no more of it than of a helicopter launched with that cargo aboard.
 */

const Q16 = 'Q-GT-16';

/** The own ship standing in `hex`, if any: ships are in plain sight, so this tells no secret. */
function ownShipAt(state: GameState, side: SideId, hex: string): UnitState | undefined {
  return unitsAt(state, hex).find((u) => u.side === side && isShip(state, u));
}

function mayUseShips(state: GameState, carrier: UnitState): boolean {
  return hasAnyTag(state, carrier, airOps(state.scenario).shipCargoCarriers);
}

function adjacent(state: GameState, a: string, b: string): boolean {
  const grid = boardOf(state.scenario).grid;
  return grid.distance(grid.indexOf(a), grid.indexOf(b)) === 1;
}

/** The transport's problems common to loading and unloading at a ship: a helicopter of the side, standing on the map next to the ship. */
function carrierProblem(state: GameState, carrier: UnitState, ship: UnitState, at: string | null, verb: 'load' | 'unload', i: number): Violation | null {
  const rule = verb === 'load' ? 'GT-6G.2' : 'GT-6F.2';
  if (!mayUseShips(state, carrier))
    return violation(Q16, verb === 'load' ? 'transport/ship_launch' : 'transport/ship_recovery', `${carrier.id} is no helicopter: cargo leaves or boards ${ship.id} only by launch (GT-5.3) or recovery (GT-5.4)`, i);
  if (at === null || isOffMap(state, { ...carrier, loc: { at: 'hex', hex: at } }))
    return violation(rule, 'transport/carrier_not_on_map', `${carrier.id} must be on the map (launched) to ${verb} at ${ship.id}`, i);
  if (ship.loc.at !== 'hex' || !adjacent(state, at, ship.loc.hex))
    return violation(rule, 'transport/ship_not_adjacent', `${carrier.id} must stand next to ${ship.id} to ${verb} there`, i);
  const place = loadingPlaceProblem(state, { ...carrier, loc: { at: 'hex', hex: at } }, verb);
  return place === null ? null : violation(place.ruleId, place.code, place.message, i);
}

/** Whether the unit is aboard a ship: the only loads it may be given are from the ship. */
export function aboardShip(state: GameState, unitId: string): boolean {
  const u = state.units[unitId];
  return u !== undefined && shipCarrying(state, u) !== undefined;
}

/** Whether this load takes its cargo out of a ship (the handler below, not the kernel's). */
export function loadsFromShip(state: GameState, o: LoadOrder): boolean {
  const u = state.units[o.unit];
  const c = state.units[o.carrier];
  return u !== undefined && c !== undefined && !isShip(state, c) && shipCarrying(state, u) !== undefined;
}

/** Whether this unload puts its cargo aboard an own ship. */
export function unloadsOntoShip(state: GameState, o: UnloadOrder): boolean {
  const u = state.units[o.unit];
  if (u === undefined || u.loc.at !== 'carried') return false;
  const c = state.units[u.loc.by];
  return c !== undefined && !isShip(state, c) && ownShipAt(state, u.side, o.hex) !== undefined;
}

export function validateShipLoad(state: GameState, side: SideId, o: LoadOrder, i: number, opts: MoveOrderOptions<GatorsExt>): Violation[] {
  const notOwn = ownUnitProblems(state, side, [o.unit, o.carrier], i);
  if (notOwn.length > 0) return notOwn;
  const cargo = state.units[o.unit]!;
  const carrier = state.units[o.carrier]!;
  const ship = shipCarrying(state, cargo)!;
  // Q-GT-16: what is launched (aircraft, landing craft, amphibians) leaves a ship by launch, using one of its slots (GT-5.3), never as a helicopter's cargo.
  if (hasAnyTag(state, cargo, airOps(state.scenario).launchable))
    return [violation(Q16, 'transport/ship_launch', `${o.unit} leaves ${ship.id} only by launch (GT-5.3), not as cargo`, i)];
  // The load carries the cargo out of the ship's hex into the helicopter's beside it, as a unit walks onto
  // its transport: one put aboard this turn may not move (GT-6F.1), so it stays aboard (README row GT-6F.1 (out of a ship the turn it went aboard)).
  const unloaded = unloadedMoveProblem(state, cargo, i);
  if (unloaded !== null) return [unloaded];
  if (o.mover !== 'carrier' && o.path !== undefined)
    return [violation(Q16, 'transport/ship_launch', `${o.unit} leaves ${ship.id} only by launch (GT-5.3) or aboard a transport`, i)];
  let at = carrier.loc.at === 'hex' ? carrier.loc.hex : null;
  if (o.path !== undefined && mayUseShips(state, carrier)) {
    const move = validateMove(state, side, { kind: 'move', unit: o.carrier, path: o.path }, i, opts.hooks);
    if (move.length > 0) return move;
    at = o.path[o.path.length - 1]!;
  }
  const p = carrierProblem(state, carrier, ship, at, 'load', i);
  if (p !== null) return [p];
  const c = cargoProblem(state, carrier, [...cargoOf(state, carrier.id), cargo]);
  return c === null ? [] : [violation(c.ruleId, c.code, c.message, i)];
}

export function validateShipUnload(state: GameState, side: SideId, o: UnloadOrder, i: number): Violation[] {
  const u = ownUnit(state, side, o.unit, i);
  if (isViolation(u)) return [u];
  const carrier = state.units[(u.loc as { by: string }).by]!;
  const ship = ownShipAt(state, side, o.hex)!;
  const p = carrierProblem(state, carrier, ship, carrier.loc.at === 'hex' ? carrier.loc.hex : null, 'unload', i);
  if (p !== null) return [p];
  const c = cargoProblem(state, ship, [...cargoOf(state, ship.id), u]);
  return c === null ? [] : [violation(c.ruleId, c.code, c.message, i)];
}

/** The event of a load from a ship: the side's own record while the cargo stays out of the others' sight. */
function shipLoadEvent(state: GameState, o: LoadOrder, ship: string) {
  const data = { unit: o.unit, carrier: o.carrier, ship };
  const after = loadedFromShip(state as GameState<GatorsExt>, data);
  return { type: SHIP_LOAD, data, visibility: visibilityFor(after, [after.units[o.unit]!]) };
}

export function projectShipLoad(state: GameState, o: LoadOrder): EventBody[] {
  const ship = shipCarrying(state, state.units[o.unit]!)!;
  const moved = o.path === undefined ? [] : [projectedMove(state.units[o.carrier]!, o.path)];
  return [...moved, { type: SHIP_LOAD, data: { unit: o.unit, carrier: o.carrier, ship: ship.id } }];
}

export function resolveShipLoad(ctx: ResolveContext<GatorsExt>, o: LoadOrder, i: number, opts: MoveOrderOptions<GatorsExt>, resume?: Resume): void {
  if (resume === undefined) {
    const v = validateShipLoad(ctx.state, ctx.side, o, i, opts);
    if (v.length > 0) return cancel(ctx, i, 'load', v[0]!);
  }
  const ship = shipCarrying(ctx.state, ctx.state.units[o.unit]!)?.id;
  if (o.path !== undefined) {
    const move: MoveOrder = { kind: 'move', unit: o.carrier, path: o.path };
    if (pausedDuring(ctx, (c) => resolveMove(c, move, i, opts, () => [], resume))) return;
    const c = ctx.state.units[o.carrier];
    // Stopped short by something hidden on the way, or destroyed: no boarding (as the kernel's load).
    if (c?.loc.at !== 'hex' || c.loc.hex !== o.path[o.path.length - 1]) return;
    const { path: _moved, ...here } = o;
    const v = validateShipLoad(ctx.state, ctx.side, here, i, opts);
    if (v.length > 0) return cancel(ctx, i, 'load', v[0]!);
  }
  ctx.emit(shipLoadEvent(ctx.state, o, ship!));
}

export function projectShipUnload(state: GameState, o: UnloadOrder): EventBody[] {
  const u = state.units[o.unit]!;
  const ship = ownShipAt(state, u.side, o.hex)!;
  const carrier = (u.loc as { by: string }).by;
  // The carrier's move is over (GT-6F.1): the unload handler's own projection marks it, as for any unload.
  return [{ type: SHIP_UNLOAD, data: { unit: o.unit, carrier, ship: ship.id } }];
}

/** Aboard the ship as if recovered: a HERS or LVS is refilled there (GT-6N.4); then what follows any unload (the helicopter's move is over, it must return). */
export function resolveShipUnload(ctx: ResolveContext<GatorsExt>, o: UnloadOrder, i: number, afterUnload: AfterUnload, resume?: Resume): void {
  if (resume !== undefined) {
    const st = resume.stage as { unit: string; carrier: string; hex: string };
    return afterUnload(ctx, { ...st, index: i }, resume);
  }
  const v = validateShipUnload(ctx.state, ctx.side, o, i);
  if (v.length > 0) return cancel(ctx, i, 'unload', v[0]!);
  const cargo = ctx.state.units[o.unit]!;
  const carrier = (cargo.loc as { by: string }).by;
  const ship = ownShipAt(ctx.state, cargo.side, o.hex)!;
  // In sight before (a HERS ashore), the others see it go; out of sight, it is the side's own record.
  ctx.emit({ type: SHIP_UNLOAD, data: { unit: o.unit, carrier, ship: ship.id }, visibility: visibilityFor(ctx.state, [cargo]) });
  refillAboard(ctx, o.unit);
  afterUnload(ctx, { unit: o.unit, carrier, hex: o.hex, index: i });
}

type Accepts<O> = (o: O) => boolean;

/**
 * Loads of a unit aboard a ship into each own helicopter that could hold it: one standing next to
 * the ship (`{carrier}`), or else one flying there, along the first path to a hex next to the ship
 * that validation accepts (`{carrier, mover: 'carrier', path}`), as the kernel offers a carrier
 * driving to its cargo (transport-options.ts loadOptions).
 */
export function shipLoadOptions(state: GameState, side: SideId, unitId: string, accepts: Accepts<LoadOrder>, opts: MoveOrderOptions<GatorsExt>): OtherOption[] {
  const u = state.units[unitId];
  const ship = u === undefined || u.side !== side ? undefined : shipCarrying(state, u);
  if (ship === undefined || ship.loc.at !== 'hex') return [];
  const grid = boardOf(state.scenario).grid;
  const shipAt = grid.indexOf(ship.loc.hex);
  const around = new Set(neighbourHexes(state, shipAt).map((n) => grid.label(n)));
  const out: OtherOption[] = [];
  for (const c of Object.values(state.units)) {
    if (c.side !== side || c.loc.at !== 'hex' || !mayUseShips(state, c) || cargoProblem(state, c, [u!]) !== null) continue;
    if (around.has(c.loc.hex)) {
      if (accepts({ kind: 'load', unit: unitId, carrier: c.id })) out.push({ action: 'load', detail: { carrier: c.id } });
      continue;
    }
    if (grid.distance(grid.indexOf(c.loc.hex), shipAt) > moveReach(state, c.id, opts.hooks) + 1) continue;
    const paths = pathsInto(state, c.id, { knownTo: side, hooks: opts.hooks }, around);
    const path = [...around]
      .sort()
      .flatMap((h) => paths.get(h) ?? [])
      .find((p) => accepts({ kind: 'load', unit: unitId, carrier: c.id, mover: 'carrier', path: p }));
    if (path !== undefined) out.push({ action: 'load', detail: { carrier: c.id, mover: 'carrier', path } });
  }
  return out;
}

/** An unload of cargo aboard a helicopter into the hex of an own ship next to it. */
export function shipUnloadOptions(state: GameState, side: SideId, unitId: string, accepts: Accepts<UnloadOrder>): OtherOption[] {
  const u = state.units[unitId];
  if (u === undefined || u.side !== side || u.loc.at !== 'carried') return [];
  const c = state.units[u.loc.by];
  if (c === undefined || c.loc.at !== 'hex' || !mayUseShips(state, c)) return [];
  const from = c.loc.hex;
  return Object.values(state.units)
    .filter((s) => s.side === side && isShip(state, s) && s.loc.at === 'hex' && adjacent(state, from, s.loc.hex))
    .map((s) => (s.loc as { hex: string }).hex)
    .filter((hex) => accepts({ kind: 'unload', unit: unitId, hex }))
    .map((hex) => ({ action: 'unload', detail: { hex } }));
}

/**
 * A kernel transport order with its ship form: `viaShip` decides which one an order is, from what
 * the side may see (its own cargo aboard its ships, the ships in plain sight); the options are the
 * kernel's and the ship form's.
 */
export function withShipForm<O>(
  base: OrderHandler<GatorsExt, O>,
  viaShip: (state: GameState, o: O) => boolean,
  ship: {
    validate(state: GameState<GatorsExt>, side: SideId, o: O, i: number): Violation[];
    project(state: GameState<GatorsExt>, o: O): EventBody[];
    resolve(ctx: ResolveContext<GatorsExt>, o: O, i: number, resume?: Resume): void;
    options(state: GameState<GatorsExt>, side: SideId, unitId: string, accepts: Accepts<O>): OtherOption[];
    /** The unit's kernel options would all be refused (its cargo is aboard a ship): skip their search. */
    onlyShip?(state: GameState<GatorsExt>, unitId: string): boolean;
  },
): OrderHandler<GatorsExt, O> {
  const validate = (state: GameState<GatorsExt>, side: SideId, o: O, i: number) => (viaShip(state, o) ? ship.validate(state, side, o, i) : base.validate(state, side, o, i));
  return {
    ...base,
    validate,
    project: (state, side, o) => (viaShip(state, o) ? ship.project(state, o) : base.project(state, side, o)),
    // A resumed unload has put its cargo aboard already: the kernel's resumes it alike (afterUnload).
    resolve: (ctx, o, i, resume) => (viaShip(ctx.state, o) ? ship.resolve(ctx, o, i, resume) : base.resolve(ctx, o, i, resume)),
    options: (state, side, unitId) => {
      const mine = ship.options(state, side, unitId, (o) => validate(state, side, o, 0).length === 0);
      const theirs: Partial<UnitOptions> = ship.onlyShip?.(state, unitId) === true ? {} : (base.options?.(state, side, unitId) ?? {});
      const other = [...(theirs.other ?? []), ...mine];
      return other.length > 0 ? { ...theirs, other } : theirs;
    },
  };
}
