import { z } from 'zod';
import { CombatEffect } from '../../../model/scenario';
import { GameState } from '../../../model/state';
import { boardOf } from '../../../engine/board';
import { eliminate } from '../../../engine/combat/apply';
import { AttackSetup } from '../../../engine/combat/odds-step';
import { OrderHandler } from '../../../engine/kit/types';
import { isViolation, ownUnit, unitIdSchema } from '../../../engine/orders/common';
import { enemiesOf, flag } from '../../../engine/queries';
import { violation } from '../../../engine/violation';
import { concealedFrom } from '../../../engine/visibility';
import { SideId, Violation } from '../../../engine/types';
import { GatorsFeature } from '../feature';
import { GatorsExt } from '../ext';
import { isLanded } from '../air-queries';
import { helpersNear, hexIs } from '../ground';
import { groundData } from '../ground-data';
import { publicOf, tagged } from '../queries';
import { cancel } from '../orders/wrap';

/**
 * Small teams (GT-2.12–GT-2.16, GT-2.20).
 * - GT-2.13: attacking a Recon, Scout/Sniper or SEAL team needs a 1 first
 *   (units.json pre-roll), 1–2 when the attacker's side has an aircraft next
 *   to the team and the team is neither in jungle nor in a city. A failed roll
 *   is the kernel's cancelled attack (GT-7B.1). Only an aircraft in the air
 *   helps (Q-GT-51): the jungle and the city hide the team from above, and a
 *   landed aircraft (GT-7H.1) is a ground target, not a watcher overhead.
 * - GT-2.20: a team crewing a FAV is its cargo: the FAV is what is attacked,
 *   and it has no pre-roll, so the team's concealment is lost by itself.
 * - GT-2.15: the Scout/Sniper's shot at a single person, in the attack phase,
 *   at range 1 (3–6) or 2 (4–6): the order `snipe`. The first scenario has no
 *   single-person counters (GT-2.9): a shot here is always refused; the rule
 *   is data (rules.json combat.sniper) for the scenarios that have them.
 */
function widened(state: GameState, attack: AttackSetup, effects: readonly CombatEffect[]): readonly CombatEffect[] {
  const d = groundData(state.scenario).recon;
  const team = attack.defender;
  if (!tagged(state, team.unit, ...d.teamTags)) return effects;
  const board = boardOf(state.scenario);
  if (hexIs(board, team.hex, d.notInTerrain, d.notInOverlays)) return effects;
  const side = attack.attackers[0]?.unit.side;
  if (side === undefined || helpersNear(state, side, team.hex, d.helperTags, 1).every((u) => isLanded(state, u, side))) return effects;
  return effects.map((e) => (e.kind === 'pre-roll' && e.ruleId === d.ruleId ? { ...e, max: Math.max(e.max ?? 0, d.widenedMax) } : e));
}

export const snipeSchema = z.strictObject({ kind: z.literal('snipe'), unit: unitIdSchema, target: unitIdSchema });
export type SnipeOrder = z.infer<typeof snipeSchema>;

function checkSnipe(state: GameState, side: SideId, o: SnipeOrder, i: number): Violation[] {
  const d = groundData(state.scenario).sniper;
  const u = ownUnit(state, side, o.unit, i);
  if (isViolation(u)) return [u];
  if (!tagged(state, u, ...d.unitTags) || u.loc.at !== 'hex') return [violation(d.ruleId, 'snipe/not_a_sniper', `${u.id} cannot snipe`, i)];
  if (flag(u, 'attacked')) return [violation('Q-GT-33', 'combat/already_attacked', `${u.id} has already attacked this phase`, i)];
  const t = state.units[o.target];
  // A concealed or absent target is refused alike: the shooter cannot see it.
  if (t === undefined || t.side === side || t.loc.at !== 'hex' || concealedFrom(state, t).includes(side))
    return [violation('GT-7A.1', 'combat/no_target', `no visible enemy ${o.target}`, i)];
  if (!tagged(state, t, ...d.targetTags)) return [violation(d.ruleId, 'snipe/not_single_person', `${t.id} is not a single person`, i)];
  const board = boardOf(state.scenario);
  const range = board.grid.distance(board.grid.indexOf(u.loc.hex), board.grid.indexOf(t.loc.hex));
  if (d.hitFrom[String(range)] === undefined) return [violation(d.ruleId, 'combat/out_of_range', `${t.id} is ${range} hexes away`, i)];
  return [];
}

function snipeOrder(): OrderHandler<GatorsExt, SnipeOrder> {
  return {
    kind: 'snipe',
    schema: snipeSchema,
    validate: checkSnipe,
    // The visible single persons this sniper may shoot, by the same check as validation (a "?" is
    // never offered: checkSnipe refuses what the shooter cannot see). Unnarstan has none (GT-2.9).
    options: (state, side, unitId) => {
      const d = groundData(state.scenario).sniper;
      const u = state.units[unitId];
      if (u === undefined || u.side !== side || u.loc.at !== 'hex' || !tagged(state, u, ...d.unitTags)) return {};
      const other = enemiesOf(state, side)
        .filter((t) => tagged(state, t, ...d.targetTags) && checkSnipe(state, side, { kind: 'snipe', unit: unitId, target: t.id }, 0).length === 0)
        .map((t) => ({ action: 'snipe', detail: { target: t.id } }));
      return other.length > 0 ? { other } : {};
    },
    optionOrder: (unit, x) => (x.action === 'snipe' ? { kind: 'snipe', unit, target: (x.detail as { target: string }).target } : null),
    project: (_s, _side, o) => [{ type: 'UnitMarked', data: { unit: o.unit, flags: { attacked: true } } }],
    resolve: (ctx, o, i) => {
      const v = checkSnipe(ctx.state, ctx.side, o, i);
      if (v.length > 0) return cancel(ctx, i, 'snipe', v[0]!);
      const d = groundData(ctx.state.scenario).sniper;
      const board = boardOf(ctx.state.scenario);
      const u = ctx.state.units[o.unit]!;
      const t = ctx.state.units[o.target]!;
      const at = (x: typeof u) => board.grid.indexOf(x.loc.at === 'hex' ? x.loc.hex : '');
      const need = d.hitFrom[String(board.grid.distance(at(u), at(t)))]!;
      ctx.emit({ type: 'UnitMarked', data: { unit: o.unit, flags: { attacked: true } }, visibility: { to: 'all' } });
      const roll = ctx.dice.roll(d.die, `sniper shot at ${o.target} (${d.ruleId})`);
      ctx.emit(publicOf('SniperShot', { unit: o.unit, target: o.target, roll, need, hit: roll >= need }));
      if (roll >= need) eliminate(ctx, ctx.state.units[o.target]!, `sniper shot (${d.ruleId})`);
    },
  };
}

export const recon: GatorsFeature = {
  id: 'recon',
  rules: ['GT-2.13', 'GT-2.15', 'GT-2.20', 'Q-GT-51'],
  phases: { combat: { orders: () => [snipeOrder()] } },
  odds: { adjustEffects: widened },
  events: { SniperShot: (s) => s },
};
