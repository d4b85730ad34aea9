import { GameState } from '../../model/state';
import { checkVictory, Outcome } from '../../engine/victory';

/**
 * GT-8.1 with Q-GT-46, checked at the end of every turn (the kernel calls it
 * after the last phase): victory.json's conditions, but only units standing
 * in the area count — a ground unit still aboard a helicopter has not taken
 * the capital, and the UH-1Ns must have landed there. No enemy unit may be in
 * the area or within `noEnemyWithin` of it (hidden and broken units count:
 * this is the real state).
 */
export function gatorsVictory(state: GameState): Outcome | null {
  return checkVictory(state, (_s, u) => (u.loc.at === 'hex' ? u.loc.hex : null));
}
