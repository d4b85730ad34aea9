import { GameState, UnitState } from '../model/state';
import { UnitType } from '../model/scenario';
import { Board } from './board';
import { hasTag, towedBy, typeOf } from './queries';
import { StackProblem, stackProblem } from './stacking';
import type { TransportProblem } from './transport';

/** Why a stack may not end in a hex: too many counters, or a tower ending by an untowed gun it does not tow. */
export type StackEndProblem = ({ readonly kind: 'stacking' } & StackProblem) | ({ readonly kind: 'tow' } & TransportProblem);

/** How the units come to the hex: by a move (a retreat reads alike: its way in would be a move) or set down by an unload. */
export type Arrival = 'move' | 'unload';

/**
 * The kernel's reasons why `movers` (with the guns they tow, of types `types`) may not end in hex `at`
 * beside `here`, the side's counters already there (the movers left out): stacking (GT-6D.1) and a tower
 * ending in an own untowed gun's hex without towing it (GT-6D.1 (3), towEndProblem). Every way a unit
 * comes to stand in a hex answers to them: a move's end, a retreat's end (Q-GT-35), an unload (Q-GT-22).
 */
export function stackEndProblem(
  state: GameState,
  board: Board,
  side: string,
  at: number,
  movers: readonly UnitState[],
  types: readonly UnitType[],
  here: readonly UnitState[],
  arrival: Arrival = 'move',
): StackEndProblem | null {
  // Most hexes hold no friendly unit: then only the movers' own stack matters.
  const p = here.length === 0 && types.length <= 1 ? null : stackProblem(state, board, side, at, [...here.map((u) => typeOf(state, u)), ...types]);
  if (p !== null) return { kind: 'stacking', ...p };
  const tow = here.length === 0 ? null : towEndProblem(state, movers, here, arrival);
  return tow === null ? null : { kind: 'tow', ...tow };
}

/**
 * GT-6D.1 (3): a truck may enter a gun's hex "in order to tow it", and entering and stopping there is how
 * towing begins (GT-6K.1). So where the data says so (towing.enterOnlyToHitch), a move of towers may not end
 * in the hex of an own gun standing there untowed once the free towers there, the movers with those standing,
 * would be enough to tow it: the move that takes it in tow is a `hitch` with a path. Fewer may wait there for
 * the rest (a Hawk's first truck, GT-6K.5). `stack`: the side's counters in the hex, the movers left out.
 */
export function towEndProblem(state: GameState, movers: readonly UnitState[], stack: readonly UnitState[], arrival: Arrival = 'move'): TransportProblem | null {
  const r = state.scenario.rules.towing;
  if (!r.enterOnlyToHitch || movers.length === 0) return null;
  const free = (u: UnitState) => towedBy(state, u.id) === undefined;
  for (const gun of stack) {
    const hex = gun.loc.at === 'hex' ? gun.loc.hex : null;
    const tow = hex === null ? undefined : typeOf(state, gun).towable;
    if (tow === undefined) continue;
    const towers = (us: readonly UnitState[]) => us.filter((u) => u.id !== gun.id && hasTag(typeOf(state, u), tow.by) && free(u));
    const moving = towers(movers);
    if (moving.length === 0 || moving.length + towers(stack).length < tow.towers) continue;
    return {
      ruleId: r.ruleIds['enter_to_tow'] ?? state.scenario.rules.stacking.ruleId,
      code: 'transport/enter_to_tow',
      // A mover is pointed to the hitch whose path enters the hex; an unloaded unit may not take that way in, so it is told only why.
      message:
        arrival === 'unload'
          ? `${moving[0]!.id} may not be unloaded into ${gun.id}'s hex ${hex}: a tower stands in a gun's hex only to take it in tow, and an unload takes nothing in tow`
          : `${moving[0]!.id} may stand in ${gun.id}'s hex only to take it in tow, entering by a hitch of ${gun.id} whose path ends there`,
    };
  }
  return null;
}
