import { RecentWeakMap, YOUNG_GENERATION } from './recent-weak-map';

/**
 * What the engine remembers about one state (its last transition, its move contexts, the
 * checks made on it), in a single WeakMap entry per state. A fold makes a new state per
 * event, and each WeakMap insertion is costly (V8's ephemeron tables: a few tenths of a
 * microsecond each, and every scavenge walks them): the memos used to take up to five
 * entries per state. Each memo gets its own slot; a slot holds a value or undefined.
 * What a slot holds may not depend on the state's seq (shareMemos).
 */
export interface StateSlot<T> {
  get(state: object): T | undefined;
  set(state: object, value: T | undefined): void;
}

// Young tables (recent-weak-map.ts): states die young, and an old table kept them for a full collection.
const memos = new RecentWeakMap<object, unknown[]>(YOUNG_GENERATION);
let slots = 0;

export function stateSlot<T>(): StateSlot<T> {
  const k = slots++;
  return {
    get: (state) => memos.get(state)?.[k] as T | undefined,
    set: (state, value) => {
      let m = memos.get(state);
      if (m === undefined) {
        if (value === undefined) return;
        memos.set(state, (m = []));
      }
      m[k] = value;
    },
  };
}

/**
 * Gives `to`, a state equal to `from` but for seq, what `from` remembers (see evolve: an event
 * that changes nothing else, such as an attack's result record). No memo reads seq, so every
 * answer holds for both; copying the slots, not sharing the array, keeps each state's own
 * later entries (its next transition) its own, while the lists a slot holds are shared.
 */
export function shareMemos(from: object, to: object): void {
  const m = memos.get(from);
  if (m !== undefined) memos.set(to, m.slice());
}
