import { SideId } from '../types';
import { stateSlot } from '../state-memo';

type Check<S, O, R> = (state: S, side: SideId, order: O, index: number) => R;

/**
 * A pure check of an order, remembered per state: resolution checks each order again on
 * the very state validation checked it on (it walks the states validation projected,
 * transitions.ts) and, since resolve gets the objects parse() made, the very same order
 * object. Matched on the order's identity, side and index; a few entries per state, dropped
 * with the state (state-memo.ts). The result is shared: callers read it, never change it.
 */
export function rememberedCheck<S extends object, O, R>(check: Check<S, O, R>): Check<S, O, R> {
  const seen = stateSlot<{ readonly side: SideId; readonly order: O; readonly index: number; readonly result: R }[]>();
  return (state, side, order, index) => {
    let list = seen.get(state);
    if (list === undefined) seen.set(state, (list = []));
    for (const k of list) if (k.order === order && k.side === side && k.index === index) return k.result;
    const result = check(state, side, order, index);
    if (list.length >= MAX) list.shift();
    list.push({ side, order, index, result });
    return result;
  };
}

const MAX = 4;
