import { z } from 'zod';
import { Json } from '../../model/json';
import { OddsCombat } from '../../model/scenario';
import { GameState, UnitState } from '../../model/state';
import { boardOf } from '../board';
import { ResolveContext } from '../kit/types';
import { flag, hexOf, strengthVs, targetClassAt, typeOf, unitOf, allUnits } from '../queries';
import { SideId, UnitOptions, Violation } from '../types';
import { INPUT_RULE, violation } from '../violation';
import { concealedFrom, isConcealed, visibilityFor } from '../visibility';
import { isViolation, labelSchema, ownUnit, unitIdSchema } from '../orders/common';
import { eliminate, retreatOrEliminate, stackAt } from './apply';
import { CombatStep } from './combat-step';
import { Participant, attackEffects, rangeOf } from './effects';
import { columnFor, odds, readTable } from './odds';

export const attackSchema = z.strictObject({
  kind: z.literal('attack'),
  attackers: z.array(z.strictObject({ unit: unitIdSchema, strength: z.int().min(1).optional() })).min(1).max(30),
  target: labelSchema,
});
export type AttackOrder = z.infer<typeof attackSchema>;

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
  /** Strength against a target class (aircraft whose strength depends on markers). Default: units.json. */
  strength?(state: GameState, unit: UnitState, targetClass: string): number;
  /** A reason this unit may not attack now (a squad too far from a command unit, GT-6H.2). */
  attackerProblem?(state: GameState, unit: UnitState, index: number): Violation | null;
  /** Extra column shifts and die modifiers beyond the terrain data (M113 +1, spotting +1…). */
  modifiers?(state: GameState, attack: AttackSetup): { shifts: Modifier[]; dieModifiers: Modifier[] };
  /** Replace a result label (anti-landing fire: D R2 counts as D X). */
  adjustResult?(state: GameState, attack: AttackSetup, result: string): string;
  /** Attackers for whom attacker-side results are ignored beyond the data rules (GT-7C.4). */
  attackerExempt?(state: GameState, attack: AttackSetup, attacker: UnitState): boolean;
  /** Applies a result itself instead of the kernel (returns true), e.g. GT-7O.2 "D R1: the landing fails". */
  applyResult?(ctx: ResolveContext, attack: AttackSetup, result: string): boolean;
}

export interface AttackOptions {
  /** Use this column and no terrain shifts (fixed-column attacks: HERS explosion, booby trap, GT-6N.8). */
  readonly fixedColumn?: string;
  readonly skipPreRolls?: boolean;
  readonly cause?: string;
}

export interface AttackOutcome {
  readonly result: string;
  readonly defender: string;
  readonly cancelled: boolean;
}

function table(state: GameState): OddsCombat {
  const t = state.scenario.rules.combat.odds;
  if (t === undefined) throw new Error('rules.json has no combat.odds table');
  return t;
}

function cr(state: GameState, key: string, fallback: string): string {
  return state.scenario.rules.combat.odds?.ruleIds[key] ?? fallback;
}

/** The counter that defends a stack (GT-7N.1, Q-GT-44): the highest defense; ties by unit order. */
export function pickDefender(state: GameState, hex: string, side: SideId): UnitState | undefined {
  const enemies = allUnits(state).filter((u) => u.side !== side && u.loc.at === 'hex' && u.loc.hex === hex);
  return enemies.sort((a, b) => typeOf(state, b).defense - typeOf(state, a).defense)[0];
}

function strengthOf(state: GameState, hooks: OddsHooks, u: UnitState, cls: string): number {
  return hooks.strength?.(state, u, cls) ?? strengthVs(typeOf(state, u), cls);
}

/** The odds combat step as an "attack" order (GT-7A, GT-7B). */
export function oddsAttack<X extends Json>(hooks: OddsHooks = {}): CombatStep<X, AttackOrder> {
  return {
    kind: 'attack',
    schema: attackSchema,
    validate: (state, side, o, i) => validateAttack(state, side, o, i, hooks),
    project: (state, _side, o) =>
      o.attackers.map((a) => {
        const u = unitOf(state, a.unit);
        return { type: 'UnitMarked', data: { unit: a.unit, flags: markFlags(state, u, a.strength, o.target, hooks) } };
      }),
    resolve: (ctx, o, i) => {
      const v = validateAttack(ctx.state, ctx.side, o, i, hooks);
      if (v.length > 0) {
        ctx.emit({ type: 'OrderCancelled', data: { side: ctx.side, index: i, kind: 'attack', reason: v[0]!.message, ruleId: v[0]!.ruleId }, visibility: { to: 'sides', sides: [ctx.side] } });
        return;
      }
      for (const a of o.attackers) {
        const u = unitOf(ctx.state, a.unit);
        ctx.emit({ type: 'UnitMarked', data: { unit: a.unit, flags: markFlags(ctx.state, u, a.strength, o.target, hooks) }, visibility: visibilityFor(ctx.state, [u]) });
      }
      resolveOddsAttack(ctx, o.attackers, o.target, hooks);
    },
    options: (state, side, unitId) => ({ attacks: attackTargets(state, side, unitId, hooks) }),
  };
}

function fullStrength(state: GameState, hooks: OddsHooks, u: UnitState, targetHex: string): number {
  const d = pickDefender(state, targetHex, u.side);
  if (d === undefined) return 0;
  if (isConcealed(state, d) || concealedFrom(state, d).length > 0) {
    return Math.max(0, ...state.scenario.rules.targetClasses.map((c) => strengthOf(state, hooks, u, c)));
  }
  const board = boardOf(state.scenario);
  return strengthOf(state, hooks, u, targetClassAt(board, typeOf(state, d), board.grid.indexOf(targetHex)));
}

function markFlags(state: GameState, u: UnitState, part: number | undefined, target: string, hooks: OddsHooks) {
  const used = Number(u.flags['attackUsed'] ?? 0);
  const prev = Array.isArray(u.flags['attackTargets']) ? (u.flags['attackTargets'] as readonly string[]) : [];
  return { attacked: true, attackUsed: used + (part ?? fullStrength(state, hooks, u, target)), attackTargets: [...prev, target] };
}

export function validateAttack(state: GameState, side: SideId, o: AttackOrder, i: number, hooks: OddsHooks): Violation[] {
  const t = table(state);
  const board = boardOf(state.scenario);
  const out: Violation[] = [];
  const target = board.grid.indexOf(o.target);
  if (target < 0) return [violation(INPUT_RULE, 'input/bad_hex', `${o.target} is not a hex of the map`, i)];
  const defender = pickDefender(state, o.target, side);
  if (defender === undefined) return [violation(cr(state, 'range', 'GT-7A.1'), 'combat/no_target', `no enemy unit in ${o.target}`, i)];
  const concealed = concealedFrom(state, defender).includes(side);
  const cls = concealed ? null : targetClassAt(board, typeOf(state, defender), target);
  const ids = new Set<string>();
  for (const a of o.attackers) {
    const u = ownUnit(state, side, a.unit, i);
    if (isViolation(u)) {
      out.push(u);
      continue;
    }
    if (ids.has(u.id)) out.push(violation(INPUT_RULE, 'input/duplicate_unit', `${u.id} is listed twice`, i));
    ids.add(u.id);
    if (u.loc.at !== 'hex') {
      out.push(violation(cr(state, 'cargo', 'GT-7A.5'), 'combat/not_in_hex', `${u.id} is not standing in a hex and cannot attack`, i));
      continue;
    }
    const tr = state.scenario.rules;
    if (flag(u, 'loaded') && !tr.transport.loadedCargoMayAttack) out.push(violation(cr(state, 'loaded', 'GT-6G.1'), 'combat/loaded', `${u.id} was loaded this turn and may not attack`, i));
    if ((flag(u, 'towed') || flag(u, 'unhitched')) && tr.towing.towedMayNotFireWhenMoved)
      out.push(violation(tr.towing.ruleIds['towed_fire'] ?? 'GT-6K.3', 'combat/towed', `${u.id} was towed this turn and may not fire`, i));
    const extra = hooks.attackerProblem?.(state, u, i);
    if (extra) out.push(extra);
    const at = board.grid.indexOf(u.loc.hex);
    const dist = board.grid.distance(at, target);
    const range = rangeOf(state, { unit: u, hex: at }, target);
    if (dist < 1 || dist > range) out.push(violation(cr(state, 'range', 'GT-7A.1'), 'combat/out_of_range', `${o.target} is ${dist} hexes from ${u.id}, range ${range}`, i));
    const full = cls === null ? fullStrength(state, hooks, u, o.target) : strengthOf(state, hooks, u, cls);
    if (full <= 0) {
      out.push(violation(cr(state, 'strength', 'GT-7A.4'), 'combat/zero_strength', `${u.id} has no strength against ${cls ?? 'any target'}`, i));
      continue;
    }
    const part = a.strength ?? full;
    if (part > full) out.push(violation(cr(state, 'strength', 'GT-7A.4'), 'combat/too_strong', `${u.id} has only strength ${full} here`, i));
    if (part < full || flag(u, 'attackUsed')) {
      const split = t.split;
      if (split === null) out.push(violation(cr(state, 'once', 'Q-GT-33'), 'combat/split_not_allowed', `${u.id} must attack with its whole strength`, i));
      else if (full < split.minStrength || (split.adjacentOnly && dist !== 1))
        out.push(violation(split.ruleId, 'combat/split', `${u.id} may split its strength only among adjacent defenders, with strength ${split.minStrength}+`, i));
    }
    const used = Number(u.flags['attackUsed'] ?? 0);
    const targets = Array.isArray(u.flags['attackTargets']) ? (u.flags['attackTargets'] as readonly string[]) : [];
    if ((flag(u, 'attacked') && a.strength === undefined) || used + part > full || targets.includes(o.target))
      out.push(violation(cr(state, 'once', 'Q-GT-33'), 'combat/already_attacked', `${u.id} has already attacked this phase`, i));
  }
  return out;
}

/**
 * Resolves one odds attack and applies its result. Exported for reactions and
 * special attacks that are not "attack" orders (anti-landing fire, a booby trap).
 */
export function resolveOddsAttack(
  ctx: ResolveContext,
  attackerOrders: readonly { unit: string; strength?: number | undefined }[],
  targetHex: string,
  hooks: OddsHooks = {},
  opts: AttackOptions = {},
): AttackOutcome {
  const state = ctx.state;
  const t = table(state);
  const board = boardOf(state.scenario);
  const side = unitOf(state, attackerOrders[0]!.unit).side;
  const target = board.grid.indexOf(targetHex);
  const def = pickDefender(state, targetHex, side);
  const cancelled = (reason: string, ruleId: string, extra: Record<string, Json> = {}): AttackOutcome => {
    const units = attackerOrders.map((a) => unitOf(state, a.unit));
    ctx.emit({ type: 'AttackCancelled', data: { attackers: units.map((u) => u.id), target: targetHex, reason, ruleId, ...extra }, visibility: visibilityFor(state, units, () => ({ type: 'AttackCancelled', data: { target: targetHex, reason } })) });
    return { result: 'cancelled', defender: def?.id ?? '', cancelled: true };
  };
  if (def === undefined) return cancelled('target_gone', cr(state, 'range', 'GT-7A.1'));
  const defType = typeOf(state, def);
  const cls = targetClassAt(board, defType, target);
  const attackers = attackerOrders
    .map((a) => {
      const unit = unitOf(state, a.unit);
      const full = strengthOf(state, hooks, unit, cls);
      return { unit, hex: board.grid.indexOf(hexOf(state, unit) ?? ''), strength: Math.min(a.strength ?? full, full) };
    })
    .filter((a) => a.strength > 0 && a.hex >= 0);
  if (attackers.length === 0) return cancelled('zero_strength', cr(state, 'strength', 'GT-7A.4'));
  const setup: AttackSetup = { attackers, defender: { unit: def, hex: target }, targetHex, targetClass: cls };
  const effects = attackEffects(state, attackers, setup.defender);
  if (opts.skipPreRolls !== true) {
    for (const e of effects) {
      if (e.kind !== 'pre-roll') continue;
      const roll = ctx.dice.roll(t.die, `pre-roll ${e.ruleId} before the attack on ${targetHex}`);
      if ((e.min !== undefined && roll < e.min) || (e.max !== undefined && roll > e.max)) return cancelled('pre_roll_failed', e.ruleId, { roll });
    }
  }
  const extra = hooks.modifiers?.(state, setup) ?? { shifts: [], dieModifiers: [] };
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
      (o.when === 'defender-immobile' && defType.speed <= 0 && !towerAt(state, def, targetHex));
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
  const participants = [...attackers.map((a) => a.unit), def];
  ctx.emit({
    type: 'AttackResolved',
    data,
    visibility: visibilityFor(state, participants, () => ({
      type: 'AttackResolved',
      data: { attackers: attackers.filter((a) => concealedFrom(state, a.unit).length === 0).map((a) => a.unit.id), target: targetHex, roll },
    })),
  });
  if (hooks.applyResult?.(ctx, setup, result) === true) return { result, defender: def.id, cancelled: false };
  const rs = t.retreat;
  if (spec.side === 'defender') {
    if (spec.effect === 'eliminate') eliminate(ctx, unitOf(ctx.state, def.id), `attack on ${targetHex}`);
    if (spec.effect === 'retreat')
      retreatOrEliminate(ctx, stackAt(ctx.state, targetHex, def.side), spec.hexes ?? 1, attackers.map((a) => board.grid.label(a.hex)), rs?.mayEnterEnemyZoc ?? true, `attack on ${targetHex}`);
  } else if (spec.side === 'attacker') {
    for (const a of attackers) {
      if (exempt.includes(a.unit.id)) continue;
      const u = ctx.state.units[a.unit.id];
      if (u === undefined || u.loc.at !== 'hex') continue;
      if (spec.effect === 'eliminate') eliminate(ctx, u, `attack on ${targetHex}`);
      if (spec.effect === 'retreat') retreatOrEliminate(ctx, [u], spec.hexes ?? 1, [targetHex], rs?.mayEnterEnemyZoc ?? true, `attack on ${targetHex}`);
    }
  }
  return { result, defender: def.id, cancelled: false };
}

function towerAt(state: GameState, gun: UnitState, hex: string): boolean {
  const tow = typeOf(state, gun).towable;
  if (tow === undefined) return false;
  return allUnits(state).filter((u) => u.side === gun.side && u.loc.at === 'hex' && u.loc.hex === hex && tow.by.some((b) => typeOf(state, u).tags.includes(b))).length >= tow.towers;
}

function attackerIgnores(state: GameState, t: OddsCombat, hooks: OddsHooks, setup: AttackSetup, a: Participant): boolean {
  const board = boardOf(state.scenario);
  if (t.ignoreAttackerResults.whenDefenderCannotHarm) {
    const cls = targetClassAt(board, typeOf(state, a.unit), a.hex);
    if (strengthOf(state, hooks, setup.defender.unit, cls) <= 0) return true;
  }
  const from = t.ignoreAttackerResults.fromRange;
  if (from !== null && board.grid.distance(a.hex, setup.defender.hex) >= from) return true;
  return hooks.attackerExempt?.(state, setup, a.unit) ?? false;
}

/** Targets for options(): enemy stacks within range, with an odds preview from what the side can see. */
function attackTargets(state: GameState, side: SideId, unitId: string, hooks: OddsHooks): UnitOptions['attacks'] {
  const u = state.units[unitId];
  if (u === undefined || u.loc.at !== 'hex') return [];
  const board = boardOf(state.scenario);
  const at = board.grid.indexOf(u.loc.hex);
  const t = table(state);
  const hexes = new Set<string>();
  for (const e of allUnits(state)) if (e.side !== side && e.loc.at === 'hex') hexes.add(e.loc.hex);
  const out: UnitOptions['attacks'] = [];
  for (const hex of [...hexes].sort()) {
    const o: AttackOrder = { kind: 'attack', attackers: [{ unit: unitId }], target: hex };
    if (validateAttack(state, side, o, 0, hooks).length > 0) continue;
    const d = pickDefender(state, hex, side)!;
    const visible = allUnits(state).filter((x) => x.side !== side && x.loc.at === 'hex' && x.loc.hex === hex && concealedFrom(state, x).length === 0);
    if (concealedFrom(state, d).includes(side)) {
      out.push({ targetHex: hex, targetIds: visible.map((x) => x.id), preview: { concealed: true } });
      continue;
    }
    const target = board.grid.indexOf(hex);
    const cls = targetClassAt(board, typeOf(state, d), target);
    const strength = strengthOf(state, hooks, u, cls);
    const effects = attackEffects(state, [{ unit: u, hex: at }], { unit: d, hex: target });
    const shift = effects.reduce((s, e) => s + (e.kind === 'column-shift' ? e.shift : 0), 0);
    const adv = odds(strength, typeOf(state, d).defense);
    const col = Math.max(0, Math.min(t.columns.length - 1, columnFor(t, adv) + shift));
    out.push({
      targetHex: hex,
      targetIds: visible.map((x) => x.id),
      preview: {
        defender: d.id,
        strength,
        defense: typeOf(state, d).defense,
        odds: Number.isFinite(adv) ? adv : 'inf',
        column: t.columns[col]!.label,
        dieModifiers: effects.filter((e) => e.kind === 'die-modifier').map((e) => e.ruleId),
        preRolls: effects.filter((e) => e.kind === 'pre-roll').map((e) => e.ruleId),
      },
    });
  }
  return out;
}
