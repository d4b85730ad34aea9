import { z } from 'zod';
import { Json } from '../../model/json';
import { GameState, UnitState } from '../../model/state';
import { EventBody, orderCancelled } from '../events';
import { MoveHooks, moveContexts } from '../movement/context';
import { checkPath } from '../movement/validate-path';
import { checkMove, lastHoldingHex, reachableHexes, realPath } from '../movement/moves';
import { towedBy, typeOf, unitOf } from '../queries';
import { AskRequest, ResolveContext, OrderHandler, Resume } from '../kit/types';
import { rememberedCheck } from '../kit/remembered-check';
import { SideId, Violation } from '../types';
import { INPUT_RULE, violation } from '../violation';
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
  /**
   * The hex whose zone of control cut the move short (realPath): its end, or a hex beyond it that could
   * not hold the unit (an aircraft flying over an enemy), so the enemies that stopped it need not be next to the end.
   */
  readonly zocAt?: string;
}

/** Where a moving unit is, for a reaction during its move: it has just entered path[at]. */
export interface MoveStep extends MovedInfo {
  readonly at: number;
}

/**
 * A reaction point at each hex of a move (GT-6C.4: a camouflaged air-defence
 * unit unmasks as an aircraft flies past; Grav Armor fire during movement,
 * GA-FIRE-4). `question` is pure and sees the unit already in path[at];
 * `apply` carries out the answer and says whether the move goes on.
 */
export interface StepReaction<X extends Json> {
  question(state: GameState<X>, step: MoveStep): Omit<AskRequest, 'stage'> | null;
  apply(ctx: ResolveContext<X>, step: MoveStep, answer: Json): boolean;
  /**
   * Whether the answer to this step's question stops the move as a zone of control does (GT-6C.4): should
   * path[at] be unable to hold the unit (an aircraft over an enemy), the unit waits for the answer at the last
   * hex before it that can, and ends there if stopped (GT-6D.1), as realPath ends a move cut short. Otherwise
   * it waits in path[at] itself: a landing is fired at in the hex it comes ashore in (GT-7O.1).
   */
  stopsLikeZoc?(state: GameState<X>, step: MoveStep): boolean;
}

export interface MoveOrderOptions<X extends Json> {
  readonly hooks?: MoveHooks;
  readonly stepReaction?: StepReaction<X>;
  /**
   * Runs after the unit has moved (reveal camouflage, anti-landing fire). It may
   * ask; on resume it is called again with `resume` (its own stage and the answer).
   */
  readonly afterMove?: (ctx: ResolveContext<X>, moved: MovedInfo, resume?: Resume) => void;
}

/** The kernel's move order: one whole, indivisible move per unit (GT-6A.2). */
export function moveOrder<X extends Json>(opts: MoveOrderOptions<X> = {}): OrderHandler<X, MoveOrder> {
  const check = rememberedCheck((state: GameState, side: SideId, o: MoveOrder, i: number) => validateMove(state, side, o, i, opts.hooks));
  return {
    kind: 'move',
    schema: moveSchema,
    validate: check,
    project: (state, _side, o) => projectMove(state, o, opts.hooks),
    resolve: (ctx, o, i, resume) => resolveMove(ctx, o, i, opts, check, resume),
    options: (state, side, unitId) => {
      const u = state.units[unitId];
      if (u === undefined || u.side !== side || moveFlagProblems(state, u, 0).length > 0) return {};
      // A tower short of its team can go nowhere; one of a full team moves only with the others, so its options name them (`with`).
      const team = towTeam(state, u);
      if (towProblem(state, team, 0)?.code === 'transport/tow_team') return {};
      const along = team.filter((t) => t.id !== unitId).map((t) => t.id);
      return {
        moves: reachableHexes(state, unitId, { knownTo: side, hooks: opts.hooks }, along).map((m) => ({ hex: m.hex, cost: m.cost, path: [...m.path], ...(along.length > 0 ? { with: along } : {}) })),
      };
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
  const twice = group.find((g, k) => group.findIndex((x) => x.id === g.id) !== k);
  if (twice !== undefined) return [violation(INPUT_RULE, 'input/duplicate_unit', `with: ${twice.id} is listed twice in one move`, i)];
  for (const g of group.slice(1))
    if (g.loc.at !== 'hex' || lead.loc.at !== 'hex' || g.loc.hex !== lead.loc.hex)
      return [violation(state.scenario.rules.stacking.ruleId, 'movement/group_apart', `${g.id} is not in ${lead.id}'s hex`, i)];
  const tow = towProblem(state, group, i);
  if (tow !== null) return [tow];
  for (const g of group) {
    const r = checkMove(state, g.id, o.path, { knownTo: side, hooks }, group);
    if (!r.ok) return [violation(r.problem.ruleId, r.problem.code, g === lead ? r.problem.message : `${g.id}: ${r.problem.message}`, i)];
  }
  return [];
}

/** The unit and the other towers of the gun it tows. */
function towTeam(state: GameState, u: UnitState): UnitState[] {
  const gun = towedBy(state, u.id);
  return gun === undefined || gun.loc.at !== 'towed' ? [u] : gun.loc.by.map((id) => unitOf(state, id));
}

/** GT-6K.5: a towed gun moves only with all its towers, and only while they are enough to tow it. */
function towProblem(state: GameState, group: readonly UnitState[], i: number): Violation | null {
  for (const g of group) {
    const gun = towedBy(state, g.id);
    if (gun === undefined || gun.loc.at !== 'towed') continue;
    const towers = state.scenario.rules.towing.ruleIds['towers'];
    if (gun.loc.by.some((t) => !group.some((m) => m.id === t)))
      return violation(towers ?? 'GT-6K.5', 'transport/tow_team_split', `${gun.id} is towed by ${gun.loc.by.join(' and ')}, which must move together`, i);
    // A tower destroyed under way leaves the gun hitched to the rest (evolve), which may be too few to tow it.
    const tow = typeOf(state, gun).towable;
    if (tow !== undefined && gun.loc.by.length < tow.towers)
      return violation(towers ?? tow.ruleId, 'transport/tow_team', `${gun.id} needs ${tow.towers} towers; ${gun.loc.by.join(' and ')} cannot tow it (unhitch it)`, i);
  }
  return null;
}

function projectMove(state: GameState, o: MoveOrder, hooks?: MoveHooks): EventBody[] {
  const r = checkMove(state, o.unit, o.path, { knownTo: unitOf(state, o.unit).side, hooks }, movers(state, o));
  const start = unitOf(state, o.unit).loc;
  const from = start.at === 'hex' ? start.hex : o.path[0]!;
  return [{ type: 'UnitMoved', data: { unit: o.unit, path: [from, ...o.path], cost: r.ok ? r.cost : 0, ...(o.with ? { with: o.with } : {}) } }];
}

type OrderCheck = (state: GameState, side: SideId, o: MoveOrder, i: number) => Violation[];

/**
 * Carries out a move order: the real path (stopped where something hidden stops it), the step
 * reactions and what follows a move (afterMove). Also the move a load or a hitch makes
 * (transport-orders.ts, tow-orders.ts), whose own checks (`check`) allow what boarding or hitching
 * settles, such as stacking at the end.
 */
export function resolveMove<X extends Json>(ctx: ResolveContext<X>, o: MoveOrder, i: number, opts: MoveOrderOptions<X>, check: OrderCheck, resume?: Resume, boards = false): void {
  if (resume !== undefined) {
    const st = resume.stage as {
      kind?: string;
      unit: string;
      with: string[];
      path: string[];
      at: number;
      waitsAt?: number;
      planned: string[];
      stoppedBy: string | null;
      zocAt?: string | null;
    };
    if (st.kind === STEP_STAGE) {
      const here: MoveStep = { unit: st.unit, with: st.with, path: st.planned, at: st.at, index: i };
      const goOn = opts.stepReaction!.apply(ctx, here, resume.answer);
      return walkSegments(ctx, o, i, opts, st.planned, goOn ? st.at : -1, st.waitsAt ?? st.at, st.stoppedBy, st.zocAt ?? null);
    }
    opts.afterMove?.(ctx, { unit: st.unit, with: st.with, path: st.path, index: i }, resume);
    return;
  }
  const state = ctx.state;
  const problems = check(state, ctx.side, o, i);
  if (problems.length > 0) {
    ctx.emit(orderCancelled(ctx.side, i, 'move', problems[0]!));
    return;
  }
  const group = movers(state, o);
  const lead = group[0]!;
  const start = lead.loc.at === 'hex' ? lead.loc.hex : '';
  let path = o.path as readonly string[];
  let stoppedBy: string | null = null;
  let zocAt: string | null = null;
  for (const g of group) {
    const real = realPath(state, g.id, path, { hooks: opts.hooks }, group, boards);
    if (real.path.length < path.length) {
      path = real.path;
      stoppedBy = real.stoppedBy;
      zocAt = real.zocAt;
    }
  }
  walkSegments(ctx, o, i, opts, [start, ...path], 0, 0, stoppedBy, zocAt);
}

const STEP_STAGE = 'move-step';

/**
 * Carries out a (real) path from path[from], asking the step reaction at each
 * hex entered. Each stretch between questions is one UnitMoved event, so the
 * other side sees the unit where it waits for the answer: the hex asked about,
 * or for a reaction that stops like a ZOC the last hex up to it that may hold
 * the unit, where a stop ends it. `from` = -1 means the move ended at
 * path[segment] (the reaction stopped it).
 */
function walkSegments<X extends Json>(
  ctx: ResolveContext<X>,
  o: MoveOrder,
  i: number,
  opts: MoveOrderOptions<X>,
  planned: readonly string[],
  from: number,
  segment: number,
  stoppedBy: string | null,
  zocAt: string | null,
): void {
  const withIds = o.with ?? [];
  let end = from < 0 ? segment : planned.length - 1;
  if (from >= 0 && opts.stepReaction !== undefined) {
    for (let at = from + 1; at < planned.length; at++) {
      if (ctx.state.units[o.unit]?.loc.at === 'eliminated') return;
      const here: MoveStep = { unit: o.unit, with: withIds, path: [...planned], at, index: i };
      const q = opts.stepReaction.question(ctx.state, here);
      if (q === null) continue;
      // Stopped over a hex that may not hold it, it would end before it (GT-6D.1): it waits there, so that what the
      // other side sees while the question is open is where a stop would leave it, never a hex it cannot end in.
      const waitsAt = opts.stepReaction.stopsLikeZoc?.(ctx.state, here) === true ? lastHoldingHex(ctx.state, o.unit, planned, segment, at, { hooks: opts.hooks }, movers(ctx.state, o)) : at;
      if (waitsAt > segment) emitSegment(ctx, o, planned, segment, waitsAt, null, opts);
      segment = waitsAt;
      const r = ctx.ask({
        ...q,
        stage: { kind: STEP_STAGE, unit: o.unit, with: [...withIds], path: [...planned], planned: [...planned], at, ...(waitsAt !== at ? { waitsAt } : {}), stoppedBy, ...(zocAt !== null ? { zocAt } : {}) },
      });
      if (!r.answered) return;
      if (!opts.stepReaction.apply(ctx, here, r.answer)) {
        end = segment;
        break;
      }
    }
  }
  if (ctx.state.units[o.unit]?.loc.at !== 'hex') return;
  if (end > segment || segment === 0) emitSegment(ctx, o, planned, segment, end, stoppedBy, opts);
  // A step reaction that ended the move sooner leaves no zone of control to name.
  const stop = zocAt !== null && end === planned.length - 1 ? { zocAt } : {};
  opts.afterMove?.(ctx, { unit: o.unit, with: withIds, path: planned.slice(0, end + 1), index: i, ...stop });
}

function emitSegment<X extends Json>(ctx: ResolveContext<X>, o: MoveOrder, planned: readonly string[], a: number, b: number, stoppedBy: string | null, opts: MoveOrderOptions<X>): void {
  const state = ctx.state;
  const group = movers(state, o);
  const lead = group[0]!;
  const full = planned.slice(a, b + 1);
  const cost = pathCost(state, o.unit, planned, b, opts.hooks) - pathCost(state, o.unit, planned, a, opts.hooks);
  const data = { unit: o.unit, path: full, cost, ...(o.with ? { with: [...o.with] } : {}), ...(stoppedBy ? { stoppedBy } : {}) };
  ctx.emit({
    type: 'UnitMoved',
    data,
    visibility: visibilityFor(state, group, () => ({ type: 'MarkerMoved', data: { marker: lead.hidden?.marker ?? '?', path: full, ...(stoppedBy ? { stoppedBy } : {}) } })),
  });
}

/** Movement points spent from planned[0] to planned[upTo] along the planned path (0 when it no longer checks). */
function pathCost(state: GameState, unit: string, planned: readonly string[], upTo: number, hooks?: MoveHooks): number {
  if (upTo <= 0) return 0;
  const steps = planned.slice(1, upTo + 1);
  const contexts = moveContexts(state, unit, { knownTo: null, hooks, from: planned[0]! });
  const board = contexts[0]!.board;
  const idx = steps.map((l) => board.grid.indexOf(l));
  for (const c of contexts) {
    const r = checkPath(c, idx);
    if (r.ok) return r.cost / board.costScale;
  }
  return 0;
}
