import { z } from 'zod';
import { GameState, UnitState } from '../../model/state';
import { hexLabel, isSafeRecordKey } from '../../model/schema/common';
import { flag } from '../queries';
import { boardOf, isOnMap } from '../board';
import { OtherOption, SideId, Violation } from '../types';
import { INPUT_RULE, violation } from '../violation';

export const unitIdSchema = z.string().min(1).max(200).refine(isSafeRecordKey, 'is not a unit id');
export const labelSchema = hexLabel;

/** The unit, if it exists and belongs to `side`; otherwise the violation to report. */
export function ownUnit(state: GameState, side: SideId, id: string, index: number): UnitState | Violation {
  const u = state.units[id];
  if (u === undefined || u.side !== side) return violation(INPUT_RULE, 'input/not_your_unit', `${side} has no unit "${id}"`, index);
  if (u.loc.at === 'eliminated') return violation(INPUT_RULE, 'input/unit_eliminated', `${id} has been eliminated`, index);
  return u;
}

/**
 * The units a list in standing orders names (at `field`) that are not the side's own, or that it
 * names again. An enemy's id is refused as an unknown one is, so the refusal tells nothing of it;
 * an own unit since lost stays allowed (the orders outlive it).
 */
export function notOwnUnits(state: GameState, side: SideId, field: string, ids: readonly string[]): Violation[] {
  return ids.flatMap((id, k) => {
    const u = state.units[id];
    if (u === undefined || u.side !== side) return [violation(INPUT_RULE, 'input/not_your_unit', `${field}.${k}: ${side} has no unit "${id}"`)];
    return repeated(ids, k) ? [violation(INPUT_RULE, 'input/duplicate_unit', `${field}.${k}: ${id} is listed twice`)] : [];
  });
}

/** Whether the `k`th entry of a list already came earlier in it. */
export function repeated(list: readonly string[], k: number): boolean {
  return list.indexOf(list[k]!) < k;
}

export function isViolation(x: UnitState | Violation): x is Violation {
  return 'code' in x && 'ruleId' in x;
}

/** ownUnit's violations for each of `ids`, in order: none when all are the side's own. */
export function ownUnitProblems(state: GameState, side: SideId, ids: readonly string[], index: number): Violation[] {
  return ids.flatMap((id) => {
    const u = ownUnit(state, side, id, index);
    return isViolation(u) ? [u] : [];
  });
}

/**
 * GT-6F.1: a unit unloaded this turn may not move (where the data says so). Read by every way a unit
 * would leave where it was put: its own move, and a load that takes it out of a ship (Gators! ship-cargo.ts).
 */
export function unloadedMoveProblem(state: GameState, u: UnitState, index: number): Violation | null {
  const t = state.scenario.rules.transport;
  if (!flag(u, 'unloaded') || t.unloadedCargoMayMove) return null;
  return violation(moveRuleId(state, 'cargo_unloaded', 'GT-6F.1'), 'transport/unloaded_may_not_move', `${u.id} was unloaded this turn and may not move`, index);
}

/** The rule ID the data gives a reason a unit may not move (movement's, transport's or towing's ruleIds). */
function moveRuleId(state: GameState, key: string, fallback: string): string {
  const r = state.scenario.rules;
  return r.movement.ruleIds[key] ?? r.transport.ruleIds[key] ?? r.towing.ruleIds[key] ?? fallback;
}

/** Why this unit may not start a move now, from its per-turn flags and the transport rules. */
export function moveFlagProblems(state: GameState, u: UnitState, index: number): Violation[] {
  const r = state.scenario.rules;
  const out: Violation[] = [];
  const t = r.transport;
  const mr = (k: string, fallback: string) => moveRuleId(state, k, fallback);
  if (flag(u, 'moved') || flag(u, 'retreated')) out.push(violation(mr('indivisible', 'GT-6A.2'), 'movement/already_moved', `${u.id} has already moved this turn`, index));
  const unloaded = unloadedMoveProblem(state, u, index);
  if (unloaded !== null) out.push(unloaded);
  if (flag(u, 'loadedCargo') && !t.carrierMayMoveAfterLoading) out.push(violation(mr('carrier_loaded', 'GT-6G.1'), 'transport/loaded_may_not_move', `${u.id} has loaded cargo this turn and may not move`, index));
  if (flag(u, 'hitched')) out.push(violation(mr('hitch', 'GT-6K.1'), 'transport/hitched_stop', `${u.id} stopped to hitch a gun this turn`, index));
  if (flag(u, 'unhitched') && r.towing.unhitchEndsMove) out.push(violation(mr('unhitch', 'GT-6K.4'), 'transport/unhitch_ends_move', `unhitching ended ${u.id}'s move`, index));
  if (u.loc.at === 'carried') out.push(violation(mr('cargo_loaded', 'GT-6G.1'), 'transport/aboard', `${u.id} is aboard a transport; unload it first`, index));
  if (u.loc.at === 'towed') out.push(violation(mr('towed', 'GT-6K.1'), 'transport/towed', `${u.id} is being towed and moves with its tower`, index));
  if (u.loc.at === 'box') out.push(violation(INPUT_RULE, 'movement/not_on_map', `${u.id} is not on the map`, index));
  return out;
}

/**
 * `action` `{hex}` for every hex of the map `accepts` takes, in map order: a side's order that
 * names a hex (Gators!: raise guerrillas, place Debris), listed by the order's own check.
 */
export function hexOptions(state: GameState, action: string, accepts: (hex: string) => boolean): OtherOption[] {
  const board = boardOf(state.scenario);
  const out: OtherOption[] = [];
  for (let i = 0; i < board.grid.size; i++) {
    if (!isOnMap(board, i)) continue;
    const hex = board.grid.label(i);
    if (accepts(hex)) out.push({ action, detail: { hex } });
  }
  return out;
}
