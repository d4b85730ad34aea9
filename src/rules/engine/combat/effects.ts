import { CombatEffect } from '../../model/scenario';
import { GameState, UnitState } from '../../model/state';
import { Board, OFF_MAP, boardOf } from '../board';
import { hasTag, targetClassAt, typeOf } from '../queries';

export interface Participant {
  readonly unit: UnitState;
  readonly hex: number;
}

/** Effects of the terrain, overlays present, of a hex (combat effects ignore "along"). */
export function hexEffects(board: Board, i: number): CombatEffect[] {
  if (i < 0 || board.terrain[i] === OFF_MAP) return [];
  const out: CombatEffect[] = [...board.terrainDefs[board.terrain[i]!]!.effects];
  const mask = board.overlays[i]!;
  for (let k = 0; mask !== 0 && k < board.overlayDefs.length; k++) if (mask & (1 << k)) out.push(...board.overlayDefs[k]!.effects);
  return out;
}

function hexsideEffects(board: Board, a: number, b: number): CombatEffect[] {
  if (board.hexsides === null) return [];
  const d = board.grid.directionTo(a, b);
  if (d < 0) return [];
  const mask = board.hexsides[a * 6 + d]!;
  const out: CombatEffect[] = [];
  board.hexsideIds.forEach((h, k) => {
    if (mask & (1 << k)) out.push(...board.scenario.terrain.hexsides[h]!.effects);
  });
  return out;
}

function filtersPass(state: GameState, e: CombatEffect, attackers: readonly Participant[], defender: Participant): boolean {
  if (e.attackerClasses !== undefined && !attackers.some((a) => e.attackerClasses!.includes(typeOf(state, a.unit).movementClass))) return false;
  if (e.attackerTags !== undefined && !attackers.some((a) => hasTag(typeOf(state, a.unit), e.attackerTags!))) return false;
  if (e.defenderTags !== undefined && !hasTag(typeOf(state, defender.unit), e.defenderTags)) return false;
  return true;
}

/** Whether a unit of class `cls` is above the effect's terrain (GT-6B.1); null: a class not known, the effect counts. */
function above(e: CombatEffect, cls: string | null): boolean {
  return cls !== null && e.ignoredByClasses?.includes(cls) === true;
}

/**
 * The data effects that apply to one attack (GT-9.6 as data): terrain and
 * overlay effects by where attackers and defender stand, hexside effects of
 * the sides attacked across, and the defender's and attackers' own unit
 * effects. Each keeps its rule ID for the event. `targetClass`: what the
 * defender is attacked as (an aircraft in the air is above the terrain's
 * `ignoredByClasses`), null for an effect list as against a ground target.
 */
export function attackEffects(state: GameState, attackers: readonly Participant[], defender: Participant, targetClass: string | null): CombatEffect[] {
  const board = boardOf(state.scenario);
  const out: CombatEffect[] = [];
  const defHere = hexEffects(board, defender.hex);
  const inDef = (e: CombatEffect) => defHere.includes(e);
  const defends = (e: CombatEffect) => (e.when === 'defender-in' || e.when === 'either-in') && !above(e, targetClass) && filtersPass(state, e, attackers, defender);
  for (const e of defHere) if (defends(e)) out.push(e);
  const seen = new Set<CombatEffect>(out);
  // Landed aircraft do not attack (GT-7H.1): an attacker is attacked as its type in its hex.
  const places = attackers.map((a) => ({ a, cls: targetClassAt(board, typeOf(state, a.unit), a.hex), here: hexEffects(board, a.hex) }));
  const everyoneIn = (e: CombatEffect) => places.every((p) => p.here.includes(e) && !above(e, p.cls));
  for (const { a, cls, here } of places) {
    for (const e of here) {
      // A defender above the terrain is not attacked from it either: no hill's "downward" at an aircraft in the air.
      if (seen.has(e) || above(e, cls) || above(e, targetClass) || !filtersPass(state, e, attackers, defender)) continue;
      if (e.allAttackers === true && !everyoneIn(e)) continue;
      const ok = e.when === 'attacker-in' || e.when === 'either-in' || (e.when === 'attacker-in-defender-not' && !inDef(e));
      if (ok) {
        out.push(e);
        seen.add(e);
      }
    }
    for (const e of hexsideEffects(board, a.hex, defender.hex)) {
      if (!seen.has(e) && !above(e, cls) && !above(e, targetClass) && filtersPass(state, e, attackers, defender)) {
        out.push(e);
        seen.add(e);
      }
    }
  }
  for (const e of typeOf(state, defender.unit).effects) if (defends(e)) out.push(e);
  for (const a of attackers)
    for (const e of typeOf(state, a.unit).effects) if ((e.when === 'attacker-in' || e.when === 'either-in') && !out.includes(e)) out.push(e);
  return out;
}

/** A unit's range against a target hex, after range caps (Q-GT-09: TOW range 1 if firer or target is in jungle). */
export function rangeOf(state: GameState, attacker: Participant, targetHex: number): number {
  const board = boardOf(state.scenario);
  const t = typeOf(state, attacker.unit);
  let range = t.range;
  const consider = (e: CombatEffect, attackerSide: boolean) => {
    if (e.kind !== 'range-cap') return;
    if (e.attackerTags !== undefined && !hasTag(t, e.attackerTags)) return;
    if (e.attackerClasses !== undefined && !e.attackerClasses.includes(t.movementClass)) return;
    const applies = e.when === 'either-in' || (attackerSide ? e.when === 'attacker-in' : e.when === 'defender-in');
    if (applies) range = Math.min(range, e.range);
  };
  for (const e of hexEffects(board, attacker.hex)) consider(e, true);
  for (const e of hexEffects(board, targetHex)) consider(e, false);
  return range;
}
