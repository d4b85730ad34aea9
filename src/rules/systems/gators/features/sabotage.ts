import { z } from 'zod';
import { GameState, UnitState } from '../../../model/state';
import { boardOf } from '../../../engine/board';
import { attackerBarred, pickDefender, table } from '../../../engine/combat/attack-checks';
import { stackWith } from '../../../engine/combat/apply';
import { OddsHooks, resolveOddsAttack, resumeOddsAttack } from '../../../engine/combat/odds-step';
import { ChoiceStage, chosenDefender, isChoiceStage } from '../../../engine/combat/owner-choice';
import { retreatAttackingStack, retreatChoiceField, validateRetreatChoices } from '../../../engine/combat/attacker-retreat';
import { OrderHandler, ResolveContext, Resume } from '../../../engine/kit/types';
import { isViolation, labelSchema, ownUnit, unitIdSchema } from '../../../engine/orders/common';
import { flag, mediumOf, typeOf } from '../../../engine/queries';
import { violation } from '../../../engine/violation';
import { concealedFrom } from '../../../engine/visibility';
import { SideId, Violation } from '../../../engine/types';
import { neighbourHexes } from '../air-queries';
import { CombinedHooks, GatorsFeature } from '../feature';
import { GatorsExt } from '../ext';
import { standingAt } from '../ground';
import { groundData } from '../ground-data';
import { publicOf, tagged } from '../queries';
import { cancel } from '../orders/wrap';

/**
 * The SEALs' one sabotage attack of the game (GT-7K, Q-GT-43), in the
 * landing side's attack phase, from a land hex into an adjacent one:
 * (1)–(3) against the defender of the hex on the fixed column its kind gives
 * (rules.json combat.sabotage.targets: 4 heavy weapons, weapon crews, jeeps,
 * artillery; 3 tanks and APCs; 2 Guerrillas, without their pre-roll), no
 * column shifts, die modifiers and attacker results as usual; (4) against
 * every aircraft standing on an airfield hex, one roll each on column 3
 * (column 1 shifted two right for aircraft on the ground), a retreat result
 * destroying the aircraft (GT-7H.1), A X ignored, and the longest A R rolled
 * carried out by the SEALs after the last aircraft. The SEALs' strength is 0:
 * the attack uses 1 for the odds it does not read. Against a "?" the kind is
 * known only at resolution: a counter that is no sabotage target cancels the
 * attack, which still counts as the SEALs' one (as Q-GT-27 treats attacks).
 * An A R is the SEALs' owner's to steer (Q-GT-35): `retreat`, as an attacker's
 * in an attack order (attacker-retreat.ts); without it the engine's path. Against
 * one counter (1)–(3) the defender's owner chooses as against any attack when its
 * standing orders say "ask": the counter of a tie (Q-GT-44), whose kind then gives
 * the column, and its retreat path (Q-GT-35). Against aircraft there is nothing
 * to choose: a retreat destroys them, and each rolls in turn.
 */
export const sabotageSchema = z.strictObject({ kind: z.literal('sabotage'), unit: unitIdSchema, target: labelSchema, retreat: retreatChoiceField.optional() });
export type SabotageOrder = z.infer<typeof sabotageSchema>;

const USED = 'sabotageUsed';

type Mode = { readonly kind: 'unit'; readonly column: string; readonly skipPreRolls: boolean } | { readonly kind: 'aircraft'; readonly column: string; readonly aircraft: readonly UnitState[] };

/**
 * How the attack on `hex` goes; null when nothing there may be sabotaged. The defending counter is
 * the engine's pick unless its owner chose another (`chosen`): from the real state at resolution,
 * from what the SEALs' side can know (`knownTo`) while it plans.
 */
function modeAt(state: GameState, h: CombinedHooks, side: SideId, hex: string, chosen?: UnitState, knownTo: SideId | null = null): Mode | null {
  const d = groundData(state.scenario).sabotage;
  const board = boardOf(state.scenario);
  const def = chosen ?? pickDefender(state, hex, side, h.odds, knownTo);
  if (def === undefined) return null;
  const aircraft = standingAt(state, hex, def.side).filter((u) => tagged(state, u, ...d.aircraft.tags));
  if (board.airfieldOf[board.grid.indexOf(hex)]! >= 0 && aircraft.length > 0) return { kind: 'aircraft', column: d.aircraft.column, aircraft };
  const t = d.targets.find((x) => tagged(state, def, ...x.tags));
  return t === undefined ? null : { kind: 'unit', column: t.column, skipPreRolls: t.skipPreRolls };
}

function checkSabotage(state: GameState, h: CombinedHooks, side: SideId, o: SabotageOrder, i: number): Violation[] {
  const u = ownUnit(state, side, o.unit, i);
  if (isViolation(u)) return [u];
  const d = groundData(state.scenario).sabotage;
  if (!tagged(state, u, ...d.unitTags)) return [violation(d.ruleId, 'sabotage/not_seals', `${u.id} makes no sabotage attacks`, i)];
  if (flag(u, USED)) return [violation('GT-7K.2', 'sabotage/used', `${u.id} has made its sabotage attack`, i)];
  if (flag(u, 'attacked')) return [violation('Q-GT-33', 'combat/already_attacked', `${u.id} has already attacked this phase`, i)];
  const board = boardOf(state.scenario);
  if (u.loc.at !== 'hex' || mediumOf(board, typeOf(state, u), board.grid.indexOf(u.loc.hex)) !== 'land') return [violation('GT-7K.2', 'sabotage/not_on_land', `${u.id} must stand on land`, i)];
  const barred = attackerBarred(state, u, i, h.odds);
  if (barred.length > 0) return barred;
  const at = board.grid.indexOf(o.target);
  if (at < 0 || board.grid.distance(board.grid.indexOf(u.loc.hex), at) !== 1) return [violation(d.ruleId, 'sabotage/not_adjacent', `${o.target} is not next to ${u.id}`, i)];
  const def = pickDefender(state, o.target, side, h.odds, side);
  if (def === undefined) return [violation('GT-7A.1', 'combat/no_target', `no enemy unit in ${o.target}`, i)];
  // Under a "?" the kind of target is not known to the SEALs: the attack may be tried (and is cancelled at resolution).
  if (!concealedFrom(state, def).includes(side) && modeAt(state, h, side, o.target, undefined, side) === null) return [violation(d.ruleId, 'sabotage/not_a_target', `${def.id} is not a sabotage target`, i)];
  return validateRetreatChoices(state, [{ unit: o.unit, retreat: o.retreat }], o.target, i);
}

/** The SEALs as the odds step's attacker, with their owner's retreat choice if any. */
function sealsOf(o: SabotageOrder): { unit: string; retreat?: SabotageOrder['retreat'] }[] {
  return [o.retreat === undefined ? { unit: o.unit } : { unit: o.unit, retreat: o.retreat }];
}

/** The SEALs attack with strength 1 on a fixed column: no column shifts, the data and hook die modifiers stay. */
function fixedHooks(h: CombinedHooks, seal: string): OddsHooks {
  return {
    ...h.odds,
    strength: (s, u, cls) => (u.id === seal ? 1 : h.odds.strength!(s, u, cls)),
    modifiers: (s, a, k) => ({ shifts: [], dieModifiers: h.odds.modifiers?.(s, a, k).dieModifiers ?? [] }),
  };
}

function onAircraft(ctx: ResolveContext<GatorsExt>, h: CombinedHooks, o: SabotageOrder, mode: Extract<Mode, { kind: 'aircraft' }>): void {
  const t = table(ctx.state);
  const base = fixedHooks(h, o.unit);
  let longest = 0;
  for (const a of mode.aircraft) {
    if (ctx.state.units[a.id]?.loc.at !== 'hex') continue;
    const hooks: OddsHooks = {
      ...base,
      defender: (_s, stack) => stack.find((u) => u.id === a.id),
      // GT-7H.1: an aircraft on the ground that must retreat is destroyed.
      adjustResult: (s, at, r) => {
        const x = h.odds.adjustResult?.(s, at, r) ?? r;
        const spec = t.results[x];
        return spec?.side === 'defender' && spec.effect === 'retreat' ? 'D X' : x;
      },
      attackerExempt: () => true,
    };
    const out = resolveOddsAttack(ctx, sealsOf(o), o.target, hooks, { fixedColumn: mode.column, cause: 'sabotage' });
    const spec = t.results[out.result];
    if (spec?.side === 'attacker' && spec.effect === 'retreat') longest = Math.max(longest, spec.hexes ?? 1);
  }
  const seal = ctx.state.units[o.unit];
  if (longest === 0 || seal?.loc.at !== 'hex') return;
  const mayEnterEnemyZoc = t.retreat?.mayEnterEnemyZoc ?? true;
  retreatAttackingStack(ctx, stackWith(ctx.state, [seal], new Set()), longest, o.target, mayEnterEnemyZoc, `sabotage on ${o.target}`, o.retreat, h.odds.retreatBlocked);
}

function notATarget(ctx: ResolveContext<GatorsExt>, o: SabotageOrder): void {
  const d = groundData(ctx.state.scenario).sabotage;
  ctx.emit(publicOf('AttackCancelled', { attackers: [o.unit], target: o.target, reason: 'not_a_sabotage_target', ruleId: d.ruleId }));
}

/**
 * Goes on after the defender's owner answered. A chosen counter brings its own column; one that
 * is no sabotage target cancels the attack, as a "?" that hid one does. A chosen retreat needs
 * no column: the die has been rolled.
 */
function resumeSabotage(ctx: ResolveContext<GatorsExt>, h: CombinedHooks, o: SabotageOrder, resume: Resume, stage: ChoiceStage): void {
  const hooks = fixedHooks(h, o.unit);
  const chosen = stage.choice === 'stack-defender' ? chosenDefender(ctx.state, o.target, ctx.side, hooks, resume.answer) : undefined;
  const mode = modeAt(ctx.state, h, ctx.side, o.target, chosen);
  if (stage.choice === 'stack-defender' && mode?.kind !== 'unit') return notATarget(ctx, o);
  const column = mode?.kind === 'unit' ? { fixedColumn: mode.column, skipPreRolls: mode.skipPreRolls } : {};
  resumeOddsAttack(ctx, sealsOf(o), o.target, hooks, resume, { ...column, cause: 'sabotage' });
}

function sabotageOrder(h: CombinedHooks): OrderHandler<GatorsExt, SabotageOrder> {
  return {
    kind: 'sabotage',
    schema: sabotageSchema,
    validate: (state, side, o, i) => checkSabotage(state, h, side, o, i),
    project: (_s, _side, o) => [{ type: 'UnitMarked', data: { unit: o.unit, flags: { attacked: true }, attrs: { [USED]: true } } }],
    optionOrder: (unit, x) => (x.action === 'sabotage' ? { kind: 'sabotage', unit, target: (x.detail as { hex: string }).hex } : null),
    // The adjacent hexes the unit may sabotage now, by the same checks as validation (a "?" stays offered: its kind is not the SEALs' to know).
    options: (state, side, unitId) => {
      const u = state.units[unitId];
      if (u?.loc.at !== 'hex') return {};
      const grid = boardOf(state.scenario).grid;
      const other = neighbourHexes(state, grid.indexOf(u.loc.hex))
        .map((n) => grid.label(n))
        .filter((hex) => checkSabotage(state, h, side, { kind: 'sabotage', unit: unitId, target: hex }, 0).length === 0)
        .map((hex) => ({ action: 'sabotage', detail: { hex } }));
      return other.length > 0 ? { other } : {};
    },
    resolve: (ctx, o, i, resume) => {
      if (resume !== undefined && isChoiceStage(resume.stage)) return resumeSabotage(ctx, h, o, resume, resume.stage);
      const v = checkSabotage(ctx.state, h, ctx.side, o, i);
      if (v.length > 0) return cancel(ctx, i, 'sabotage', v[0]!);
      ctx.emit({ type: 'UnitMarked', data: { unit: o.unit, flags: { attacked: true }, attrs: { [USED]: true } }, visibility: { to: 'all' } });
      const mode = modeAt(ctx.state, h, ctx.side, o.target);
      if (mode === null) return notATarget(ctx, o);
      if (mode.kind === 'aircraft') return onAircraft(ctx, h, o, mode);
      resolveOddsAttack(ctx, sealsOf(o), o.target, fixedHooks(h, o.unit), { fixedColumn: mode.column, skipPreRolls: mode.skipPreRolls, cause: 'sabotage', ownerChoices: true });
    },
  };
}

export const sabotage: GatorsFeature = {
  id: 'sabotage',
  rules: ['GT-7K.1', 'GT-7K.2', 'Q-GT-43', 'GT-2.16'],
  phases: { combat: { orders: (h) => [sabotageOrder(h)] } },
};
