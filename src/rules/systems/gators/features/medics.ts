import { z } from 'zod';
import { Json } from '../../../model/json';
import { GameState, UnitState } from '../../../model/state';
import { boardOf } from '../../../engine/board';
import { eliminate } from '../../../engine/combat/apply';
import { ReactionKind, ResolveContext } from '../../../engine/kit/types';
import { notOwnUnits, unitIdSchema } from '../../../engine/orders/common';
import { allUnits, flag } from '../../../engine/queries';
import { GatorsFeature } from '../feature';
import { GatorsExt } from '../ext';
import { groundData } from '../ground-data';
import { idOrder, publicOf, tagged } from '../queries';

/**
 * The Medical Team (GT-2.29, GT-6O, GT-7M, Q-GT-30).
 * - At the end of its side's movement phase (= when the attack phase
 *   begins), a Medical Team standing on a city hex that did not move or land
 *   this phase rolls a d6; on 5–6 the enemy Militia counter nearest to it (in
 *   hexes, anywhere on the map, camouflaged or not) surrenders: it is removed.
 *   Ties: the phase start may not stop for a reaction (kernel), so P2 decides
 *   ahead, by standing orders { "order": [militia ids] } under the reaction
 *   kind "militia-surrender" (never asked): the first listed of the nearest
 *   surrenders; unlisted ones, or none listed, by counter number.
 * - Any result against the medics is D R1 (GT-7M.1, over GT-7B.5's D X for a
 *   zero defense); they die only if they cannot retreat (the kernel's retreat),
 *   or as D X when Guerrillas are among the attackers (hostages).
 */
export const SURRENDER = 'militia-surrender';
/** The scenario.json module that switches these rules on (features.ts MODULES). */
export const MEDICS_MODULE = 'medics';
const orderSchema = z.strictObject({ order: z.array(unitIdSchema).max(50) });

function surrendering(state: GameState, medics: UnitState, side: string): UnitState | undefined {
  const d = groundData(state.scenario).medics;
  const board = boardOf(state.scenario);
  const at = board.grid.indexOf(medics.loc.at === 'hex' ? medics.loc.hex : '');
  const militia = allUnits(state).filter((u) => u.side !== side && u.loc.at === 'hex' && tagged(state, u, ...d.surrenderTags));
  if (militia.length === 0) return undefined;
  const dist = (u: UnitState) => board.grid.distance(board.grid.indexOf(u.loc.at === 'hex' ? u.loc.hex : ''), at);
  const nearest = Math.min(...militia.map(dist));
  const prefs = orderSchema.safeParse(state.sides[militia[0]!.side]?.secret.standing[SURRENDER]);
  const rank = (u: UnitState) => {
    const k = prefs.success ? prefs.data.order.indexOf(u.id) : -1;
    return k < 0 ? Infinity : k;
  };
  return militia.filter((u) => dist(u) === nearest).sort((a, b) => rank(a) - rank(b) || idOrder(a.id, b.id))[0];
}

function propaganda(ctx: ResolveContext<GatorsExt>): void {
  const d = groundData(ctx.state.scenario).medics;
  const board = boardOf(ctx.state.scenario);
  // Read once, not per unit through the context's getters.
  const { state, side } = ctx;
  const teams = allUnits(state).filter(
    (u) => u.side === side && u.loc.at === 'hex' && tagged(state, u, ...d.tags) && board.cityOf[board.grid.indexOf(u.loc.hex)]! >= 0 && !flag(u, 'moved') && !flag(u, 'unloaded'),
  );
  for (const team of teams) {
    if (surrendering(ctx.state, team, ctx.side) === undefined) return;
    const roll = ctx.dice.roll(d.die, `medics in ${team.loc.at === 'hex' ? team.loc.hex : '?'} (${d.ruleId})`);
    const success = d.rolls.includes(roll);
    ctx.emit(publicOf('MedicsRolled', { unit: team.id, roll, success }));
    const victim = success ? surrendering(ctx.state, team, ctx.side) : undefined;
    if (victim !== undefined) eliminate(ctx, victim, `surrendered to the medics (${d.ruleId})`);
  }
}

/**
 * GT-7M.1: the result against `defender` when it is the Medical Team (D R1, or D X with
 * Guerrillas among the attackers); any other defender keeps `result`. Also read by attacks
 * that are no odds attack and have no attackers (the HERS explosion, GT-6N.8).
 */
export function medicsResult(state: GameState, defender: UnitState, attackers: readonly UnitState[], result: string): string {
  const d = groundData(state.scenario).medics;
  if (!tagged(state, defender, ...d.tags)) return result;
  return attackers.some((a) => tagged(state, a, ...d.hostageTakerTags)) ? 'D X' : d.result;
}

const preference: ReactionKind<GatorsExt> = {
  answerSchema: orderSchema as z.ZodType<Json>,
  standingSchema: orderSchema as z.ZodType<Json>,
  validateAnswer: () => [],
  checkStanding: (state, side, standing, field) => notOwnUnits(state, side, `${field}.order`, (standing as z.infer<typeof orderSchema>).order),
  fromStanding: (_s, _r, standing) => standing ?? null,
  none: () => ({ order: [] }),
};

export const medics: GatorsFeature = {
  id: 'medics',
  rules: ['GT-6O.1', 'Q-GT-30', 'GT-7M.1', 'GT-2.29'],
  reactions: { [SURRENDER]: preference },
  phases: { combat: { onEnter: propaganda } },
  odds: { adjustResult: (state, attack, result) => medicsResult(state, attack.defender.unit, attack.attackers.map((a) => a.unit), result) },
  events: { MedicsRolled: (s) => s },
};
