import { Json } from '../../model/json';
import { GameState, UnitState } from '../../model/state';
import { boardOf } from '../board';
import { EventBody, orderCancelled } from '../events';
import { ResolveContext } from '../kit/types';
import { unitOf } from '../queries';
import { stackProblem, stackTypesAt } from '../stacking';
import { SideId, UnitOptions, Violation } from '../types';
import { violation } from '../violation';
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

export function movedTo(state: GameState, id: string, hex: string): GameState {
  const u = unitOf(state, id);
  return { ...state, units: { ...state.units, [id]: { ...u, loc: { at: 'hex', hex }, flags: { ...u.flags, moved: true } } } };
}

/**
 * The stack in `hex` once the order has acted (`after`: boarded, hitched) may stand there: its move was
 * checked without its end, which the order's own act settles.
 */
export function endStackViolation(after: GameState, side: SideId, hex: string, i: number): Violation | null {
  const board = boardOf(after.scenario);
  const sp = stackProblem(after, board, side, board.grid.indexOf(hex), stackTypesAt(after, side, hex));
  return sp === null ? null : violation(sp.ruleId, 'movement/stacking', `${sp.message}: ${hex}`, i);
}

/** The projected UnitMoved of the move an order makes before it acts: from where `mover` stands, at no cost. */
export function projectedMove(mover: UnitState, path: readonly string[], others: readonly string[] = []): EventBody {
  return { type: 'UnitMoved', data: { unit: mover.id, path: [mover.loc.at === 'hex' ? mover.loc.hex : path[0]!, ...path], cost: 0, ...(others.length > 0 ? { with: [...others] } : {}) } };
}

/**
 * Runs `run` (the move an order makes before it acts) and tells whether a question paused it: the
 * order then returns, to be resumed.
 */
export function pausedDuring<X extends Json>(ctx: ResolveContext<X>, run: (ctx: ResolveContext<X>) => void): boolean {
  let paused = false;
  run({
    get state() {
      return ctx.state;
    },
    dice: ctx.dice,
    side: ctx.side,
    emit: (e) => ctx.emit(e),
    ask: (r) => {
      const a = ctx.ask(r);
      if (!a.answered) paused = true;
      return a;
    },
  });
  return paused;
}
