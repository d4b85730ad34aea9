import { z } from 'zod';
import { Json } from '../../model/json';
import { CombatEffect, OddsCombat } from '../../model/scenario';
import { GameState, UnitState } from '../../model/state';
import { boardOf } from '../board';
import { orderCancelled } from '../events';
import { ResolveContext, Resume } from '../kit/types';
import { rememberedCheck } from '../kit/remembered-check';
import { hexOf, targetClassAt, typeOf, unitOf } from '../queries';
import { SideId, Violation } from '../types';
import { concealedFrom, marksOf, visibilityFor } from '../visibility';
import { labelSchema, unitIdSchema } from '../orders/common';
import { cr, defenderClass, firingStand, markFlags, pickDefender, strengthOf, table, validateAttack } from './attack-checks';
import { attackTargets } from './attack-targets';
import { eliminate, retreatOrEliminate, stackAt } from './apply';
import { AttackerFate, applyAttackerResults, retreatChoiceField, validateRetreatChoices } from './attacker-retreat';
import { CombatStep } from './combat-step';
import { Participant, attackEffects } from './effects';
import { RetreatChoice, chooseDefender, chosenDefender, finishRetreat, isChoiceStage, retreatByOwner } from './owner-choice';
import { columnFor, odds, readTable } from './odds';
import { RetreatBlocked } from './retreat';
import { immobileAt, strandImmobile } from './immobile';

export const attackSchema = z.strictObject({
  kind: z.literal('attack'),
  /** `retreat`: where this attacker goes if the result makes it retreat (Q-GT-35, attacker-retreat.ts). */
  attackers: z.array(z.strictObject({ unit: unitIdSchema, strength: z.int().min(1).optional(), retreat: retreatChoiceField.optional() })).min(1).max(30),
  target: labelSchema,
});
export type AttackOrder = z.infer<typeof attackSchema>;
/** One attacker of an odds attack; `retreat` is its owner's choice should it have to retreat (Q-GT-35). */
export type AttackerOrder = { readonly unit: string; readonly strength?: number | undefined; readonly retreat?: RetreatChoice | undefined };

export interface Modifier {
  readonly value: number;
  readonly ruleId: string;
}

export interface AttackSetup {
  readonly attackers: readonly (Participant & { readonly strength: number })[];
  readonly defender: Participant;
  readonly targetHex: string;
  readonly targetClass: string;
}

/** What a system adds to the odds combat step. */
export interface OddsHooks {
  /**
   * The counter of a stack that defends (GT-7H.2: the top of a stack of landed aircraft); undefined = the highest defense (GT-7N.1).
   * `knownTo`: the side whose planning asks (it may not use what the owner hides), or null for the truth at resolution.
   */
  defender?(state: GameState, stack: readonly UnitState[], knownTo: SideId | null): UnitState | undefined;
  /**
   * The class a unit is attacked as (GT-7H.1: a landed aircraft is a soft target); undefined = by type and medium.
   * `knownTo` as for defender; null = `knownTo` cannot tell (the owner's secret decides), never with `knownTo` null.
   */
  targetClass?(state: GameState, unit: UnitState, knownTo: SideId | null): string | null | undefined;
  /** Strength against a target class (aircraft whose strength depends on markers). Default: units.json. */
  strength?(state: GameState, unit: UnitState, targetClass: string): number;
  /**
   * Whether a unit aboard a transport may fire from it (GT-6G.5: cargo of an LCU or LCAC):
   * `{ from }` is the carrier standing in the hex the fire comes from, whose hex, class and
   * retreat the firing cargo takes; a violation says why this cargo may not fire from there.
   * Undefined: cargo does not fire (GT-7A.5).
   */
  firesAboard?(state: GameState, unit: UnitState, index: number | null): { readonly from: UnitState } | Violation | undefined;
  /** A reason this unit may not attack now (a squad too far from a command unit, GT-6H.2). */
  attackerProblem?(state: GameState, unit: UnitState, index: number): Violation | null;
  /** What closes a hex to a retreat beyond terrain, as to a move: entering it (Debris to a vehicle, GT-6Q.3) or ending there (the HERS off its hex, GT-6N.1). */
  retreatBlocked?: RetreatBlocked;
  /**
   * Extra column shifts and die modifiers beyond the terrain data (M113 +1, spotting +1…). `knownTo`: the
   * side whose planning asks (the options' preview), which may not count on what the owner hides (an
   * aircraft's secret markers, GT-7G.2); null or absent for the truth at resolution.
   */
  modifiers?(state: GameState, attack: AttackSetup, knownTo?: SideId | null): { shifts: Modifier[]; dieModifiers: Modifier[] };
  /** Replace a result label (anti-landing fire: D R2 counts as D X). */
  adjustResult?(state: GameState, attack: AttackSetup, result: string): string;
  /** The data effects of this attack, changed (GT-2.13: the small team's pre-roll is 1–2, not 1, with an aircraft next to it). */
  adjustEffects?(state: GameState, attack: AttackSetup, effects: readonly CombatEffect[]): readonly CombatEffect[];
  /** An attacker result as one (non-exempt) attacker suffers it (GT-7J.2: a ranged unit firing into an adjacent hex turns A R into A X). */
  attackerResult?(state: GameState, attack: AttackSetup, attacker: UnitState, result: string): string;
  /**
   * Carries out what the defending side chose before the attack, once the attack takes place: after
   * the pre-rolls (GT-7B.1: a target not found escapes nothing), before the die (GT-7G.2: a marker
   * jettisoned). Set per attack by the system that asked.
   */
  beforeDie?(ctx: ResolveContext, attack: AttackSetup): void;
  /**
   * What an attack cancelled at resolution still does, after its AttackCancelled (`reason` as there):
   * markers released at a target they cannot harm are used all the same (GT-6B.2, Q-GT-37). Every
   * path to the attack (a resumed owner's choice too) goes through here.
   */
  afterCancel?(ctx: ResolveContext, reason: string): void;
  /** Attackers for whom attacker-side results are ignored beyond the data rules (GT-7C.4). */
  attackerExempt?(state: GameState, attack: AttackSetup, attacker: UnitState): boolean;
  /**
   * Applies a result itself instead of the kernel (returns true), e.g. GT-7O.2 "D R1: the landing fails".
   * 'suspended': applied up to an owner's choice (only when `ownerChoices`); the stage's `then` comes back to resumeResult.
   */
  applyResult?(ctx: ResolveContext, attack: AttackSetup, result: string, opts: { readonly ownerChoices: boolean; readonly retreatBlocked?: RetreatBlocked | undefined }): boolean | 'suspended';
  /**
   * Goes on with a result applyResult stopped for an owner's retreat (`then` of its stage), once the
   * retreat is carried out. Returns whether it stopped again; undefined when `then` is not this hook's.
   */
  resumeResult?(ctx: ResolveContext, then: Json, retreatBlocked?: RetreatBlocked): boolean | undefined;
}

export interface AttackOptions {
  /** Use this column and no terrain shifts (fixed-column attacks: HERS explosion, booby trap, GT-6N.8). */
  readonly fixedColumn?: string;
  /** Roll no pre-roll (the SEALs' sabotage on Guerrillas); against a stack with a "?" the stand-in still is, so the skip does not show. */
  readonly skipPreRolls?: boolean;
  readonly cause?: string;
  /**
   * The defending side may choose its defending counter and retreat path
   * (Q-GT-44, Q-GT-35; owner-choice.ts). Only for a caller that can stop here
   * and go on later with resumeOddsAttack; others get the engine's choices.
   */
  readonly ownerChoices?: boolean;
  /** The defending counter its owner chose (set on resume). */
  readonly defender?: string;
}

export interface AttackOutcome {
  readonly result: string;
  readonly defender: string;
  readonly cancelled: boolean;
  /** Stopped for the defending side's choice: the caller returns now and later calls resumeOddsAttack. */
  readonly suspended: boolean;
}

/** The odds combat step as an "attack" order (GT-7A, GT-7B). */
export function oddsAttack<X extends Json>(hooks: OddsHooks = {}): CombatStep<X, AttackOrder> {
  // A system may check the whole order before resolving it (Gators! asks its attack reaction only for a valid one): one check per state.
  const checkAttack = rememberedCheck((state: GameState, side: SideId, o: AttackOrder, i: number) => validateAttack(state, side, o, i, hooks));
  return {
    kind: 'attack',
    schema: attackSchema,
    validate: (state, side, o, i) => {
      const v = checkAttack(state, side, o, i);
      return v.length > 0 ? v : validateRetreatChoices(state, o.attackers, o.target, i);
    },
    // The event resolve writes (marksOf), so that resolution walks the states validation projected (transitions.ts).
    project: (state, side, o) => [{ type: 'UnitsMarked', data: { marks: o.attackers.map((a) => ({ unit: a.unit, flags: markFlags(state, unitOf(state, a.unit), a.strength, o.target, hooks, side) })) } }],
    resolve: (ctx, o, i, resume) => {
      if (resume !== undefined && isChoiceStage(resume.stage)) return void resumeOddsAttack(ctx, o.attackers, o.target, hooks, resume);
      const v = checkAttack(ctx.state, ctx.side, o, i);
      if (v.length > 0) {
        ctx.emit(orderCancelled(ctx.side, i, 'attack', v[0]!));
        return;
      }
      // Marked as planned (what the side knows), as `project` marks them: the truth would tell the attacker
      // which counter of a stack with a "?" defends, or the class an owner's secret decides (Q-GT-27, Q-GT-41).
      ctx.emit(marksOf(ctx.state, o.attackers.map((a) => ({ unit: a.unit, flags: markFlags(ctx.state, unitOf(ctx.state, a.unit), a.strength, o.target, hooks, ctx.side) }))));
      resolveOddsAttack(ctx, o.attackers, o.target, hooks, { ownerChoices: true });
    },
    options: (state, side, unitId) => ({ attacks: attackTargets(state, side, unitId, hooks) }),
  };
}

/**
 * Resolves one odds attack and applies its result. Exported for reactions and
 * special attacks that are not "attack" orders (anti-landing fire, a booby trap).
 */
export function resolveOddsAttack(
  ctx: ResolveContext,
  attackerOrders: readonly AttackerOrder[],
  targetHex: string,
  hooks: OddsHooks = {},
  opts: AttackOptions = {},
): AttackOutcome {
  const state = ctx.state;
  const t = table(state);
  const board = boardOf(state.scenario);
  const side = unitOf(state, attackerOrders[0]!.unit).side;
  const target = board.grid.indexOf(targetHex);
  const picked = opts.defender !== undefined ? state.units[opts.defender] : opts.ownerChoices === true ? chooseDefender(ctx, targetHex, side, hooks) : pickDefender(state, targetHex, side, hooks);
  if (picked === 'suspended') return { result: 'suspended', defender: '', cancelled: false, suspended: true };
  const def = picked;
  const cancelled = (reason: string, ruleId: string, extra: Record<string, Json> = {}): AttackOutcome => {
    const units = attackerOrders.map((a) => unitOf(state, a.unit));
    ctx.emit({ type: 'AttackCancelled', data: { attackers: units.map((u) => u.id), target: targetHex, reason, ruleId, ...extra }, visibility: visibilityFor(state, units, () => ({ type: 'AttackCancelled', data: { target: targetHex, reason } })) });
    hooks.afterCancel?.(ctx, reason);
    return { result: 'cancelled', defender: def?.id ?? '', cancelled: true, suspended: false };
  };
  if (def === undefined) return cancelled('target_gone', cr(state, 'range', 'GT-7A.1'));
  const defType = typeOf(state, def);
  const cls = defenderClass(state, hooks, def, target);
  const attackers = attackerOrders
    .map((a) => {
      const unit = unitOf(state, a.unit);
      const full = strengthOf(state, hooks, unit, cls);
      return { unit, hex: board.grid.indexOf(hexOf(state, unit) ?? ''), strength: Math.min(a.strength ?? full, full) };
    })
    .filter((a) => a.strength > 0 && a.hex >= 0);
  if (attackers.length === 0) return cancelled('zero_strength', cr(state, 'strength', 'GT-7A.4'));
  const setup: AttackSetup = { attackers, defender: { unit: def, hex: target }, targetHex, targetClass: cls };
  const dataEffects = attackEffects(state, attackers, setup.defender, cls);
  const effects = hooks.adjustEffects?.(state, setup, dataEffects) ?? dataEffects;
  // Whether the defender of a stack with a "?" calls for a pre-roll is as hidden as the defender:
  // its pre-rolls are secret rolls, and one that decides nothing stands in when it has none (or
  // the attack skips them: sabotage on Guerrillas), so that the attacker counts the same dice
  // (a failed pre-roll still cancels the attack openly).
  const secret = stackAt(state, targetHex, def.side).some((u) => concealedFrom(state, u).includes(side)) ? [def.side] : undefined;
  const pre = opts.skipPreRolls === true ? [] : effects.filter((e) => e.kind === 'pre-roll');
  for (const e of pre) {
    const roll = ctx.dice.roll(t.die, `pre-roll ${e.ruleId} before the attack on ${targetHex}`, secret);
    if ((e.min !== undefined && roll < e.min) || (e.max !== undefined && roll > e.max)) return cancelled('pre_roll_failed', e.ruleId, { roll });
  }
  // The stand-ins fill the defender's own pre-rolls, not all of them: a public one beside them must not
  // let the count tell what defends. A terrain's that an aircraft in the air is above (GT-3.8 against air
  // attackers, GT-6B.1) is the defender's own: the slots count it as if a ground target defended.
  if (secret !== undefined)
    for (let n = pre.filter((e) => ownPreRoll(state, def, e)).length, slots = preRollSlots(state) + classPreRolls(state, attackers, setup.defender); n < slots; n++)
      ctx.dice.roll(t.die, `pre-roll (none: a stand-in under the "?") before the attack on ${targetHex}`, secret);
  hooks.beforeDie?.(ctx, setup);
  // What beforeDie changed (a jettisoned marker's +1, GT-7G.2) counts for the die.
  const extra = hooks.modifiers?.(ctx.state, setup) ?? { shifts: [], dieModifiers: [] };
  const shifts: Modifier[] = [
    ...(opts.fixedColumn === undefined ? effects.flatMap((e) => (e.kind === 'column-shift' ? [{ value: e.shift, ruleId: e.ruleId }] : [])) : []),
    ...extra.shifts,
  ];
  const drms: Modifier[] = [...effects.flatMap((e) => (e.kind === 'die-modifier' ? [{ value: e.modifier, ruleId: e.ruleId }] : [])), ...extra.dieModifiers];
  const attack = attackers.reduce((s, a) => s + a.strength, 0);
  const advantage = odds(attack, defType.defense);
  const baseColumn = opts.fixedColumn !== undefined ? t.columns.findIndex((c) => c.label === opts.fixedColumn) : columnFor(t, advantage);
  if (baseColumn < 0) throw new Error(`no column "${opts.fixedColumn}" in the combat table`);
  const zero = t.resultOverrides.find((r) => r.when === 'defender-defense-zero' && r.from.length === 0);
  let result: string;
  let roll: number | null = null;
  let read: { column: number; row: number } | null = null;
  const shiftSum = shifts.reduce((s, m) => s + m.value, 0);
  const drmSum = drms.reduce((s, m) => s + m.value, 0);
  if (defType.defense <= 0 && zero !== undefined) result = zero.result;
  else {
    roll = ctx.dice.roll(t.die, `attack on ${targetHex}`);
    const r = readTable(t, baseColumn, shiftSum, roll + drmSum);
    read = r;
    result = r.result;
  }
  const ruleIds: string[] = [cr(state, 'table', 'GT-9.5')];
  for (const o of t.resultOverrides) {
    const applies =
      (o.when === 'defender-defense-zero' && defType.defense <= 0) ||
      (o.when === 'defender-immobile' && immobileAt(state, def, targetHex));
    if (applies && (o.from.length === 0 || o.from.includes(result)) && o.result !== result) {
      result = o.result;
      ruleIds.push(o.ruleId);
    }
  }
  if (hooks.adjustResult !== undefined) result = hooks.adjustResult(state, setup, result);
  const spec = t.results[result];
  if (spec === undefined) throw new Error(`combat result "${result}" is not defined in rules.json`);
  const exempt = attackers.filter((a) => attackerIgnores(state, t, hooks, setup, a)).map((a) => a.unit.id);
  const data = {
    attackers: attackers.map((a) => ({ unit: a.unit.id, hex: board.grid.label(a.hex), strength: a.strength })),
    target: targetHex,
    defender: def.id,
    targetClass: cls,
    attack,
    defense: defType.defense,
    odds: Number.isFinite(advantage) ? advantage : advantage > 0 ? 'inf' : '-inf',
    column: read === null ? null : t.columns[read.column]!.label,
    shifts: shifts.map((m) => ({ shift: m.value, ruleId: m.ruleId })),
    dieModifiers: drms.map((m) => ({ modifier: m.value, ruleId: m.ruleId })),
    roll,
    result,
    attackerResultIgnoredFor: exempt,
    cause: opts.cause ?? 'attack',
    ruleIds,
  };
  // Which counter of a stack with a "?" defends is as hidden as the "?": the whole stack decides who reads the attack.
  const participants = [...attackers.map((a) => a.unit), def, ...stackAt(state, targetHex, def.side)];
  ctx.emit({
    type: 'AttackResolved',
    data,
    visibility: visibilityFor(state, participants, () => ({
      type: 'AttackResolved',
      data: { attackers: attackers.filter((a) => concealedFrom(state, a.unit).length === 0).map((a) => a.unit.id), target: targetHex, roll },
    })),
  });
  const applied = hooks.applyResult?.(ctx, setup, result, { ownerChoices: opts.ownerChoices === true, retreatBlocked: hooks.retreatBlocked }) ?? false;
  if (applied !== false) return { result, defender: def.id, cancelled: false, suspended: applied === 'suspended' };
  const rs = t.retreat;
  if (spec.side === 'defender') {
    if (spec.effect === 'eliminate') eliminate(ctx, unitOf(ctx.state, def.id), `attack on ${targetHex}`);
    if (spec.effect === 'retreat') {
      const r = { target: targetHex, side: def.side, hexes: spec.hexes ?? 1, awayFrom: attackers.map((a) => board.grid.label(a.hex)), mayEnterEnemyZoc: rs?.mayEnterEnemyZoc ?? true, cause: `attack on ${targetHex}` };
      strandImmobile(ctx, t, result, def, targetHex, r.cause);
      if (opts.ownerChoices !== true) retreatOrEliminate(ctx, stackAt(ctx.state, targetHex, def.side), r.hexes, r.awayFrom, r.mayEnterEnemyZoc, r.cause, hooks.retreatBlocked);
      else if (!retreatByOwner(ctx, r, undefined, hooks.retreatBlocked)) return { result, defender: def.id, cancelled: false, suspended: true };
    }
  } else if (spec.side === 'attacker') {
    const fates = attackers.flatMap((a): AttackerFate[] => {
      const u = ctx.state.units[a.unit.id];
      // Cargo that may not fire aboard (passengers of a ship, Q-GT-39) has no stand: the result does not reach it.
      const stand = u === undefined ? undefined : firingStand(ctx.state, hooks, u);
      if (exempt.includes(a.unit.id) || u === undefined || stand === undefined) return [];
      const own = t.results[hooks.attackerResult?.(state, setup, u, result) ?? result] ?? spec;
      // Aboard (Q-GT-49), a destruction takes the firing cargo alone, a retreat its transport with all aboard.
      const who = own.effect === 'retreat' ? stand : u;
      return [{ unit: who, effect: own.effect, hexes: own.hexes ?? 1, retreat: attackerOrders.find((o) => o.unit === u.id)?.retreat }];
    });
    applyAttackerResults(ctx, fates, attackers.map((a) => a.unit.id), targetHex, rs?.mayEnterEnemyZoc ?? true, `attack on ${targetHex}`, hooks.retreatBlocked);
  }
  return { result, defender: def.id, cancelled: false, suspended: false };
}

/**
 * Goes on with an attack that stopped for its defender's owner (a stage of
 * owner-choice.ts): with the chosen counter, or with the chosen retreat.
 * Returns whether it stopped again (a retreat question after a chosen defender).
 */
export function resumeOddsAttack(
  ctx: ResolveContext,
  attackerOrders: readonly AttackerOrder[],
  targetHex: string,
  hooks: OddsHooks,
  resume: Resume,
  opts: AttackOptions = {},
): boolean {
  const stage = resume.stage;
  if (!isChoiceStage(stage)) throw new Error('resumeOddsAttack: not an owner-choice stage');
  if (stage.choice === 'retreat') {
    finishRetreat(ctx, stage, resume.answer, hooks.retreatBlocked);
    return stage.then === undefined ? false : (hooks.resumeResult?.(ctx, stage.then, hooks.retreatBlocked) ?? false);
  }
  const side = unitOf(ctx.state, attackerOrders[0]!.unit).side;
  const d = chosenDefender(ctx.state, targetHex, side, hooks, resume.answer);
  return resolveOddsAttack(ctx, attackerOrders, targetHex, hooks, { ...opts, ownerChoices: true, ...(d === undefined ? {} : { defender: d.id }) }).suspended;
}

function attackerIgnores(state: GameState, t: OddsCombat, hooks: OddsHooks, setup: AttackSetup, a: Participant): boolean {
  const board = boardOf(state.scenario);
  if (t.ignoreAttackerResults.whenDefenderCannotHarm) {
    // Fire from aboard is answered on the transport (GT-7A.5: cargo is not attacked, only its transport).
    const cls = targetClassAt(board, typeOf(state, firingStand(state, hooks, a.unit) ?? a.unit), a.hex);
    if (strengthOf(state, hooks, setup.defender.unit, cls) <= 0) return true;
  }
  const from = t.ignoreAttackerResults.fromRange;
  if (from !== null && board.grid.distance(a.hex, setup.defender.hex) >= from) return true;
  return hooks.attackerExempt?.(state, setup, a.unit) ?? false;
}


/** A pre-roll the defender calls for by what it is: its type's own, or one filtered by its tags or its class. */
function ownPreRoll(state: GameState, def: UnitState, e: CombatEffect): boolean {
  return e.defenderTags !== undefined || e.ignoredByClasses !== undefined || typeOf(state, def).effects.some((x) => x.kind === 'pre-roll' && x.ruleId === e.ruleId);
}

/** The terrain pre-rolls of this attack that the defender's class decides (GT-6B.1), as against a ground target. */
function classPreRolls(state: GameState, attackers: readonly Participant[], defender: Participant): number {
  return attackEffects(state, attackers, defender, null).filter((e) => e.kind === 'pre-roll' && e.ignoredByClasses !== undefined).length;
}

/** The most pre-rolls any counter calls for by what it is, and at least one: the dice an attack on a "?" rolls for its defender. */
function preRollSlots(state: GameState): number {
  let most = 1;
  for (const type of Object.values(state.scenario.units.types)) most = Math.max(most, type.effects.filter((x) => x.kind === 'pre-roll' && (x.when === 'defender-in' || x.when === 'either-in')).length);
  return most;
}

export { pickDefender, validateAttack };
