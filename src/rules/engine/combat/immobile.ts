import { OddsCombat } from '../../model/scenario';
import { GameState, UnitState } from '../../model/state';
import { ResolveContext } from '../kit/types';
import { typeOf, unitsAt } from '../queries';
import { withTowed } from '../stacking';
import { eliminate, stackAt } from './apply';

/**
 * GT-7B.6: a counter of speed 0 that nothing can tow, that is fewer of its
 * towers (units.json `towable`) standing in `hex` than it needs, hitched or not.
 */
export function immobileAt(state: GameState, u: UnitState, hex: string): boolean {
  const type = typeOf(state, u);
  if (type.speed > 0) return false;
  const tow = type.towable;
  if (tow === undefined) return true;
  const towers = unitsAt(state, hex).filter((t) => t.side === u.side && tow.by.some((b) => typeOf(state, t).tags.includes(b)));
  return towers.length < tow.towers;
}

/**
 * GT-7B.6 with GT-7N.2: a retreat result reaches every counter of the defending
 * stack, so a counter of it that cannot move and that nothing there can tow
 * takes the override (D R2 = D X) itself, as it would defending alone; the
 * rest retreat without it. Otherwise a truck's retreat would carry off a Hawk
 * that one truck cannot tow (GT-6K.5).
 */
export function strandImmobile(ctx: ResolveContext, t: OddsCombat, result: string, def: UnitState, hex: string, cause: string): void {
  const o = t.resultOverrides.find((r) => r.when === 'defender-immobile' && (r.from.length === 0 || r.from.includes(result)));
  if (o === undefined || t.results[o.result]?.effect !== 'eliminate') return;
  for (const u of withTowed(ctx.state, stackAt(ctx.state, hex, def.side)))
    if (u.id !== def.id && immobileAt(ctx.state, u, hex)) eliminate(ctx, u, `${cause}: ${o.ruleId}`);
}
