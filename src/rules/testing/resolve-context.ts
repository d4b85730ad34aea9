import { ForcedDice } from '../dice/forced-dice';
import { evolve } from '../engine/evolve';
import type { ResolveContext } from '../engine/kit/types';
import type { RulesEvent } from '../engine/types';
import type { GameState } from '../model/state';

/**
 * A resolution context for testing one step on its own: forced dice, every emitted event
 * recorded and folded into the state, and no side ever answering a question.
 */
export function recordingContext(s: GameState, dice: number[], side = 'A'): ResolveContext & { events: RulesEvent[] } {
  let cur = s;
  const events: RulesEvent[] = [];
  return {
    get state() {
      return cur;
    },
    dice: new ForcedDice(dice),
    side,
    events,
    emit: (e) => {
      events.push(e);
      cur = evolve(cur, e);
    },
    ask: () => ({ answered: false }),
  };
}
