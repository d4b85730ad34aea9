import { JsonObject } from '../../../model/json';
import { GameState, UnitState } from '../../../model/state';
import { boardOf } from '../../../engine/board';
import { patchUnit } from '../../../engine/evolve';
import { ResolveContext } from '../../../engine/kit/types';
import { Block } from '../../../engine/movement/context';
import { cargoOf, everythingAboard } from '../../../engine/queries';
import { EventBody } from '../../../engine/events';
import { Viewer } from '../../../engine/types';
import { GameView, UnitView } from '../../../engine/view';
import { airOps } from '../air-data';
import { hasAnyTag, hersGround, hersPoints } from '../air-queries';
import { GatorsExt, GState } from '../ext';
import { privateTo } from '../queries';

/**
 * GT-6N.1 "taken ashore ... and stays on it", Q-GT-29 "one refuelling point until the CH-53E
 * flies the HERS back to a ship": once ashore, the HERS may be flown off its hex (over jungle or
 * the sea, towards a ship) but is ashore again only on that hex until a ship has recovered it.
 * The hex is kept on the HERS (attr ashoreAt) from its first move or launch ashore, so a move
 * through the jungle one turn does not let it be set down on another beach the next. Before the
 * attr is written (a pair launched onto a beach, which has not yet moved) the hex it is ashore
 * on counts. The attr is the side's own: written by a record (HersTakenAshore), shown to it alone.
 */
export const ASHORE_AT = 'ashoreAt';
export const HERS_TAKEN_ASHORE = 'HersTakenAshore';

/** The HERS a carrier holds (none for any other unit). */
export function hersAboard(state: GameState, carrier: UnitState): UnitState[] {
  const d = airOps(state.scenario);
  if (!hasAnyTag(state, carrier, d.hersCarrierTags)) return [];
  return cargoOf(state, carrier.id).filter((h) => hasAnyTag(state, h, d.hersTags));
}

/** The hex a HERS stays on: the one it was taken ashore on, or none yet. */
function homeOf(state: GameState, hers: UnitState): string | undefined {
  const at = hers.attrs[ASHORE_AT];
  if (typeof at === 'string') return at;
  return hersPoints(state, hers.side).find((p) => p.hers.id === hers.id)?.hex;
}

/** The move hook (endProblem): a CH-53E holding a HERS that has been ashore ends ashore only on its hex. */
export function hersStays(state: GameState, movers: readonly UnitState[], at: number): Block | null {
  for (const m of movers) {
    // Most movers are no heavy-lift helicopter: this runs for every hex a move search reaches.
    const held = hersAboard(state, m);
    if (held.length === 0 || !hersGround(state, at)) continue;
    const label = boardOf(state.scenario).grid.label(at);
    for (const h of held) {
      const home = homeOf(state, h);
      if (home !== undefined && home !== label)
        return { ruleId: 'GT-6N.1', code: 'fuel/hers_stays', message: `${h.id} stays on ${home}, where it was taken ashore: ${m.id} may not set it down on ${label}, only fly it back to a ship` };
    }
  }
  return null;
}

/**
 * HersTakenAshore for the HERS aboard this carrier not yet held to a hex: the first of `hexes`
 * (the hex a move left, ashore before the attr was written, then where it ends; or where a
 * launch puts it) that is ashore.
 */
export function shoreNotes(state: GameState, carrierId: string, hexes: readonly string[]): EventBody[] {
  const c = state.units[carrierId];
  if (c === undefined) return [];
  const held = hersAboard(state, c).filter((h) => typeof h.attrs[ASHORE_AT] !== 'string');
  if (held.length === 0) return [];
  const grid = boardOf(state.scenario).grid;
  const hex = hexes.find((x) => hersGround(state, grid.indexOf(x)));
  return hex === undefined ? [] : held.map((h) => ({ type: HERS_TAKEN_ASHORE, data: { unit: h.id, hex } }));
}

/** The hexes a move may take its HERS ashore on (shoreNotes, noteAshore): the one it left, then the one it ends in. */
export function moveShoreHexes(path: readonly string[]): string[] {
  return [path[0]!, path[path.length - 1]!];
}

/**
 * Writes them as P1's own records (own-records.ts): in sight ashore or not, the others read the
 * same run, so the record tells nothing of whether the CH-53E holds the HERS; what shows of it
 * is the HERS itself on the beach. Nothing later in the run reads the attr: only this CH-53E's
 * own move or launch does, once a phase.
 */
export function noteAshore(ctx: ResolveContext<GatorsExt>, carrierId: string, hexes: readonly string[]): void {
  const side = ctx.state.units[carrierId]?.side;
  if (side !== undefined) for (const e of shoreNotes(ctx.state, carrierId, hexes)) ctx.emit(privateTo(side, e.type, e.data));
}

export function takenAshore(state: GState, data: unknown): GState {
  const d = data as { unit: string; hex: string };
  return patchUnit(state, d.unit, (u) => ({ ...u, attrs: { ...u.attrs, [ASHORE_AT]: d.hex } }));
}

/** The others' view of a HERS shows no ashoreAt: they never read the record that wrote it. */
export function withoutShore(base: GameView, viewer: Viewer): GameView {
  if (viewer.kind === 'referee') return base;
  const mine = (u: UnitView) => viewer.kind === 'side' && u.side === viewer.side;
  if (!base.units.some((u) => !mine(u) && ASHORE_AT in u.attrs)) return base;
  return { ...base, units: base.units.map((u) => (mine(u) || !(ASHORE_AT in u.attrs) ? u : { ...u, attrs: dropShore(u.attrs) })) };
}

function dropShore(attrs: JsonObject): JsonObject {
  return Object.fromEntries(Object.entries(attrs).filter(([k]) => k !== ASHORE_AT));
}

/** A unit recovered aboard a ship: the HERS it holds may go ashore anywhere again (Q-GT-29). Part of UnitRecovered's evolve, so no event tells it. */
export function forgetShore(state: GState, unit: string): GState {
  let out = state;
  for (const x of everythingAboard(state, unit)) if (ASHORE_AT in x.attrs) out = patchUnit(out, x.id, (u) => ({ ...u, attrs: dropShore(u.attrs) }));
  return out;
}
