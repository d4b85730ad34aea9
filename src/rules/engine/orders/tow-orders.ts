import { z } from 'zod';
import { Json } from '../../model/json';
import { GameState, UnitState } from '../../model/state';
import { EventBody } from '../events';
import { OrderHandler } from '../kit/types';
import { checkMove } from '../movement/moves';
import { hexOf, towedBy, unitOf } from '../queries';
import { hitchProblem } from '../transport';
import { SideId, Violation } from '../types';
import { violation } from '../violation';
import { visibilityFor } from '../visibility';
import { isViolation, labelSchema, moveFlagProblems, ownUnit, ownUnitProblems, unitIdSchema } from './common';
import { MoveOrder, MoveOrderOptions, resolveMove } from './move';
import { cancel, endStackViolation, movedTo, other, pausedDuring, projectedMove, tr } from './transport-common';
import { hitchOptions, orderOfOption, unhitchOptions } from './transport-options';

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

function hitchedState(state: GameState, gun: string, towers: readonly string[]): GameState {
  const u = unitOf(state, gun);
  return { ...state, units: { ...state.units, [gun]: { ...u, loc: { at: 'towed', by: [...towers] } } } };
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
    const sp = hex === null ? null : endStackViolation(hitchedState(s, o.unit, o.towers), side, hex, i);
    return sp === null ? [] : [sp];
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
      if (drivers.length > 0) ev.push(projectedMove(drivers[0]!, o.path!, drivers.slice(1).map((t) => t.id)));
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
        // check has judged the move, with what hitching settles (the stack at its end).
        if (pausedDuring(ctx, (c) => resolveMove(c, move, i, opts, () => [], resume, true))) return;
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

/**
 * The state once a hitch's drivers have driven into the gun's hex, or why they may not. Not
 * validateMove: it judges the end with the movers standing there unhitched, where a tower may
 * stand only to take the gun in tow (GT-6D.1 (3)), so it would refuse every such drive.
 */
function driveToGun<X extends Json>(state: GameState, side: SideId, o: HitchOrder, i: number, opts: MoveOrderOptions<X>): { state: GameState } | { violation: Violation } {
  const notOwn = ownUnitProblems(state, side, o.towers, i);
  if (notOwn.length > 0) return { violation: notOwn[0]! };
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
