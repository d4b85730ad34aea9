import { Json, JsonObject } from '../../model/json';
import { Scenario } from '../../model/scenario';
import { GameState, UnitState } from '../../model/state';
import { SideId } from '../../engine/types';
import { gatorsData } from './data';
import { groundData } from './ground-data';
import { airOps } from './air-data';

/**
 * The Gators! state beyond the kernel's.
 *
 * `ext` is PUBLIC: kernelView shows it to every side. Only facts every player
 * sees on the table go here (Debris markers, Refuel markers, launches used,
 * captured airfields); a fact about a unit that may be hidden is shown only to
 * the sides that see the unit (the refuel feature's view: a HERS aboard). A side's SECRETS go into its notes
 * (state.sides[side].secret.notes, shown only to that side): the breakdown
 * result (GT-4.8, Q-GT-14) and the Air-Attack loadouts (GT-6C.2: the enemy
 * "does not know what munitions it carries").
 */
export type GatorsExt = {
  /** Hexes holding a Debris marker (GT-4.7, GT-6Q). */
  readonly debris: readonly string[];
  /** Launches and recoveries (and firing passengers, Q-GT-39) used this turn, by ship id (GT-5.3; part 2). */
  readonly launches: { readonly [ship: string]: number };
  /** Refuel markers by unit id: a HERS (6) or an LVS (3) (GT-6N.3, GT-6N.4; part 2). */
  readonly refuel: { readonly [unit: string]: number };
  /** Airfields captured (GT-6P), by airfield id: holder and whether activated by a CH-53E (part 2). */
  readonly airfields: { readonly [airfield: string]: { readonly side: SideId; readonly active: boolean } };
  /** Free room for a feature's public state, by feature id (keep it small and JSON). */
  readonly features: { readonly [feature: string]: Json };
};

/**
 * The public state of a new game. The scenario was checked at load (check-scenario.ts); reading
 * every data section here as well makes one handed straight to the engine fail at start, not
 * at the first order that reads it.
 */
export function initialExt(s: Scenario): GatorsExt {
  gatorsData(s);
  groundData(s);
  airOps(s);
  return { debris: [], launches: {}, refuel: {}, airfields: {}, features: {} };
}

export type GState = GameState<GatorsExt>;

/** What P2 keeps secret after the breakdown roll (GT-4.8, GT-4.9). */
export type BreakdownNote = {
  readonly roll: number;
  /** Index into rules.json combat.breakdown.results. */
  readonly result: number;
  readonly text: string;
  readonly broken: readonly string[];
  /** The written-down position of a broken unit that must be recorded (the broken Hawk). */
  readonly recorded: readonly { readonly unit: string; readonly hex: string | null }[];
};

/**
 * A side's notes as the system uses them. Every key is optional: notes start empty.
 * `loadouts`: Air-Attack markers carried, by unit id (GT-6B.2).
 * `breakdownChoice`: the units P2 names to break down first (GT-4.9 "one Hawk").
 */
export type GatorsNotes = {
  readonly breakdown?: BreakdownNote;
  readonly breakdownChoice?: readonly string[];
  readonly loadouts?: { readonly [unit: string]: readonly string[] };
};

export function notesOf(state: GameState, side: SideId): GatorsNotes {
  return (state.sides[side]?.secret.notes ?? {}) as GatorsNotes;
}

/** GT-4.9: broken-down equipment. The fact is in its owner's notes, hidden from the enemy. */
export function isBroken(state: GameState, u: UnitState): boolean {
  return notesOf(state, u.side).breakdown?.broken.includes(u.id) === true;
}

/**
 * The state with `side`'s breakdown result left out: its units as the enemy must take them,
 * all working (Q-GT-14), for deciding what the enemy may be told.
 */
export function breakdownUnknown(state: GameState, side: SideId): GameState {
  const s = state.sides[side];
  const { breakdown, ...notes } = notesOf(state, side);
  if (s === undefined || breakdown === undefined) return state;
  return { ...state, sides: { ...state.sides, [side]: { ...s, secret: { ...s.secret, notes } } } };
}

/** The Air-Attack markers a unit carries (GT-6B.2), from its owner's notes. */
export function loadoutOf(state: GameState, u: UnitState): readonly string[] {
  return notesOf(state, u.side).loadouts?.[u.id] ?? [];
}

export function gext(state: GameState): GatorsExt {
  return state.ext as unknown as GatorsExt;
}

export function withNotes(notes: JsonObject, patch: GatorsNotes): JsonObject {
  return { ...notes, ...(patch as JsonObject) };
}
