import { GameState, UnitState } from '../../model/state';
import { Board, boardOf, hasOverlay, terrainIdAt } from '../../engine/board';
import { EventBody } from '../../engine/events';
import { ResolveContext } from '../../engine/kit/types';
import { allUnits, hexOf, unitsAt } from '../../engine/queries';
import { concealedFrom } from '../../engine/visibility';
import { SideId } from '../../engine/types';
import { tagged } from './queries';

/** Small reads and one write that the ground special rules (part 3) share. */

/** Units of `side` standing (not carried) in a hex. */
export function standingAt(state: GameState, hex: string, side: SideId): UnitState[] {
  return unitsAt(state, hex).filter((u) => u.side === side);
}

/** Whether any unit of another side than `side` is in or next to hex i (carried units count where their carrier is). */
export function enemyWithin(state: GameState, side: SideId, i: number, distance: number): boolean {
  const board = boardOf(state.scenario);
  return allUnits(state).some((u) => {
    if (u.side === side) return false;
    const h = hexOf(state, u);
    return h !== null && board.grid.distance(board.grid.indexOf(h), i) <= distance;
  });
}

/** Whether hex i is of one of these terrains or carries one of these overlays. */
export function hexIs(board: Board, i: number, terrains: readonly string[], overlays: readonly string[] = []): boolean {
  const t = terrainIdAt(board, i);
  return (t !== null && terrains.includes(t)) || overlays.some((o) => hasOverlay(board, i, o));
}

/**
 * Units of `side` that lend a bonus to others (a spotter, an M113, an aircraft
 * next to a small team): never a camouflaged one, whose help would show in the
 * attack's public record and so tell the enemy what is under the marker.
 */
export function helpersNear(state: GameState, side: SideId, i: number, tags: readonly string[], distance: number): UnitState[] {
  const board = boardOf(state.scenario);
  return allUnits(state).filter(
    (u) =>
      u.side === side &&
      u.loc.at === 'hex' &&
      concealedFrom(state, u).length === 0 &&
      tagged(state, u, ...tags) &&
      board.grid.distance(board.grid.indexOf(u.loc.hex), i) <= distance,
  );
}

/** The event that turns a camouflaged counter face up (GT-6L), as resolution emits it and validation projects it. */
export function revealedEvent(u: UnitState, hex: string | null, cause: string): EventBody {
  return { type: 'UnitRevealed', data: { unit: u.id, type: u.type, hex, cause } };
}

/** Turns a camouflaged counter face up (GT-6L): public, and marked as revealing. */
export function reveal(ctx: ResolveContext, u: UnitState, cause: string): void {
  ctx.emit({ ...revealedEvent(u, hexOf(ctx.state, u), cause), visibility: { to: 'all' }, reveals: true });
}
