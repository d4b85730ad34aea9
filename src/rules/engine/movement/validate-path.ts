import { GameState, UnitState } from '../../model/state';
import { UnitType } from '../../model/scenario';
import { withTowed } from '../stacking';
import { stackEndProblem } from '../stack-end';
import { typeOf } from '../queries';
import { Block, MoveContext, rule } from './context';
import { STEP, TERMINAL, step } from './step';

/** A refused move: machine code (namespaced), rule ID and message; `at` = index of the failing step. */
export interface MoveProblem extends Block {
  readonly at: number | null;
}

export type PathCheck =
  | { readonly ok: true; readonly cost: number; readonly end: number; readonly terminal: number }
  | { readonly ok: false; readonly problem: MoveProblem };

/**
 * Checks a path (hex indices entered, start excluded) with the same step rule
 * as the search. Returns the first problem; end-of-move checks are separate
 * (endProblem) because a move cut short at resolution ends elsewhere.
 */
export function checkPath(c: MoveContext, path: readonly number[]): PathCheck {
  const grid = c.board.grid;
  if (c.start < 0) return fail(c, 'movement/not_on_map', 'not_on_map', 'the unit is not on the map', null);
  if (path.length === 0) return fail(c, 'movement/empty_path', 'empty_path', 'a move must enter at least one hex', null);
  if (c.budget <= 0) return fail(c, 'movement/immobile', 'immobile', 'this unit has no movement points', 0);
  let from = c.start;
  let spent = 0;
  let ended: number = TERMINAL.NONE;
  let endedRule = '';
  for (let k = 0; k < path.length; k++) {
    const to = path[k]!;
    if (ended !== TERMINAL.NONE) return endedProblem(c, ended, endedRule, k, from, to);
    const dir = to >= 0 ? grid.directionTo(from, to) : -1;
    if (dir < 0) return fail(c, 'movement/not_adjacent', 'not_adjacent', `${label(c, to)} is not adjacent to ${label(c, from)}`, k);
    if (to === c.start) return fail(c, 'movement/revisits_start', 'revisits_start', 'a move may not come back to its start hex', k);
    const s = step(c, from, dir, to, spent, k === 0 ? undefined : c.afloat);
    if (s < 0) return stepProblem(c, s, k, from, to);
    spent += s;
    ended = c.terminal;
    endedRule = ended === TERMINAL.WHOLE_MOVE || ended === TERMINAL.LAST_STEP ? c.failRule : rule(c.state, 'minimum_move');
    from = to;
  }
  return { ok: true, cost: spent, end: from, terminal: ended };
}

/**
 * Why these units (moving together) may not end in hex `at`: an enemy there
 * (pass-through movers), stacking (GT-6D.1), or a system's reason.
 */
export function endProblem(c: MoveContext, movers: readonly UnitState[], at: number): MoveProblem | null {
  if (c.enemyAt[at] !== 0)
    return { code: 'movement/enemy_hex', ruleId: rule(c.state, 'enemy_hex'), message: `may not end a move in ${label(c, at)}, held by the enemy`, at: null };
  const lbl = c.board.grid.label(at);
  const { ids, types } = movingStack(c, movers);
  const here = c.friendlyStack(at).filter((u) => !ids.has(u.id));
  const p = stackEndProblem(c.state, c.board, c.side, at, movers, types, here);
  if (p !== null) return p.kind === 'stacking' ? { code: 'movement/stacking', ruleId: p.ruleId, message: `${p.message}: ${lbl}`, at: null } : { ruleId: p.ruleId, code: p.code, message: p.message, at: null };
  const extra = c.hooks.endProblem?.(c.state, movers, at);
  return extra ? { ...extra, at: null } : null;
}

/** The movers with the guns they tow. endProblem runs for every reachable hex with the same movers, so the last answer is kept (a WeakMap entry per call cost more than the work). */
let last: { readonly state: GameState; readonly movers: readonly UnitState[]; readonly ids: ReadonlySet<string>; readonly types: UnitType[] } | null = null;

function movingStack(c: MoveContext, movers: readonly UnitState[]): { ids: ReadonlySet<string>; types: UnitType[] } {
  if (last !== null && last.state === c.state && sameList(last.movers, movers)) return last;
  const moving = withTowed(c.state, movers);
  last = { state: c.state, movers, ids: new Set(moving.map((u) => u.id)), types: moving.map((u) => typeOf(c.state, u)) };
  return last;
}

/** The same items in the same order: validating and resolving a move each make their own lists of its path and movers. */
export function sameList<T>(a: readonly T[], b: readonly T[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function label(c: MoveContext, i: number): string {
  return i >= 0 && i < c.board.grid.size ? c.board.grid.label(i) : `hex #${i}`;
}

function fail(c: MoveContext, code: string, key: string, message: string, at: number | null): PathCheck {
  return { ok: false, problem: { code, ruleId: rule(c.state, key), message, at } };
}

function endedProblem(c: MoveContext, ended: number, endedRule: string, k: number, from: number, to: number): PathCheck {
  const where = label(c, to);
  switch (ended) {
    case TERMINAL.BLOCK: {
      const b = c.blocks[c.blocked![from]! - 1]!;
      return { ok: false, problem: { ruleId: b.ruleId, code: b.code, message: b.message, at: k } };
    }
    case TERMINAL.ZOC:
      return {
        ok: false,
        problem: { code: 'movement/zoc_stop', ruleId: c.state.scenario.rules.zoc.stopRuleId, message: `the move must stop on entering an enemy zone of control, before ${where}`, at: k },
      };
    case TERMINAL.LAST_STEP:
      return { ok: false, problem: { code: 'movement/waterline_last', ruleId: endedRule, message: `entering the water must be the last step of the move, before ${where}`, at: k } };
    case TERMINAL.WHOLE_MOVE:
      return { ok: false, problem: { code: 'movement/whole_move_used', ruleId: endedRule, message: `crossing the waterline took the whole move, before ${where}`, at: k } };
    default:
      return { ok: false, problem: { code: 'movement/insufficient_mp', ruleId: endedRule, message: `the move entered one hex as its whole move (minimum move), before ${where}`, at: k } };
  }
}

function stepProblem(c: MoveContext, s: number, k: number, from: number, to: number): PathCheck {
  const where = label(c, to);
  switch (s) {
    case STEP.OFF_MAP:
      return fail(c, 'movement/off_map', 'off_map', `${where} is off the map`, k);
    case STEP.ENEMY_HEX:
      return fail(c, 'movement/enemy_hex', 'enemy_hex', `may not enter ${where}, held by the enemy`, k);
    case STEP.BLOCKED: {
      const b = c.blocks[c.blocked![to]! - 1]!;
      return { ok: false, problem: { ...b, at: k } };
    }
    case STEP.IMPASSABLE:
      return { ok: false, problem: { code: 'movement/impassable', ruleId: c.failRule, message: `${where} is impassable to this unit`, at: k } };
    case STEP.BRIDGE_PASSAGE:
      return fail(c, 'movement/bridge_passage', 'bridge_passage', `this boat may not pass under the bridge at ${where}`, k);
    case STEP.HEXSIDE:
      return { ok: false, problem: { code: 'movement/hexside', ruleId: c.failRule, message: `the hexside between ${label(c, from)} and ${where} cannot be crossed`, at: k } };
    case STEP.AMPHIB_NOT_FIRST:
      return { ok: false, problem: { code: 'movement/waterline_first', ruleId: c.failRule, message: `crossing the waterline into ${where} must be the first step of the move`, at: k } };
    case STEP.AMPHIB_FORBIDDEN:
      return { ok: false, problem: { code: 'movement/waterline', ruleId: c.failRule, message: `the waterline cannot be crossed between ${label(c, from)} and ${where}`, at: k } };
    case STEP.NOT_IN_PROFILE:
      return fail(c, 'movement/waterline_first', 'amphibious', `a move that touches land must leave the water on its first step (${where})`, k);
    case STEP.INSUFFICIENT_MP:
      return fail(c, 'movement/insufficient_mp', 'insufficient_mp', `not enough movement points to enter ${where}`, k);
    case STEP.LEAVES_SIDEWAYS:
      return { ok: false, problem: { code: 'movement/leaves_sideways', ruleId: c.failRule, message: `${label(c, from)} may be left only along the road (or river) that holds the unit there, not sideways into ${where}`, at: k } };
    case STEP.ZOC_SAME:
      return {
        ok: false,
        problem: { code: 'movement/zoc_same', ruleId: c.state.scenario.rules.zoc.leaveRuleId, message: `may not re-enter the enemy zone of control it left, at ${where}`, at: k },
      };
    default:
      return fail(c, 'movement/illegal_step', 'illegal_step', `cannot enter ${where}`, k);
  }
}
