import { Json } from '../../model/json';
import { GameState } from '../../model/state';
import { orderCancelled } from '../events';
import { ResolveContext } from '../kit/types';
import { unitOf } from '../queries';
import { UnitOptions, Violation } from '../types';
import { OtherOption } from './transport-options';

/** What the transport orders (load, unload: transport-orders.ts; hitch, unhitch: tow-orders.ts) share. */

export function tr(state: GameState, key: string, fallback: string): string {
  return state.scenario.rules.transport.ruleIds[key] ?? state.scenario.rules.towing.ruleIds[key] ?? fallback;
}

/** A handler's `other` options, left out when there are none (as the other handlers' options do). */
export function other(list: readonly OtherOption[]): Partial<UnitOptions> {
  return list.length > 0 ? { other: [...list] } : {};
}

export function cancel(ctx: ResolveContext, index: number, kind: string, v: Violation): void {
  ctx.emit(orderCancelled(ctx.side, index, kind, v));
}

/** The context, noticing when a question pauses the resolution (the order then returns, to be resumed). */
export function noticingPause<X extends Json>(ctx: ResolveContext<X>, paused: () => void): ResolveContext<X> {
  return {
    get state() {
      return ctx.state;
    },
    dice: ctx.dice,
    side: ctx.side,
    emit: (e) => ctx.emit(e),
    ask: (r) => {
      const a = ctx.ask(r);
      if (!a.answered) paused();
      return a;
    },
  };
}

export function movedTo(state: GameState, id: string, hex: string): GameState {
  const u = unitOf(state, id);
  return { ...state, units: { ...state.units, [id]: { ...u, loc: { at: 'hex', hex }, flags: { ...u.flags, moved: true } } } };
}
