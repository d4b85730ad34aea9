import { JsonObject } from '../../model/json';
import { GameState, UnitState } from '../../model/state';
import { boardOf } from '../board';
import { MoveHooks, moveReach } from '../movement/context';
import { pathsInto } from '../movement/moves';
import { allUnits, hasTag, hexOf, towedBy, typeOf, unitsAt } from '../queries';
import { cargoProblem } from '../transport';
import { SideId } from '../types';
import { moveFlagProblems } from './common';

/**
 * The `other` options of the transport orders (load, unload, hitch, unhitch). Each candidate is
 * the very order a client would send, kept only when `accepts` (the handler's own validation) takes
 * it. An option's detail is the order less `kind` and `unit` (`orderOfOption`, the handlers'
 * `optionOrder`), so that options() can also put each one through the system's whole validation
 * (the checks a system adds in front of the handler and on the submission, kit/options.ts).
 */
export interface OtherOption {
  readonly action: string;
  readonly detail: JsonObject;
}

type Accepts = (order: JsonObject) => boolean;

/** The order an option of `kind` stands for, or null for another kind's option. */
export function orderOfOption(kind: string, unit: string, option: { readonly action: string; readonly detail: unknown }): JsonObject | null {
  return option.action === kind ? { kind, unit, ...(option.detail as JsonObject) } : null;
}

function ownAndPlaced(state: GameState, side: SideId, unitId: string): UnitState | null {
  const u = state.units[unitId];
  return u === undefined || u.side !== side || hexOf(state, u) === null ? null : u;
}

/**
 * Loads of the unit as cargo (GT-6G.1) into an own transport that could hold it were it empty:
 * where it stands (`{carrier}`); the cargo moving, at the end of a path the unit could take this
 * phase (`{carrier, path}`, the paths pathsInto finds to the carrier's hex); and the carrier moving
 * (`{carrier, mover: 'carrier', path}`), a carrier on the map in another hex driving into the
 * cargo's hex along a path pathsInto finds for it, the first that validation accepts. Only carriers
 * within their moveReach (budget over the cheapest step of their class, in grid distance) of the
 * cargo are searched, one search each (a carrier aboard another unit, or whose flags forbid a
 * move, is not: validation refuses its move). Not offered: either mover's other paths to the same
 * hex (one per carrier and mover; the move options list the rest).
 */
export function loadOptions(state: GameState, side: SideId, unitId: string, accepts: Accepts, hooks?: MoveHooks): OtherOption[] {
  const u = ownAndPlaced(state, side, unitId);
  if (u === null) return [];
  const at = hexOf(state, u)!;
  const carriers = allUnits(state).filter((c) => c.side === side && c.id !== unitId && typeOf(state, c).transport !== undefined && hexOf(state, c) !== null && cargoProblem(state, c, [u]) === null);
  if (carriers.length === 0) return [];
  const out: OtherOption[] = [];
  for (const c of carriers)
    if (hexOf(state, c) === at && accepts({ kind: 'load', unit: unitId, carrier: c.id })) out.push({ action: 'load', detail: { carrier: c.id } });
  if (u.loc.at === 'hex' && moveFlagProblems(state, u, 0).length === 0) {
    const goals = new Set(carriers.map((c) => hexOf(state, c)!).filter((h) => h !== at));
    const paths = pathsInto(state, unitId, { knownTo: side, hooks }, goals);
    for (const c of carriers) {
      const path = (paths.get(hexOf(state, c)!) ?? []).find((p) => accepts({ kind: 'load', unit: unitId, carrier: c.id, path: p }));
      if (path !== undefined) out.push({ action: 'load', detail: { carrier: c.id, path } });
    }
  }
  const grid = boardOf(state.scenario).grid;
  const goal = new Set([at]);
  for (const c of carriers) {
    if (c.loc.at !== 'hex' || c.loc.hex === at || grid.distance(grid.indexOf(c.loc.hex), grid.indexOf(at)) > moveReach(state, c.id, hooks)) continue;
    if (moveFlagProblems(state, c, 0).length > 0) continue;
    const path = (pathsInto(state, c.id, { knownTo: side, hooks }, goal).get(at) ?? []).find((p) =>
      accepts({ kind: 'load', unit: unitId, carrier: c.id, mover: 'carrier', path: p }),
    );
    if (path !== undefined) out.push({ action: 'load', detail: { carrier: c.id, mover: 'carrier', path } });
  }
  return out;
}

/** Unloads of carried cargo into its carrier's hex or a hex next to it (GT-6F: the rules' `unloadTo` decides which). */
export function unloadOptions(state: GameState, side: SideId, unitId: string, accepts: Accepts): OtherOption[] {
  const u = ownAndPlaced(state, side, unitId);
  if (u === null || u.loc.at !== 'carried') return [];
  const grid = boardOf(state.scenario).grid;
  const from = grid.indexOf(hexOf(state, u)!);
  const hexes = [from, ...[0, 1, 2, 3, 4, 5].map((d) => grid.neighbour(from, d))].filter((i) => i >= 0).map((i) => grid.label(i));
  return hexes.filter((hex) => accepts({ kind: 'unload', unit: unitId, hex })).map((hex) => ({ action: 'unload', detail: { hex } }));
}

/**
 * Sets of towers tried per gun. A gun takes exactly as many towers as its type says (GT-6K.5: two
 * trucks for a Hawk), from the own units in its hex or within reach of it that may tow it; this caps
 * the sets many trucks would give (8 candidates give 28 pairs).
 */
export const MAX_TOWER_SETS = 32;

/**
 * Hitches of a towable gun to the sets of own towers that validation accepts (GT-6K.1, GT-6K.5): towers in
 * its hex, and towers elsewhere that drive in to take it in tow (`{towers, path}`, a path pathsInto finds for
 * the first of them, the first that validation accepts; those driving must stand in one hex), searched only
 * within their moveReach of the gun. A tower's move alone may not end there (towing.enterOnlyToHitch), so
 * this is where the move to a gun is offered.
 */
export function hitchOptions(state: GameState, side: SideId, unitId: string, accepts: Accepts, hooks?: MoveHooks): OtherOption[] {
  const u = ownAndPlaced(state, side, unitId);
  const tow = u === null ? undefined : typeOf(state, u).towable;
  if (u === null || tow === undefined || u.loc.at !== 'hex') return [];
  const at = u.loc.hex;
  const grid = boardOf(state.scenario).grid;
  const here = unitsAt(state, at)
    .filter((t) => t.side === side && t.id !== unitId && hasTag(typeOf(state, t), tow.by))
    .map((t) => t.id);
  const near = allUnits(state).filter(
    (t) =>
      t.side === side &&
      t.loc.at === 'hex' &&
      t.loc.hex !== at &&
      hasTag(typeOf(state, t), tow.by) &&
      towedBy(state, t.id) === undefined &&
      moveFlagProblems(state, t, 0).length === 0 &&
      grid.distance(grid.indexOf(t.loc.hex), grid.indexOf(at)) <= moveReach(state, t.id, hooks),
  );
  const paths = new Map<string, string[][]>();
  const pathsOf = (id: string) => {
    let p = paths.get(id);
    if (p === undefined) paths.set(id, (p = pathsInto(state, id, { knownTo: side, hooks }, new Set([at])).get(at) ?? []));
    return p;
  };
  const out: OtherOption[] = [];
  for (const set of combinations([...here, ...near.map((t) => t.id)], tow.towers, MAX_TOWER_SETS)) {
    const drivers = near.filter((t) => set.includes(t.id));
    if (drivers.length === 0) {
      if (accepts({ kind: 'hitch', unit: unitId, towers: set })) out.push({ action: 'hitch', detail: { towers: set } });
      continue;
    }
    if (drivers.some((t) => hexOf(state, t) !== hexOf(state, drivers[0]!))) continue;
    const path = pathsOf(drivers[0]!.id).find((p) => accepts({ kind: 'hitch', unit: unitId, towers: set, path: p }));
    if (path !== undefined) out.push({ action: 'hitch', detail: { towers: set, path } });
  }
  return out;
}

/** The first `max` k-subsets of `items`, each in the items' order. */
function combinations<T>(items: readonly T[], k: number, max: number): T[][] {
  const out: T[][] = [];
  const pick = (from: number, chosen: T[]): void => {
    if (out.length >= max) return;
    if (chosen.length === k) {
      out.push(chosen);
      return;
    }
    for (let i = from; i <= items.length - (k - chosen.length); i++) pick(i + 1, [...chosen, items[i]!]);
  };
  if (k >= 1) pick(0, []);
  return out;
}

/** Unhitching a towed gun (GT-6K.4). */
export function unhitchOptions(state: GameState, side: SideId, unitId: string, accepts: Accepts): OtherOption[] {
  const u = ownAndPlaced(state, side, unitId);
  return u !== null && u.loc.at === 'towed' && accepts({ kind: 'unhitch', unit: unitId }) ? [{ action: 'unhitch', detail: {} }] : [];
}
