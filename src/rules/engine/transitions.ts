import { Json, sameJson } from '../model/json';
import { GameState } from '../model/state';
import { EventBody } from './events';
import { stateSlot } from './state-memo';

/**
 * The last step taken from each state, so that evolve can hand back a state it
 * already made: evolve is pure, so the same event on the same state gives the
 * same state. Validation folds each order's projected events; resolution then
 * emits the same events for the orders that nothing random interrupts, and so
 * walks the very states validation made (with everything cached on them); the
 * application folds the events resolve returned into the state it resolved
 * from. A step is matched on the event's type and its data as JSON, keys in
 * the same order, so that the state handed back is exactly the one evolve
 * would make. Used once: a memo must not keep a chain of states alive.
 */
interface Transition {
  readonly type: string;
  readonly data: unknown;
  readonly system: unknown;
  readonly next: GameState<Json>;
}

const transitions = stateSlot<Transition>();

export function takeTransition(state: GameState<Json>, event: EventBody, system: unknown): GameState<Json> | undefined {
  const t = transitions.get(state);
  if (t === undefined || t.type !== event.type || t.system !== system || !sameJson(t.data, event.data, 'significant')) return undefined;
  transitions.set(state, undefined);
  return t.next;
}

export function rememberTransition(state: GameState<Json>, event: EventBody, system: unknown, next: GameState<Json>): void {
  transitions.set(state, { type: event.type, data: event.data, system, next });
}

/** Drops the step remembered from a state (a validation that failed will not be resolved). */
export function forgetTransition(state: GameState<Json>): void {
  transitions.set(state, undefined);
}
