import { GameState, UnitState } from '../../model/state';
import { Board, boardOf, isOnMap } from '../../engine/board';
import { allUnits, cargoOf, hasTag, hexOf, mediumAt, typeOf } from '../../engine/queries';
import { RulesEvent, SideId, Visibility } from '../../engine/types';
import { Block, MoveHooks } from '../../engine/movement/context';
import { gext } from './ext';

/** Small reads of the state that several Gators! features share. */

export function tagged(state: GameState, u: UnitState, ...tags: string[]): boolean {
  return hasTag(typeOf(state, u), tags);
}

export function isAircraft(state: GameState, u: UnitState): boolean {
  return tagged(state, u, 'aircraft');
}

export function isShip(state: GameState, u: UnitState): boolean {
  return tagged(state, u, 'ship');
}

export function isAmphibious(state: GameState, u: UnitState): boolean {
  return state.scenario.rules.movementClasses[typeOf(state, u).movementClass]?.amphibious === true;
}

/** The ship a unit is directly aboard, if any. */
export function shipCarrying(state: GameState, u: UnitState): UnitState | undefined {
  if (u.loc.at !== 'carried') return undefined;
  const c = state.units[u.loc.by];
  return c !== undefined && isShip(state, c) ? c : undefined;
}

/** GT-2.20: the units.json tags of a FAV-like unit that needs a crew, and of the teams that crew it (check-crews.ts reads them too). */
export const NEEDS_CREW = 'needs-crew';
export const CREW = 'small-team';

/** Whether a FAV-like unit that needs a crew has one aboard (GT-2.20). Units that need none: true. */
export function crewed(state: GameState, u: UnitState): boolean {
  return !tagged(state, u, NEEDS_CREW) || crewOf(state, u).length > 0;
}

/** The small teams crewing a FAV-like unit that needs a crew (GT-2.20); none for any other unit, whatever it carries. */
export function crewOf(state: GameState, u: UnitState): UnitState[] {
  return tagged(state, u, NEEDS_CREW) ? cargoOf(state, u.id).filter((c) => tagged(state, c, CREW)) : [];
}

export function isWater(board: Board, i: number): boolean {
  return isOnMap(board, i) && mediumAt(board, i) === 'water';
}

export function isLand(board: Board, i: number): boolean {
  return isOnMap(board, i) && mediumAt(board, i) === 'land';
}

/** Hex indices of all airfields of the map. */
export function airfieldHexes(state: GameState): number[] {
  const board = boardOf(state.scenario);
  return state.scenario.map.airfields.flatMap((a) => a.hexes.map((h) => board.grid.indexOf(h)));
}

/** Distance from a hex to the nearest airfield (Infinity when the map has none). */
export function distanceToAirfield(state: GameState, hex: string): number {
  const board = boardOf(state.scenario);
  const i = board.grid.indexOf(hex);
  return Math.min(Infinity, ...airfieldHexes(state).map((a) => board.grid.distance(a, i)));
}

/** Units of `side` standing (not carried) next to hex i, as a list. */
export function adjacentStanding(state: GameState, i: number, side: SideId): UnitState[] {
  const board = boardOf(state.scenario);
  return allUnits(state).filter((u) => u.side === side && u.loc.at === 'hex' && board.grid.distance(board.grid.indexOf(u.loc.hex), i) === 1);
}

export function hexIndexOf(state: GameState, u: UnitState): number {
  const h = hexOf(state, u);
  return h === null ? -1 : boardOf(state.scenario).grid.indexOf(h);
}

/** An event only `side` reads (its secrets); the others read nothing, or `redacted`. */
export function privateTo<T extends string>(side: SideId, type: T, data: unknown, redacted?: { type: string; data: unknown }): RulesEvent<T> {
  const visibility: Visibility = redacted === undefined ? { to: 'sides', sides: [side] } : { to: 'sides', sides: [side], redacted };
  return { type, data, visibility };
}

export function publicOf<T extends string>(type: T, data: unknown): RulesEvent<T> {
  return { type, data, visibility: { to: 'all' } };
}

/** The numeric suffix of an id ("p1-squad-12" → 12), for a stable, human order. */
export function idOrder(a: string, b: string): number {
  const n = (s: string) => Number(/-(\d+)$/.exec(s)?.[1] ?? 0);
  const pa = a.replace(/-\d+$/, '');
  const pb = b.replace(/-\d+$/, '');
  return pa === pb ? n(a) - n(b) : pa < pb ? -1 : 1;
}

/** Whether a Debris marker lies in this hex (GT-6Q): vehicles may not enter it, an airfield with one is unusable (GT-6Q.4). */
export function hasDebris(state: GameState, hex: string): boolean {
  return gext(state).debris.includes(hex);
}

/**
 * Why `unit` may not be put into `hex` other than by its own move (unloaded, placed by a split,
 * raised as Guerrillas, set up), or null. Q-GT-22 puts every placement under the limits of a move's
 * end: a hex closed to the unit's move (Debris for a vehicle, GT-6Q.3; a bridge Debris destroyed,
 * GT-6Q.8; an occupied bridge, Q-GT-10) is closed to placing it there. One its move may enter only to
 * end there (Block.stops: the repair crew's bridge) is open: the placing ends there anyway (GT-6F.1).
 */
export function closedToPlacing(hooks: MoveHooks, state: GameState, unit: UnitState, hex: string): Block | null {
  const board = boardOf(state.scenario);
  const closed = hooks.blocked?.(state, unit, board).get(board.grid.indexOf(hex));
  return closed === undefined || closed.stops === true ? null : closed;
}
