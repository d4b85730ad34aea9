import { OddsCombat } from '../../model/scenario';
import { GameState, UnitState } from '../../model/state';
import { boardOf } from '../board';
import { flag, hexOf, stackAt, strengthVs, targetClassAt, typeOf } from '../queries';
import { SideId, Violation } from '../types';
import { INPUT_RULE, violation } from '../violation';
import { concealedFrom, isConcealed } from '../visibility';
import { isViolation, ownUnit } from '../orders/common';
import { rangeOf } from './effects';
import type { AttackOrder, OddsHooks } from './odds-step';

/** Checks of an attack order that need no dice (GT-7A): who may attack what, at what range, with what strength. */

export function table(state: GameState): OddsCombat {
  const t = state.scenario.rules.combat.odds;
  if (t === undefined) throw new Error('rules.json has no combat.odds table');
  return t;
}

export function cr(state: GameState, key: string, fallback: string): string {
  return state.scenario.rules.combat.odds?.ruleIds[key] ?? fallback;
}

/**
 * The counter that defends a stack (GT-7N.1, Q-GT-44): the system's choice
 * when it has one (GT-7H.2: the top aircraft of a landed stack), else the
 * highest defense; ties by unit order (unless the owner chooses: owner-choice.ts).
 */
export function pickDefender(state: GameState, hex: string, side: SideId, hooks: OddsHooks = {}, knownTo: SideId | null = null): UnitState | undefined {
  return defenderAmong(state, enemiesIn(state, hex, side), hooks, knownTo);
}

/** The engine's defender among these counters of one hex: the system's pick, else the highest defense (GT-7N.1), the first of a tie. */
export function defenderAmong(state: GameState, stack: readonly UnitState[], hooks: OddsHooks = {}, knownTo: SideId | null = null): UnitState | undefined {
  if (stack.length === 0) return undefined;
  return hooks.defender?.(state, stack, knownTo) ?? tiedDefenders(state, stack)[0];
}

/** The counters the owner may choose from to defend the hex (Q-GT-44), in unit order: empty when the system decides (hooks.defender) or nobody is there. */
export function defenderCandidates(state: GameState, hex: string, side: SideId, hooks: OddsHooks = {}): UnitState[] {
  const stack = enemiesIn(state, hex, side);
  if (stack.length === 0 || hooks.defender?.(state, stack, null) !== undefined) return [];
  return tiedDefenders(state, stack);
}

/** The defending stack: a gun hitched to a counter there is one of it (GT-7B.6). */
function enemiesIn(state: GameState, hex: string, side: SideId): UnitState[] {
  return stackAt(state, hex).filter((u) => u.side !== side);
}

function tiedDefenders(state: GameState, stack: readonly UnitState[]): UnitState[] {
  const best = Math.max(...stack.map((u) => typeOf(state, u).defense));
  return stack.filter((u) => typeOf(state, u).defense === best);
}

/** The class a defender is attacked as: the system's answer (GT-7H.1: a landed aircraft is a soft target), else by type and medium (GT-7D.2). */
export function defenderClass(state: GameState, hooks: OddsHooks, d: UnitState, hexIndex: number): string {
  return hooks.targetClass?.(state, d, null) ?? targetClassAt(boardOf(state.scenario), typeOf(state, d), hexIndex);
}

/**
 * The class as the attacking side can know it while it plans (validation, options): null when it
 * cannot, because something in the stack is under a "?" (whether it outdefends the counters in
 * sight is hidden too) or the class is the owner's secret (a landed aircraft's markers, Q-GT-41).
 * Such an attack stands; resolution, which knows, may cancel it (Q-GT-27).
 */
export function plannedClass(state: GameState, hooks: OddsHooks, d: UnitState, hexIndex: number, side: SideId): string | null {
  const hex = boardOf(state.scenario).grid.label(hexIndex);
  if (enemiesIn(state, hex, side).some((u) => concealedFrom(state, u).includes(side))) return null;
  const c = hooks.targetClass?.(state, d, side);
  return c === null ? null : (c ?? targetClassAt(boardOf(state.scenario), typeOf(state, d), hexIndex));
}

export function strengthOf(state: GameState, hooks: OddsHooks, u: UnitState, cls: string): number {
  return hooks.strength?.(state, u, cls) ?? strengthVs(typeOf(state, u), cls);
}

/** The strength `u` brings against `targetHex`: against a class nobody may count on (a "?", a secret, `knownTo` planning), its best. */
export function fullStrength(state: GameState, hooks: OddsHooks, u: UnitState, targetHex: string, knownTo: SideId | null = null): number {
  const d = pickDefender(state, targetHex, u.side, hooks, knownTo);
  if (d === undefined) return 0;
  const at = boardOf(state.scenario).grid.indexOf(targetHex);
  const cls = isConcealed(state, d) || concealedFrom(state, d).length > 0 ? null : knownTo === null ? defenderClass(state, hooks, d, at) : plannedClass(state, hooks, d, at, knownTo);
  if (cls === null) return Math.max(0, ...state.scenario.rules.targetClasses.map((c) => strengthOf(state, hooks, u, c)));
  return strengthOf(state, hooks, u, cls);
}

/** The flags of an attacker once it attacks: as its side can know them while planning (`knownTo`), the truth at resolution. */
export function markFlags(state: GameState, u: UnitState, part: number | undefined, target: string, hooks: OddsHooks, knownTo: SideId | null = null) {
  const used = Number(u.flags['attackUsed'] ?? 0);
  const prev = Array.isArray(u.flags['attackTargets']) ? (u.flags['attackTargets'] as readonly string[]) : [];
  return { attacked: true, attackUsed: used + (part ?? fullStrength(state, hooks, u, target, knownTo)), attackTargets: [...prev, target] };
}

/**
 * The unit standing in the hex an attacker fires from: itself, or the transport it may fire
 * from aboard (OddsHooks.firesAboard, GT-6G.5); undefined where it may not fire.
 */
export function firingStand(state: GameState, hooks: OddsHooks, u: UnitState): UnitState | undefined {
  if (u.loc.at === 'hex') return u;
  if (u.loc.at !== 'carried') return undefined;
  const aboard = hooks.firesAboard?.(state, u, null);
  return aboard !== undefined && 'from' in aboard ? aboard.from : undefined;
}

/**
 * A gun towed this turn may not fire (GT-6K.1, GT-6K.3), nor one unhitched this turn (GT-6K.4).
 * Its towers carry the `unhitched` flag too (their move is over) but were never towed: only
 * a towable unit is held back here.
 */
/**
 * What keeps a unit standing where it may fire from attacking at all this turn, whatever the attack
 * (GT-6G.1 loaded this turn, GT-6K towed or unhitched, the system's own reasons): ordinary attacks
 * and a system's special ones (sabotage) alike.
 */
export function attackerBarred(state: GameState, u: UnitState, i: number, hooks: OddsHooks): Violation[] {
  const out: Violation[] = [];
  if (flag(u, 'loaded') && !state.scenario.rules.transport.loadedCargoMayAttack) out.push(violation(cr(state, 'loaded', 'GT-6G.1'), 'combat/loaded', `${u.id} was loaded this turn and may not attack`, i));
  const towing = towingProblem(state, u, i);
  if (towing !== null) out.push(towing);
  const extra = hooks.attackerProblem?.(state, u, i);
  if (extra) out.push(extra);
  return out;
}

function towingProblem(state: GameState, u: UnitState, i: number): Violation | null {
  const towing = state.scenario.rules.towing;
  if (!towing.towedMayNotFireWhenMoved) return null;
  if (flag(u, 'towed')) return violation(towing.ruleIds['towed_fire'] ?? 'GT-6K.3', 'combat/towed', `${u.id} was towed this turn and may not fire`, i);
  if (flag(u, 'unhitched') && typeOf(state, u).towable !== undefined)
    return violation(towing.ruleIds['unhitch'] ?? 'GT-6K.4', 'combat/towed', `${u.id} was unhitched this turn and may not fire`, i);
  // Flown in (GT-6K.1: a gun moved by a CH-53E may not fire that turn), more particular than any unloaded unit attacking.
  if (flag(u, 'unloaded') && typeOf(state, u).towable !== undefined)
    return violation(towing.ruleIds['carried_fire'] ?? 'GT-6K.1', 'combat/moved_by_transport', `${u.id} was moved by a transport this turn and may not fire`, i);
  return null;
}

export function validateAttack(state: GameState, side: SideId, o: AttackOrder, i: number, hooks: OddsHooks): Violation[] {
  const t = table(state);
  const board = boardOf(state.scenario);
  const out: Violation[] = [];
  const target = board.grid.indexOf(o.target);
  if (target < 0) return [violation(INPUT_RULE, 'input/bad_hex', `${o.target} is not a hex of the map`, i)];
  // Checked as the attacker can know it: an owner's secret (a landed aircraft's markers) decides only at resolution.
  const defender = pickDefender(state, o.target, side, hooks, side);
  if (defender === undefined) return [violation(cr(state, 'range', 'GT-7A.1'), 'combat/no_target', `no enemy unit in ${o.target}`, i)];
  const cls = plannedClass(state, hooks, defender, target, side);
  const ids = new Set<string>();
  for (const a of o.attackers) {
    const u = ownUnit(state, side, a.unit, i);
    if (isViolation(u)) {
      out.push(u);
      continue;
    }
    if (ids.has(u.id)) out.push(violation(INPUT_RULE, 'input/duplicate_unit', `${u.id} is listed twice`, i));
    ids.add(u.id);
    const tr = state.scenario.rules;
    if (u.loc.at === 'towed') {
      out.push(violation(tr.towing.ruleIds['towed_fire'] ?? 'GT-6K.3', 'combat/towed', `${u.id} is being towed and may not fire`, i));
      continue;
    }
    const aboard = u.loc.at === 'carried' ? hooks.firesAboard?.(state, u, i) : undefined;
    if (u.loc.at !== 'hex' && aboard === undefined) {
      out.push(violation(cr(state, 'cargo', 'GT-7A.5'), 'combat/not_in_hex', `${u.id} is not standing in a hex and cannot attack`, i));
      continue;
    }
    if (aboard !== undefined && !('from' in aboard)) {
      out.push(aboard);
      continue;
    }
    const stand = aboard?.from ?? u;
    out.push(...attackerBarred(state, u, i, hooks));
    const at = board.grid.indexOf(hexOf(state, stand) ?? '');
    const dist = board.grid.distance(at, target);
    const range = rangeOf(state, { unit: u, hex: at }, target);
    if (dist < 1 || dist > range) out.push(violation(cr(state, 'range', 'GT-7A.1'), 'combat/out_of_range', `${o.target} is ${dist} hexes from ${u.id}, range ${range}`, i));
    const full = cls === null ? fullStrength(state, hooks, u, o.target, side) : strengthOf(state, hooks, u, cls);
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
        out.push(violation(split.ruleId, 'combat/split', `${u.id} may split its strength only ${split.adjacentOnly ? 'among adjacent defenders, ' : ''}with strength ${split.minStrength}+`, i));
    }
    const used = Number(u.flags['attackUsed'] ?? 0);
    const targets = Array.isArray(u.flags['attackTargets']) ? (u.flags['attackTargets'] as readonly string[]) : [];
    if ((flag(u, 'attacked') && a.strength === undefined) || used + part > full || targets.includes(o.target))
      out.push(violation(cr(state, 'once', 'Q-GT-33'), 'combat/already_attacked', `${u.id} has already attacked this phase`, i));
  }
  return out;
}

