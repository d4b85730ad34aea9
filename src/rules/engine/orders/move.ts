import { z } from 'zod';
import { Json } from '../../model/json';
import { GameState, UnitState } from '../../model/state';
import { EventBody } from '../events';
import { MoveHooks } from '../movement/context';
import { checkMove, reachableHexes, realPath } from '../movement/moves';
import { towedBy, unitOf } from '../queries';
import { ResolveContext, OrderHandler, Resume } from '../kit/types';
import { SideId, Violation } from '../types';
import { violation } from '../violation';
import { visibilityFor } from '../visibility';
import { isViolation, labelSchema, moveFlagProblems, ownUnit, unitIdSchema } from './common';

export const moveSchema = z.strictObject({
  kind: z.literal('move'),
  unit: unitIdSchema,
  /** Hexes entered, start excluded (options() gives exactly this). */
  path: z.array(labelSchema).min(1).max(200),
  /** Units moving along as one stack (a platoon and its support weapon, a Hawk's second truck). */
  with: z.array(unitIdSchema).max(10).optional(),
});
export type MoveOrder = z.infer<typeof moveSchema>;

export interface MovedInfo {
  readonly unit: string;
  readonly with: readonly string[];
  readonly path: readonly string[];
  readonly index: number;
}

export interface MoveOrderOptions<X extends Json> {
  readonly hooks?: MoveHooks;
  /**
   * Runs after the unit has moved (reveal camouflage, anti-landing fire). It may
   * ask; on resume it is called again with `resume` (its own stage and the answer).
   */
  readonly afterMove?: (ctx: ResolveContext<X>, moved: MovedInfo, resume?: Resume) => void;
}

/** The kernel's move order: one whole, indivisible move per unit (GT-6A.2). */
export function moveOrder<X extends Json>(opts: MoveOrderOptions<X> = {}): OrderHandler<X, MoveOrder> {
  return {
    kind: 'move',
    schema: moveSchema,
    validate: (state, side, o, i) => validateMove(state, side, o, i, opts.hooks),
    project: (state, _side, o) => projectMove(state, o, opts.hooks),
    resolve: (ctx, o, i, resume) => resolveMove(ctx, o, i, opts, resume),
    options: (state, side, unitId) => {
      const u = state.units[unitId];
      if (u === undefined || u.side !== side || moveFlagProblems(state, u, 0).length > 0) return {};
      return { moves: reachableHexes(state, unitId, { knownTo: side, hooks: opts.hooks }).map((m) => ({ hex: m.hex, cost: m.cost, path: [...m.path] })) };
    },
  };
}

function movers(state: GameState, o: MoveOrder): UnitState[] {
  return [o.unit, ...(o.with ?? [])].map((id) => unitOf(state, id));
}

export function validateMove(state: GameState, side: SideId, o: MoveOrder, i: number, hooks?: MoveHooks): Violation[] {
  const out: Violation[] = [];
  const group: UnitState[] = [];
  for (const id of [o.unit, ...(o.with ?? [])]) {
    const u = ownUnit(state, side, id, i);
    if (isViolation(u)) out.push(u);
    else {
      out.push(...moveFlagProblems(state, u, i));
      group.push(u);
    }
  }
  if (out.length > 0) return out;
  const lead = group[0]!;
  if (new Set(group.map((g) => g.id)).size !== group.length) return [violation('GT-6A.2', 'movement/duplicate_unit', 'a unit is listed twice in one move', i)];
  for (const g of group.slice(1))
    if (g.loc.at !== 'hex' || lead.loc.at !== 'hex' || g.loc.hex !== lead.loc.hex)
      return [violation(state.scenario.rules.stacking.ruleId, 'movement/group_apart', `${g.id} is not in ${lead.id}'s hex`, i)];
  for (const g of group) {
    const gun = towedBy(state, g.id);
    if (gun !== undefined && gun.loc.at === 'towed' && gun.loc.by.some((t) => !group.some((m) => m.id === t)))
      return [violation(state.scenario.rules.towing.ruleIds['towers'] ?? 'GT-6K.5', 'transport/tow_team_split', `${gun.id} is towed by ${gun.loc.by.join(' and ')}, which must move together`, i)];
  }
  for (const g of group) {
    const r = checkMove(state, g.id, o.path, { knownTo: side, hooks }, group);
    if (!r.ok) return [violation(r.problem.ruleId, r.problem.code, g === lead ? r.problem.message : `${g.id}: ${r.problem.message}`, i)];
  }
  return [];
}

function projectMove(state: GameState, o: MoveOrder, hooks?: MoveHooks): EventBody[] {
  const r = checkMove(state, o.unit, o.path, { knownTo: unitOf(state, o.unit).side, hooks }, movers(state, o));
  const start = unitOf(state, o.unit).loc;
  const from = start.at === 'hex' ? start.hex : o.path[0]!;
  return [{ type: 'UnitMoved', data: { unit: o.unit, path: [from, ...o.path], cost: r.ok ? r.cost : 0, ...(o.with ? { with: o.with } : {}) } }];
}

function resolveMove<X extends Json>(ctx: ResolveContext<X>, o: MoveOrder, i: number, opts: MoveOrderOptions<X>, resume?: Resume): void {
  if (resume !== undefined) {
    const st = resume.stage as { unit: string; with: string[]; path: string[] };
    opts.afterMove?.(ctx, { unit: st.unit, with: st.with, path: st.path, index: i }, resume);
    return;
  }
  const state = ctx.state;
  const problems = validateMove(state, ctx.side, o, i, opts.hooks);
  if (problems.length > 0) {
    const p = problems[0]!;
    ctx.emit({ type: 'OrderCancelled', data: { side: ctx.side, index: i, kind: 'move', reason: p.message, ruleId: p.ruleId }, visibility: { to: 'sides', sides: [ctx.side] } });
    return;
  }
  const group = movers(state, o);
  const lead = group[0]!;
  const start = lead.loc.at === 'hex' ? lead.loc.hex : '';
  let path = o.path as readonly string[];
  let stoppedBy: string | null = null;
  for (const g of group) {
    const real = realPath(state, g.id, path, { hooks: opts.hooks }, group);
    if (real.path.length < path.length) {
      path = real.path;
      stoppedBy = real.stoppedBy;
    }
  }
  const cost = path.length === 0 ? 0 : (() => {
    const c = checkMove(state, o.unit, path, { knownTo: null, hooks: opts.hooks }, group);
    return c.ok ? c.cost : 0;
  })();
  const full = [start, ...path];
  const data = { unit: o.unit, path: full, cost, ...(o.with ? { with: [...o.with] } : {}), ...(stoppedBy ? { stoppedBy } : {}) };
  ctx.emit({
    type: 'UnitMoved',
    data,
    visibility: visibilityFor(state, group, () => ({ type: 'MarkerMoved', data: { marker: lead.hidden?.marker ?? '?', path: full, ...(stoppedBy ? { stoppedBy } : {}) } })),
  });
  opts.afterMove?.(ctx, { unit: o.unit, with: o.with ?? [], path: full, index: i });
}
