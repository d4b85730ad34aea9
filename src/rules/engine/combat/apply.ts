import { JsonObject } from '../../model/json';
import { GameState, UnitState } from '../../model/state';
import { boardOf } from '../board';
import { ResolveContext } from '../kit/types';
import { everythingAboard, hexOf, unitsAt } from '../queries';
import { concealedFrom, visibilityFor } from '../visibility';
import { RetreatBlocked, retreatPath } from './retreat';

/**
 * Eliminates a unit and everything carried aboard it (GT-7E.1, GT-7F.2). A
 * concealed unit is revealed by its elimination: the counter leaves the map,
 * so the event is public and marked `reveals`.
 */
export function eliminate(ctx: ResolveContext, unit: UnitState, cause: string): void {
  const aboard = everythingAboard(ctx.state, unit.id).filter((u) => u.loc.at === 'carried');
  const reveals = [unit, ...aboard].some((u) => concealedFrom(ctx.state, u).length > 0);
  ctx.emit({
    type: 'UnitEliminated',
    data: { unit: unit.id, cause, aboard: aboard.map((u) => u.id) },
    visibility: { to: 'all' },
    ...(reveals ? { reveals: true } : {}),
  });
}

/**
 * Retreats the stack of units standing in `hex` (GT-7N.2: a retreat applies to
 * the whole stack) or, if none can be found, eliminates them. Returns the path.
 */
export function retreatOrEliminate(
  ctx: ResolveContext,
  stack: readonly UnitState[],
  hexes: number,
  awayFrom: readonly string[],
  mayEnterEnemyZoc: boolean,
  cause: string,
  blocked?: RetreatBlocked,
): string[] | null {
  const state = ctx.state;
  const board = boardOf(state.scenario);
  const at = hexOf(state, stack[0]!);
  if (at === null) return null;
  const path = retreatPath(state, stack, board.grid.indexOf(at), hexes, { awayFrom: awayFrom.map((h) => board.grid.indexOf(h)), mayEnterEnemyZoc, blocked });
  return carryOutRetreat(ctx, stack, at, path, cause);
}

/**
 * Moves the stack along `path` from `at`, or eliminates it when there is no
 * path. `ownerNote` adds to the retreat's data what only the stack's owner
 * may read (how its own order's choice fared); the others read the retreat
 * as they would without it.
 */
export function carryOutRetreat(ctx: ResolveContext, stack: readonly UnitState[], at: string, path: readonly string[] | null, cause: string, ownerNote?: JsonObject): string[] | null {
  if (path === null) {
    for (const u of stack) if (ctx.state.units[u.id]?.loc.at !== 'eliminated') eliminate(ctx, u, `${cause}: no retreat`);
    return null;
  }
  const [lead, ...rest] = stack;
  const full = [at, ...path];
  const data = { unit: lead!.id, path: full, ...(rest.length > 0 ? { with: rest.map((u) => u.id) } : {}) };
  const visibility = visibilityFor(ctx.state, stack, () => ({ type: 'MarkerRetreated', data: { path: full } }));
  if (ownerNote === undefined) ctx.emit({ type: 'UnitRetreated', data, visibility });
  else
    ctx.emit({
      type: 'UnitRetreated',
      data: { ...data, ...ownerNote },
      visibility: { to: 'sides', sides: [lead!.side], redacted: visibility.to === 'all' ? { type: 'UnitRetreated', data } : (visibility.redacted ?? { type: 'MarkerRetreated', data: { path: full } }) },
    });
  return [...path];
}

/** Units of `side` standing in a hex themselves (a stack; cargo and towed guns go with them). */
export function stackAt(state: GameState, hex: string, side: string): UnitState[] {
  return unitsAt(state, hex).filter((u) => u.side === side);
}

/**
 * The stack that a retreat of `movers` (counters of one side standing in one
 * hex) takes along (GT-7N.2: a retreat applies to the whole stack): the movers
 * first, so that the first of them names the retreat, then the rest of the
 * stack in unit order, but for `staying`. A defender's stack is stackAt.
 */
export function stackWith(state: GameState, movers: readonly UnitState[], staying: ReadonlySet<string>): UnitState[] {
  const first = movers[0];
  const at = first === undefined ? null : hexOf(state, first);
  if (at === null) return [...movers];
  const ids = new Set(movers.map((u) => u.id));
  return [...movers, ...stackAt(state, at, first!.side).filter((u) => !ids.has(u.id) && !staying.has(u.id))];
}
