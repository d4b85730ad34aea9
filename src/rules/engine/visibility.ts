import { GameState, UnitState } from '../model/state';
import { JsonObject } from '../model/json';
import { RulesEvent, SideId, Visibility } from './types';
import { boardOf, hasOverlay, terrainIdAt } from './board';
import { flag, typeOf, unitOf } from './queries';

/**
 * The sides from which a unit's identity is hidden: all others while it is
 * under a marker, or while it is cargo and rules.json hides enemy cargo.
 * view() and every event's Visibility are built from this one function.
 */
export function concealedFrom(state: GameState, u: UnitState): SideId[] {
  if (isConcealed(state, u)) return Object.keys(state.sides).filter((s) => s !== u.side);
  return [];
}

export function isConcealed(state: GameState, u: UnitState): boolean {
  if (u.hidden !== undefined) return true;
  let cur = u;
  for (let guard = 0; guard < 16; guard++) {
    if (cur.loc.at === 'carried') {
      const carrier = unitOf(state, cur.loc.by);
      if (state.scenario.rules.visibility.enemyCargo === 'hidden' && !seenAboard(state, cur, carrier)) return true;
      cur = carrier;
    } else if (cur.loc.at === 'towed') cur = unitOf(state, cur.loc.by[0]!);
    else return false;
    if (cur.hidden !== undefined) return true;
  }
  return false;
}

/** rules.json visibility.seenCargo and seenCargoWhen: this cargo is in plain sight aboard this carrier where it stands. */
function seenAboard(state: GameState, cargo: UnitState, carrier: UnitState): boolean {
  const { seenCargo: seen, seenCargoWhen } = state.scenario.rules.visibility;
  if (carrier.loc.at !== 'hex') return false;
  // A game keeps the scenario data it was started with (GameStarted): one started before
  // seenCargoWhen existed has none.
  for (const f of seenCargoWhen ?? []) if (flag(cargo, f)) return true;
  if (seen.length === 0) return false;
  // Views and every event's visibility ask this of all cargo: the tags rule out nearly all of it first.
  const tags = typeOf(state, cargo).tags;
  const rules = seen.filter((s) => s.tags.some((t) => tags.includes(t)));
  if (rules.length === 0) return false;
  const board = boardOf(state.scenario);
  const terrain = terrainIdAt(board, board.grid.indexOf(carrier.loc.hex));
  const at = board.grid.indexOf(carrier.loc.hex);
  // notInOverlays: absent from the data of a game started before it existed.
  return terrain !== null && rules.some((s) => s.terrain.includes(terrain) && !(s.notInOverlays ?? []).some((o) => hasOverlay(board, at, o)));
}

/**
 * Visibility for an event that discloses these units: everyone, unless one of
 * them is concealed, in which case only the sides that may know all of them
 * read `data` and the others read `redacted()`. The redacted form must be
 * built from public facts only (hexes, markers, visible units).
 */
export function visibilityFor(
  state: GameState,
  units: readonly UnitState[],
  redacted?: () => { type: string; data: unknown },
): Visibility {
  let sides: SideId[] | null = null;
  for (const u of units) {
    const hiddenFrom = concealedFrom(state, u);
    if (hiddenFrom.length === 0) continue;
    const may = Object.keys(state.sides).filter((s) => !hiddenFrom.includes(s));
    sides = sides === null ? may : sides.filter((s) => may.includes(s));
  }
  if (sides === null) return { to: 'all' };
  const r = redacted?.();
  return r === undefined ? { to: 'sides', sides } : { to: 'sides', sides, redacted: r };
}

/** The same event as a given side reads it, or null when that side reads nothing. */
export function eventAsSeenBy<E extends RulesEvent>(e: E, side: SideId | null): { type: string; data: unknown } | null {
  if (e.visibility.to === 'all') return { type: e.type, data: e.data };
  if (side !== null && e.visibility.sides.includes(side)) return { type: e.type, data: e.data };
  return e.visibility.redacted ?? null;
}

/**
 * One event marking these units, however many of them are concealed: an event per unit would
 * count them for every side, since each event takes a version. The others read the marks of
 * the units in sight.
 */
export function marksOf(state: GameState, marks: ReadonlyArray<{ unit: string; flags?: JsonObject; attrs?: JsonObject }>): RulesEvent<'UnitsMarked'> {
  const units = marks.map((m) => state.units[m.unit]!);
  const seen = () => ({ type: 'UnitsMarked', data: { marks: marks.filter((m) => concealedFrom(state, state.units[m.unit]!).length === 0) } });
  return { type: 'UnitsMarked', data: { marks: [...marks] }, visibility: visibilityFor(state, units, seen) };
}
