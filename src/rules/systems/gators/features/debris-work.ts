import { GameState, UnitState } from '../../../model/state';
import { boardOf } from '../../../engine/board';
import { ResolveContext } from '../../../engine/kit/types';
import { allUnits, flag } from '../../../engine/queries';
import { concealedFrom, marksOf } from '../../../engine/visibility';
import { JsonObject } from '../../../model/json';
import { GatorsExt } from '../ext';
import { moduleOn } from '../data';
import { groundData } from '../ground-data';
import { hasDebris, publicOf, tagged } from '../queries';
import { trapsCleared } from './debris-state';

/**
 * Removing Debris and clearing its traps in "a full turn" (GT-6Q.6–6Q.8,
 * Q-GT-32): a worker that begins its side's movement phase in a Debris hex
 * starts (attr `debrisWork` = { hex, turns: 0 }); at the start of each later
 * movement phase of its side it has worked one more turn, if in the meantime
 * it has not moved (afterMove), attacked (its `attacked` flag, read at the end
 * of the turn, before flags are cleared) or been attacked (any result against
 * its hex). Engineers and Militia remove the marker after one turn, two on a
 * bridge; SEALs clear the traps after one. The worker's progress is marked
 * with the unit's visibility (a camouflaged Militia's work stays P2's); the
 * removal itself is public, as the marker leaves the table.
 */
export const WORK = 'debrisWork';
type Work = { readonly hex: string; readonly turns: number };

function workOf(u: UnitState): Work | undefined {
  return u.attrs[WORK] as Work | undefined;
}

function role(state: GameState, u: UnitState, hex: string): 'remove' | 'clear' | null {
  const d = groundData(state.scenario).debris;
  if (!hasDebris(state, hex)) return null;
  if (tagged(state, u, ...d.removerTags)) return 'remove';
  if (tagged(state, u, ...d.clearerTags) && !trapsCleared(state, hex)) return 'clear';
  return null;
}

type Mark = { unit: string; attrs?: JsonObject; flags?: JsonObject };
const mark = (u: UnitState, work: Work | null): Mark => ({ unit: u.id, attrs: { [WORK]: work } });

/** The marks that stop the work of these units (they moved, attacked or were attacked). */
export function interruptMarks(state: GameState, units: readonly UnitState[]): Mark[] {
  return units.filter((u) => workOf(state.units[u.id] ?? u) !== undefined).map((u) => mark(u, null));
}

/**
 * The marks in one event, written also when it marks nobody if any of `hiders` is under a "?":
 * whether a hidden unit works on Debris is as hidden as what it is (a count of events would tell).
 */
export function emitWorkMarks(ctx: ResolveContext, marks: readonly Mark[], hiders: readonly UnitState[]): void {
  if (marks.length > 0 || hiders.some((u) => concealedFrom(ctx.state, u).length > 0)) ctx.emit(marksOf(ctx.state, marks));
}

/** Stops their work in one event, written also when one of them is under a "?" and works nowhere. */
export function interrupt(ctx: ResolveContext, units: readonly UnitState[]): void {
  emitWorkMarks(ctx, interruptMarks(ctx.state, units), units);
}

/** The scenario.json module that switches Debris on. */
export const DEBRIS_MODULE = 'debris';

/**
 * Q-GT-32 "not defending" for an attack the odds step does not make (the HERS blast, GT-6N.8),
 * whose results no odds hook sees: the units it attacks stop their work, as the debris hook
 * stops those of an odds attack's hex. Nothing where Debris is not played.
 */
export function attackedOutsideOdds(ctx: ResolveContext, units: readonly UnitState[]): void {
  if (moduleOn(ctx.state.scenario, DEBRIS_MODULE)) interrupt(ctx, units);
}

/**
 * At the start of a movement phase: each worker of the moving side starts, goes on or finishes,
 * in one event (emitWorkMarks: also when a "?" of the side stands on Debris and marks nobody).
 */
export function workOnDebris(ctx: ResolveContext<GatorsExt>): void {
  const d = groundData(ctx.state.scenario).debris;
  const board = boardOf(ctx.state.scenario);
  const marks: Mark[] = [];
  const done: Array<{ hex: string; removed: boolean }> = [];
  const onDebris: UnitState[] = [];
  for (const u of allUnits(ctx.state).filter((x) => x.side === ctx.side)) {
    const w = workOf(u);
    if (u.loc.at === 'hex' && hasDebris(ctx.state, u.loc.hex)) onDebris.push(u);
    const r = u.loc.at === 'hex' ? role(ctx.state, u, u.loc.hex) : null;
    if (r === null || u.loc.at !== 'hex') {
      if (w !== undefined) marks.push(mark(u, null));
      continue;
    }
    const hex = u.loc.hex;
    const turns = w?.hex === hex ? w.turns + 1 : 0;
    const need = r === 'remove' && board.bridges.has(board.grid.indexOf(hex)) ? d.bridgeTurns : d.turns;
    if (turns === 0 || turns < need) {
      marks.push(mark(u, { hex, turns }));
      continue;
    }
    marks.push(mark(u, null));
    done.push({ hex, removed: r === 'remove' });
  }
  emitWorkMarks(ctx, marks, onDebris);
  for (const x of done) ctx.emit(publicOf(x.removed ? 'DebrisRemoved' : 'DebrisTrapsCleared', { hex: x.hex }));
}

/** At the end of the turn: workers that attacked this turn have not had their full turn. */
export function attackersStop(ctx: ResolveContext<GatorsExt>): void {
  interrupt(
    ctx,
    allUnits(ctx.state).filter((u) => flag(u, 'attacked')),
  );
}
