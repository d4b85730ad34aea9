import { GameState, UnitState } from '../../../model/state';
import { boardOf } from '../../../engine/board';
import { ResolveContext } from '../../../engine/kit/types';
import { allUnits, flag } from '../../../engine/queries';
import { visibilityFor } from '../../../engine/visibility';
import { GatorsExt } from '../ext';
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

function mark(ctx: ResolveContext, u: UnitState, work: Work | null): void {
  ctx.emit({ type: 'UnitMarked', data: { unit: u.id, attrs: { [WORK]: work } }, visibility: visibilityFor(ctx.state, [u]) });
}

/** Stops the work of these units (they moved, attacked or were attacked). */
export function interrupt(ctx: ResolveContext, units: readonly UnitState[]): void {
  for (const u of units) if (workOf(ctx.state.units[u.id] ?? u) !== undefined) mark(ctx, u, null);
}

/** At the start of a movement phase: each worker of the moving side starts, goes on or finishes. */
export function workOnDebris(ctx: ResolveContext<GatorsExt>): void {
  const d = groundData(ctx.state.scenario).debris;
  const board = boardOf(ctx.state.scenario);
  for (const unit of allUnits(ctx.state).filter((u) => u.side === ctx.side)) {
    const u = ctx.state.units[unit.id]!;
    const w = workOf(u);
    const r = u.loc.at === 'hex' ? role(ctx.state, u, u.loc.hex) : null;
    if (r === null || u.loc.at !== 'hex') {
      if (w !== undefined) mark(ctx, u, null);
      continue;
    }
    const hex = u.loc.hex;
    if (w?.hex !== hex) {
      mark(ctx, u, { hex, turns: 0 });
      continue;
    }
    const turns = w.turns + 1;
    const need = r === 'remove' && board.bridges.has(board.grid.indexOf(hex)) ? d.bridgeTurns : d.turns;
    if (turns < need) {
      mark(ctx, u, { hex, turns });
      continue;
    }
    mark(ctx, u, null);
    ctx.emit(publicOf(r === 'remove' ? 'DebrisRemoved' : 'DebrisTrapsCleared', { hex }));
  }
}

/** At the end of the turn: workers that attacked this turn have not had their full turn. */
export function attackersStop(ctx: ResolveContext<GatorsExt>): void {
  interrupt(
    ctx,
    allUnits(ctx.state).filter((u) => workOf(u) !== undefined && flag(u, 'attacked')),
  );
}
