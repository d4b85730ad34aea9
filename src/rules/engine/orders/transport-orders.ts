import { z } from 'zod';
import { Json } from '../../model/json';
import { GameState } from '../../model/state';
import { EventBody } from '../events';
import { ResolveContext, OrderHandler, Resume } from '../kit/types';
import { checkMove } from '../movement/moves';
import { hexOf, unitOf } from '../queries';
import { loadProblem, unloadProblem } from '../transport';
import { SideId, Violation } from '../types';
import { violation } from '../violation';
import { visibilityFor } from '../visibility';
import { isViolation, labelSchema, moveFlagProblems, ownUnit, ownUnitProblems, unitIdSchema } from './common';
import { MoveOrder, MoveOrderOptions, resolveMove } from './move';
import { cancel, endStackViolation, movedTo, other, pausedDuring, projectedMove, tr } from './transport-common';
import { orderOfOption, loadOptions, unloadOptions } from './transport-options';

export const loadSchema = z.strictObject({
  kind: z.literal('load'),
  unit: unitIdSchema,
  carrier: unitIdSchema,
  /** Who moves into the other's hex first (GT-6G.1): the cargo (default) or the carrier. */
  mover: z.enum(['cargo', 'carrier']).optional(),
  path: z.array(labelSchema).min(1).max(200).optional(),
});
export type LoadOrder = z.infer<typeof loadSchema>;

export const unloadSchema = z.strictObject({ kind: z.literal('unload'), unit: unitIdSchema, hex: labelSchema });
export type UnloadOrder = z.infer<typeof unloadSchema>;

/**
 * Loading (GT-6G): the cargo moves onto the transport's hex, or the transport onto the cargo's,
 * then boards. That move is a move like any other (resolveMove: stopped by what is hidden on the
 * way, step reactions, afterMove: anti-landing fire, uncovering, fuel, traps, capture), and the
 * boarding happens only if it ends where the other unit stands.
 */
export function loadOrder<X extends Json>(opts: MoveOrderOptions<X> = {}): OrderHandler<X, LoadOrder> {
  const mover = (o: LoadOrder) => (o.mover === 'carrier' ? o.carrier : o.unit);
  const target = (o: LoadOrder) => (o.mover === 'carrier' ? o.unit : o.carrier);
  const validateLoad = (state: GameState, side: SideId, o: LoadOrder, i: number): Violation[] => {
    const notOwn = ownUnitProblems(state, side, [o.unit, o.carrier], i);
    if (notOwn.length > 0) return notOwn;
    let s = state;
    if (o.path !== undefined) {
      const m = unitOf(state, mover(o));
      const flags = moveFlagProblems(state, m, i);
      if (flags.length > 0) return flags;
      const goal = hexOf(state, unitOf(state, target(o)));
      if (o.path[o.path.length - 1] !== goal)
        return [violation(tr(state, 'load', 'GT-6G.1'), 'transport/load_path_end', `the path must end in ${goal ?? 'the other unit'}'s hex`, i)];
      const r = checkMove(state, m.id, o.path, { knownTo: side, hooks: opts.hooks }, []);
      if (!r.ok && r.problem.code !== 'movement/stacking') return [violation(r.problem.ruleId, r.problem.code, r.problem.message, i)];
      s = movedTo(state, m.id, goal!);
    }
    const p = loadProblem(s, o.unit, o.carrier);
    if (p !== null) return [violation(p.ruleId, p.code, p.message, i)];
    const after = loadedState(s, o.unit, o.carrier);
    const hex = hexOf(after, unitOf(after, o.carrier));
    const sp = hex === null || o.path === undefined ? null : endStackViolation(after, side, hex, i);
    return sp === null ? [] : [sp];
  };
  return {
    kind: 'load',
    schema: loadSchema,
    validate: validateLoad,
    optionOrder: (unit, x) => orderOfOption('load', unit, x) as LoadOrder | null,
    options: (state, side, unitId) => other(loadOptions(state, side, unitId, (o) => validateLoad(state, side, o as LoadOrder, 0).length === 0, opts.hooks)),
    project: (state, _side, o) => {
      const ev: EventBody[] = [];
      if (o.path !== undefined) ev.push(projectedMove(unitOf(state, mover(o)), o.path));
      ev.push({ type: 'UnitLoaded', data: { unit: o.unit, carrier: o.carrier } });
      return ev;
    },
    resolve: (ctx, o, i, resume) => {
      if (resume === undefined) {
        const v = validateLoad(ctx.state, ctx.side, o, i);
        if (v.length > 0) return cancel(ctx, i, 'load', v[0]!);
      }
      if (o.path !== undefined) {
        const move: MoveOrder = { kind: 'move', unit: mover(o), path: o.path };
        // validateLoad has checked the move, with what boarding settles (the stack at its end).
        if (pausedDuring(ctx, (c) => resolveMove(c, move, i, opts, () => [], resume, true))) return;
        const m = ctx.state.units[mover(o)];
        const goal = ctx.state.units[target(o)];
        // Stopped short (something hidden on the way), turned back or destroyed (fire at it): no boarding.
        if (m?.loc.at !== 'hex' || goal?.loc.at !== 'hex' || m.loc.hex !== goal.loc.hex) return;
        const p = loadProblem(ctx.state, o.unit, o.carrier);
        if (p !== null) return cancel(ctx, i, 'load', violation(p.ruleId, p.code, p.message, i));
      }
      const cargo = unitOf(ctx.state, o.unit);
      const carrier = unitOf(ctx.state, o.carrier);
      ctx.emit({
        type: 'UnitLoaded',
        data: { unit: o.unit, carrier: o.carrier },
        visibility: visibilityFor(ctx.state, [cargo, carrier], () => ({ type: 'MarkerLoaded', data: { hex: hexOf(ctx.state, carrier) } })),
      });
    },
  };
}

function loadedState(state: GameState, cargo: string, carrier: string): GameState {
  const u = unitOf(state, cargo);
  return { ...state, units: { ...state.units, [cargo]: { ...u, loc: { at: 'carried', by: carrier } } } };
}

export interface UnloadOptions<X extends Json> {
  /** Runs after the cargo is put down (GT-7O.1 anti-landing fire on unloading); may ask, like afterMove. */
  readonly afterUnload?: (ctx: ResolveContext<X>, info: { unit: string; carrier: string; hex: string; index: number }, resume?: Resume) => void;
}

/** Unloading (GT-6F): after the transport's move, into an adjacent (or its own) hex the cargo may stand in. */
export function unloadOrder<X extends Json>(opts: UnloadOptions<X> = {}): OrderHandler<X, UnloadOrder> {
  const validateUnload = (state: GameState, side: SideId, o: UnloadOrder, i: number): Violation[] => {
    const u = ownUnit(state, side, o.unit, i);
    if (isViolation(u)) return [u];
    const p = unloadProblem(state, o.unit, o.hex);
    return p === null ? [] : [violation(p.ruleId, p.code, p.message, i)];
  };
  return {
    kind: 'unload',
    schema: unloadSchema,
    validate: validateUnload,
    optionOrder: (unit, x) => orderOfOption('unload', unit, x) as UnloadOrder | null,
    options: (state, side, unitId) => other(unloadOptions(state, side, unitId, (o) => validateUnload(state, side, o as UnloadOrder, 0).length === 0)),
    project: (_state, _side, o) => [{ type: 'UnitUnloaded', data: { unit: o.unit, hex: o.hex } }],
    resolve: (ctx, o, i, resume) => {
      if (resume !== undefined) {
        const st = resume.stage as { unit: string; carrier: string; hex: string };
        return opts.afterUnload?.(ctx, { ...st, index: i }, resume);
      }
      const v = validateUnload(ctx.state, ctx.side, o, i);
      if (v.length > 0) return cancel(ctx, i, 'unload', v[0]!);
      const cargo = unitOf(ctx.state, o.unit);
      const carrier = cargo.loc.at === 'carried' ? cargo.loc.by : '';
      ctx.emit({
        type: 'UnitUnloaded',
        data: { unit: o.unit, hex: o.hex },
        visibility: cargo.hidden === undefined ? { to: 'all' } : visibilityFor(ctx.state, [cargo], () => ({ type: 'MarkerUnloaded', data: { hex: o.hex, marker: cargo.hidden!.marker } })),
      });
      opts.afterUnload?.(ctx, { unit: o.unit, carrier, hex: o.hex, index: i });
    },
  };
}
