import { z } from 'zod';
import { Json } from '../../model/json';
import { GameState, UnitState } from '../../model/state';
import { EventBody, orderCancelled } from '../events';
import { ResolveContext, OrderHandler, Resume } from '../kit/types';
import { checkMove } from '../movement/moves';
import { cargoOf, hexOf, towedBy, unitOf } from '../queries';
import { hitchProblem, loadProblem, unloadProblem } from '../transport';
import { boardOf } from '../board';
import { stackProblem, stackTypesAt } from '../stacking';
import { SideId, UnitOptions, Violation } from '../types';
import { violation } from '../violation';
import { visibilityFor } from '../visibility';
import { isViolation, labelSchema, moveFlagProblems, ownUnit, unitIdSchema } from './common';
import { MoveOrder, MoveOrderOptions, resolveMove, validateMove } from './move';
import { OtherOption, hitchOptions, orderOfOption, loadOptions, unhitchOptions, unloadOptions } from './transport-options';

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

export const hitchSchema = z.strictObject({
  kind: z.literal('hitch'),
  unit: unitIdSchema,
  towers: z.array(unitIdSchema).min(1).max(4),
  /** The towers not yet in the gun's hex drive there along it, together, and take the gun in tow (GT-6K.1). */
  path: z.array(labelSchema).min(1).max(200).optional(),
});
export type HitchOrder = z.infer<typeof hitchSchema>;

export const unhitchSchema = z.strictObject({ kind: z.literal('unhitch'), unit: unitIdSchema });
export type UnhitchOrder = z.infer<typeof unhitchSchema>;

function tr(state: GameState, key: string, fallback: string): string {
  return state.scenario.rules.transport.ruleIds[key] ?? state.scenario.rules.towing.ruleIds[key] ?? fallback;
}

/** A handler's `other` options, left out when there are none (as the other handlers' options do). */
function other(list: readonly OtherOption[]): Partial<UnitOptions> {
  return list.length > 0 ? { other: [...list] } : {};
}

function cancel(ctx: ResolveContext, index: number, kind: string, v: Violation): void {
  ctx.emit(orderCancelled(ctx.side, index, kind, v));
}

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
    const out: Violation[] = [];
    for (const id of [o.unit, o.carrier]) {
      const u = ownUnit(state, side, id, i);
      if (isViolation(u)) out.push(u);
    }
    if (out.length > 0) return out;
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
    if (hex !== null && o.path !== undefined) {
      const board = boardOf(state.scenario);
      const sp = stackProblem(after, board, side, board.grid.indexOf(hex), stackTypesAt(after, side, hex));
      if (sp !== null) return [violation(sp.ruleId, 'movement/stacking', `${sp.message}: ${hex}`, i)];
    }
    return [];
  };
  return {
    kind: 'load',
    schema: loadSchema,
    validate: validateLoad,
    optionOrder: (unit, x) => orderOfOption('load', unit, x) as LoadOrder | null,
    options: (state, side, unitId) => other(loadOptions(state, side, unitId, (o) => validateLoad(state, side, o as LoadOrder, 0).length === 0, opts.hooks)),
    project: (state, _side, o) => {
      const ev: EventBody[] = [];
      if (o.path !== undefined) {
        const m = unitOf(state, mover(o));
        ev.push({ type: 'UnitMoved', data: { unit: m.id, path: [m.loc.at === 'hex' ? m.loc.hex : o.path[0]!, ...o.path], cost: 0 } });
      }
      ev.push({ type: 'UnitLoaded', data: { unit: o.unit, carrier: o.carrier } });
      return ev;
    },
    resolve: (ctx, o, i, resume) => {
      if (resume === undefined) {
        const v = validateLoad(ctx.state, ctx.side, o, i);
        if (v.length > 0) return cancel(ctx, i, 'load', v[0]!);
      }
      if (o.path !== undefined) {
        let paused = false;
        // validateLoad has checked the move, with what boarding settles (the stack at its end).
        resolveMove(noticingPause(ctx, () => (paused = true)), { kind: 'move', unit: mover(o), path: o.path }, i, opts, () => [], resume, true);
        if (paused) return;
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

function movedTo(state: GameState, id: string, hex: string): GameState {
  const u = unitOf(state, id);
  return { ...state, units: { ...state.units, [id]: { ...u, loc: { at: 'hex', hex }, flags: { ...u.flags, moved: true } } } };
}

function hitchedState(state: GameState, gun: string, towers: readonly string[]): GameState {
  const u = unitOf(state, gun);
  return { ...state, units: { ...state.units, [gun]: { ...u, loc: { at: 'towed', by: [...towers] } } } };
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

/**
 * Hitching a gun to its tower(s) in the gun's hex (GT-6K.1, GT-6K.5). The towers stop there. With a
 * `path`, the towers not standing there yet (all in one hex) first drive into the gun's hex, the move
 * GT-6K.1 calls entering the artillery's hex and stopping there. Like a load's move, it is a move like any
 * other (resolveMove: stopped by what is hidden on the way, step reactions, afterMove), and the gun is
 * hitched only if every tower ends in its hex.
 */
export function hitchOrder<X extends Json>(opts: MoveOrderOptions<X> = {}): OrderHandler<X, HitchOrder> {
  const check = (state: GameState, side: SideId, o: HitchOrder, i: number): Violation[] => {
    const u = ownUnit(state, side, o.unit, i);
    if (isViolation(u)) return [u];
    let s = state;
    if (o.path !== undefined) {
      const drive = driveToGun(state, side, o, i, opts);
      if ('violation' in drive) return [drive.violation];
      s = drive.state;
    }
    const p = hitchProblem(s, o.unit, o.towers);
    if (p !== null) return [violation(p.ruleId, p.code, p.message, i)];
    const hex = o.path === undefined ? null : hexOf(s, unitOf(s, o.unit));
    if (hex !== null) {
      const after = hitchedState(s, o.unit, o.towers);
      const board = boardOf(state.scenario);
      const sp = stackProblem(after, board, side, board.grid.indexOf(hex), stackTypesAt(after, side, hex));
      if (sp !== null) return [violation(sp.ruleId, 'movement/stacking', `${sp.message}: ${hex}`, i)];
    }
    return [];
  };
  return {
    kind: 'hitch',
    schema: hitchSchema,
    validate: check,
    optionOrder: (unit, x) => orderOfOption('hitch', unit, x) as HitchOrder | null,
    options: (state, side, unitId) => other(hitchOptions(state, side, unitId, (o) => check(state, side, o as HitchOrder, 0).length === 0, opts.hooks)),
    project: (state, _side, o) => {
      const ev: EventBody[] = [];
      const drivers = o.path === undefined ? [] : hitchDrivers(state, o);
      if (drivers.length > 0) {
        const lead = drivers[0]!;
        const rest = drivers.slice(1).map((t) => t.id);
        ev.push({ type: 'UnitMoved', data: { unit: lead.id, path: [lead.loc.at === 'hex' ? lead.loc.hex : o.path![0]!, ...o.path!], cost: 0, ...(rest.length > 0 ? { with: rest } : {}) } });
      }
      ev.push({ type: 'UnitHitched', data: { unit: o.unit, towers: o.towers } });
      return ev;
    },
    resolve: (ctx, o, i, resume) => {
      if (resume === undefined) {
        const v = check(ctx.state, ctx.side, o, i);
        if (v.length > 0) return cancel(ctx, i, 'hitch', v[0]!);
      }
      if (o.path !== undefined) {
        // Resumed, the drivers are the stage's: the lead may stand in the gun's hex already.
        const st = resume?.stage as { unit?: string; with?: string[] } | undefined;
        const drivers = st?.unit !== undefined ? [st.unit, ...(st.with ?? [])] : hitchDrivers(ctx.state, o).map((t) => t.id);
        const move: MoveOrder = { kind: 'move', unit: drivers[0]!, path: o.path, ...(drivers.length > 1 ? { with: drivers.slice(1) } : {}) };
        let paused = false;
        // check has judged the move, with what hitching settles (the stack at its end).
        resolveMove(noticingPause(ctx, () => (paused = true)), move, i, opts, () => [], resume, true);
        if (paused) return;
        const gun = ctx.state.units[o.unit];
        const at = gun === undefined ? null : hexOf(ctx.state, gun);
        // Stopped short (something hidden on the way) or destroyed: no hitch.
        const arrived = (id: string) => {
          const t = ctx.state.units[id];
          return t?.loc.at === 'hex' && t.loc.hex === at;
        };
        if (at === null || !o.towers.every(arrived)) return;
        const p = hitchProblem(ctx.state, o.unit, o.towers);
        if (p !== null) return cancel(ctx, i, 'hitch', violation(p.ruleId, p.code, p.message, i));
      }
      const units = [o.unit, ...o.towers].map((id) => unitOf(ctx.state, id));
      ctx.emit({ type: 'UnitHitched', data: { unit: o.unit, towers: [...o.towers] }, visibility: visibilityFor(ctx.state, units, () => ({ type: 'MarkerHitched', data: {} })) });
    },
  };
}

/** The towers of a hitch that are not in the gun's hex: those its path moves. */
export function hitchDrivers(state: GameState, o: HitchOrder): UnitState[] {
  const gun = state.units[o.unit];
  const at = gun === undefined ? null : hexOf(state, gun);
  return o.towers.flatMap((id) => {
    const t = state.units[id];
    return t !== undefined && (t.loc.at !== 'hex' || t.loc.hex !== at) ? [t] : [];
  });
}

/** The state once a hitch's drivers have driven into the gun's hex, or why they may not. */
function driveToGun<X extends Json>(state: GameState, side: SideId, o: HitchOrder, i: number, opts: MoveOrderOptions<X>): { state: GameState } | { violation: Violation } {
  for (const id of o.towers) {
    const t = ownUnit(state, side, id, i);
    if (isViolation(t)) return { violation: t };
  }
  const goal = hexOf(state, unitOf(state, o.unit));
  const rule = tr(state, 'hitch', 'GT-6K.1');
  if (goal === null || o.path![o.path!.length - 1] !== goal) return { violation: violation(rule, 'transport/hitch_path_end', `the path must end in ${o.unit}'s hex`, i) };
  const drivers = hitchDrivers(state, o);
  if (drivers.length === 0) return { violation: violation(rule, 'transport/hitch_path_unused', `${o.towers.join(' and ')} stand in ${o.unit}'s hex already: hitch without a path`, i) };
  const lead = drivers[0]!;
  let s = state;
  for (const t of drivers) {
    if (t.loc.at !== 'hex' || lead.loc.at !== 'hex' || t.loc.hex !== lead.loc.hex)
      return { violation: violation(state.scenario.rules.stacking.ruleId, 'movement/group_apart', `${t.id} is not in ${lead.id}'s hex`, i) };
    const flags = moveFlagProblems(state, t, i);
    if (flags.length > 0) return { violation: flags[0]! };
    if (towedBy(state, t.id) !== undefined) return { violation: violation(rule, 'transport/already_towing', `${t.id} is already towing`, i) };
    // The end is judged once hitched (check), as a load's is once boarded: no movers are passed for it.
    const r = checkMove(state, t.id, o.path!, { knownTo: side, hooks: opts.hooks }, []);
    if (!r.ok) return { violation: violation(r.problem.ruleId, r.problem.code, t === lead ? r.problem.message : `${t.id}: ${r.problem.message}`, i) };
    s = movedTo(s, t.id, goal);
  }
  return { state: s };
}

/** Unhitching (GT-6K.4): costs no movement but ends the towers' move; the gun may not fire this turn. */
export function unhitchOrder<X extends Json>(): OrderHandler<X, UnhitchOrder> {
  const check = (state: GameState, side: SideId, o: UnhitchOrder, i: number): Violation[] => {
    const u = ownUnit(state, side, o.unit, i);
    if (isViolation(u)) return [u];
    if (u.loc.at !== 'towed') return [violation(tr(state, 'unhitch', 'GT-6K.4'), 'transport/not_towed', `${o.unit} is not being towed`, i)];
    return [];
  };
  return {
    kind: 'unhitch',
    schema: unhitchSchema,
    validate: check,
    optionOrder: (unit, x) => orderOfOption('unhitch', unit, x) as UnhitchOrder | null,
    options: (state, side, unitId) => other(unhitchOptions(state, side, unitId, (o) => check(state, side, o as UnhitchOrder, 0).length === 0)),
    project: (state, _side, o) => [{ type: 'UnitUnhitched', data: { unit: o.unit, hex: hexOf(state, unitOf(state, o.unit)) ?? '' } }],
    resolve: (ctx, o, i) => {
      const v = check(ctx.state, ctx.side, o, i);
      if (v.length > 0) return cancel(ctx, i, 'unhitch', v[0]!);
      const gun = unitOf(ctx.state, o.unit);
      ctx.emit({ type: 'UnitUnhitched', data: { unit: o.unit, hex: hexOf(ctx.state, gun)! }, visibility: visibilityFor(ctx.state, [gun], () => ({ type: 'MarkerUnhitched', data: {} })) });
    },
  };
}

/** Cargo a unit has aboard (for views and tests). */
export function manifestOf(state: GameState, carrier: string): string[] {
  return cargoOf(state, carrier).map((u) => u.id);
}

export { validateMove };
