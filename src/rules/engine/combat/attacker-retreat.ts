import { z } from 'zod';
import { Json, JsonObject } from '../../model/json';
import { GameState, UnitState } from '../../model/state';
import { OddsCombat } from '../../model/scenario';
import { boardOf } from '../board';
import { ResolveContext } from '../kit/types';
import { hexOf } from '../queries';
import { Violation } from '../types';
import { violation } from '../violation';
import { carryOutRetreat, eliminate, retreatOrEliminate, stackWith } from './apply';
import { table } from './attack-checks';
import { RetreatChoice, matching, retreatChoiceSchema, retreatRule } from './owner-choice';
import { RetreatBlocked, preferredRetreat, retreatOptions } from './retreat';

/**
 * Q-GT-35 for the attacking side: "the owner of the retreating unit chooses
 * the path". The attacker is the side acting, so it chooses in its own order,
 * per attacker entry (GT-7B.4 with Q-GT-36), for the stack it retreats with
 * (GT-7N.2; attackers of one hex may not name different retreats):
 * `attackers[i].retreat` is `{ path: [hexes entered] }` or `{ to: hex }`, the
 * shape of the defender's answer. A path longer than the retreat is cut to
 * its length (one path serves A R1 and A R2); `to` names the final hex.
 * Checked at submission for shape (parse, with the rule ID) and for what can
 * never be a retreat from where the attacker stands (validate); the rest
 * (terrain, enemies, stacking) only when the result is applied. A choice that
 * is not legal then gives the engine's path and `retreatChoice: "ignored"`.
 */

/** The `retreat` field of an attacker: a malformed one is refused at parse time with the retreat rule's ID. */
export const retreatChoiceField = z.custom<RetreatChoice>((v) => retreatChoiceSchema.safeParse(v).success, {
  error: (iss) => `a retreat is { "path": [hex, …] } (1–12 hexes) or { "to": hex }: ${describe(iss.input)}`,
  params: { ruleId: retreatRule },
});

/** What is wrong with a malformed choice, read against the form it seems meant to be. */
function describe(input: unknown): string {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return 'not an object';
  const keys = Object.keys(input);
  if (keys.includes('path') && keys.includes('to')) return 'path and to together';
  const [byPath, byTo] = retreatChoiceSchema.options;
  const issue = (keys.includes('to') ? byTo : byPath).safeParse(input).error?.issues[0];
  if (issue === undefined) return 'malformed';
  return `${issue.path.length > 0 ? `${issue.path.join('.')}: ` : ''}${issue.message}`;
}

const longestByTable = new WeakMap<OddsCombat, number>();

/** The most hexes any attacker result retreats: once per table (the scenario's, never changed), not per attack checked. */
function longestRetreat(t: OddsCombat): number {
  let n = longestByTable.get(t);
  if (n === undefined) longestByTable.set(t, (n = Math.max(0, ...Object.values(t.results).map((r) => (r.side === 'attacker' && r.effect === 'retreat' ? (r.hexes ?? 1) : 0)))));
  return n;
}

/** What of a chosen retreat can be checked before the dice: hexes of the map, each step next to the last and farther from the target, no longer than the longest attacker retreat. */
export function validateRetreatChoices(
  state: GameState,
  attackers: readonly { unit: string; retreat?: RetreatChoice | undefined }[],
  target: string,
  orderIndex: number | null,
): Violation[] {
  const out: Violation[] = [];
  const grid = boardOf(state.scenario).grid;
  const rule = retreatRule(state);
  const t = grid.indexOf(target);
  const longest = longestRetreat(table(state));
  for (const a of attackers) {
    const c = a.retreat;
    if (c === undefined) continue;
    const hexes = 'path' in c ? c.path : [c.to];
    const off = hexes.find((h) => grid.indexOf(h) < 0);
    if (off !== undefined) {
      out.push(violation(rule, 'input/bad_hex', `${a.unit}'s retreat: ${off} is not a hex of the map`, orderIndex));
      continue;
    }
    const at = state.units[a.unit] === undefined ? null : hexOf(state, state.units[a.unit]!);
    const from = at === null ? -1 : grid.indexOf(at);
    if (from < 0 || t < 0) continue;
    const problem = 'path' in c ? pathProblem(grid, from, t, c.path, longest) : toProblem(grid, from, t, c.to, longest);
    if (problem !== null) out.push(violation(rule, 'combat/impossible_retreat', `${a.unit}'s retreat from ${at}: ${problem}`, orderIndex));
  }
  return [...out, ...conflicts(state, attackers, rule, orderIndex)];
}

/** Attackers of one hex retreat as one stack (GT-7N.2), so they may not name two different retreats. */
function conflicts(state: GameState, attackers: readonly { unit: string; retreat?: RetreatChoice | undefined }[], rule: string, orderIndex: number | null): Violation[] {
  const named = new Map<string, { unit: string; choice: string }>();
  const out: Violation[] = [];
  for (const a of attackers) {
    const u = state.units[a.unit];
    const at = a.retreat === undefined || u === undefined ? null : hexOf(state, u);
    if (at === null) continue;
    const choice = JSON.stringify(oneStepAsPath(state, at, a.retreat!));
    const first = named.get(at);
    if (first === undefined) named.set(at, { unit: a.unit, choice });
    else if (first.choice !== choice) out.push(violation(rule, 'combat/conflicting_retreats', `${a.unit} and ${first.unit} retreat together from ${at} (GT-7N.2) but name different retreats`, orderIndex));
  }
  return out;
}

/** `{ to: X }` with X next to the stack is the retreat `{ path: [X] }`: two attackers naming it the two ways agree. */
function oneStepAsPath(state: GameState, at: string, choice: RetreatChoice): RetreatChoice {
  if (!('to' in choice)) return choice;
  const grid = boardOf(state.scenario).grid;
  return grid.directionTo(grid.indexOf(at), grid.indexOf(choice.to)) < 0 ? choice : { path: [choice.to] };
}

type Grid = ReturnType<typeof boardOf>['grid'];

function pathProblem(grid: Grid, from: number, target: number, path: readonly string[], longest: number): string | null {
  let cur = from;
  for (const h of path.slice(0, longest)) {
    const n = grid.indexOf(h);
    if (grid.directionTo(cur, n) < 0) return `${h} is not next to ${grid.label(cur)}`;
    if (grid.distance(n, target) <= grid.distance(cur, target)) return `${h} is not farther from ${grid.label(target)} than ${grid.label(cur)}`;
    cur = n;
  }
  return path.length > longest ? `a retreat is at most ${longest} hex${longest === 1 ? '' : 'es'} long` : null;
}

function toProblem(grid: Grid, from: number, target: number, to: string, longest: number): string | null {
  const n = grid.indexOf(to);
  const steps = grid.distance(from, n);
  const ok = steps >= 1 && steps <= longest && grid.distance(n, target) - grid.distance(from, target) === steps;
  return ok ? null : `${to} is not reached in ${longest === 1 ? 'one step' : `1–${longest} steps`} each farther from ${grid.label(target)}`;
}

/** What one attacker suffers of an attacker result (after its own hooks, GT-7J.2), and the retreat its order chose. */
export interface AttackerFate {
  readonly unit: UnitState;
  readonly effect: 'eliminate' | 'retreat' | 'none';
  readonly hexes: number;
  readonly retreat?: RetreatChoice | undefined;
}

/**
 * Applies an attacker result to each attacker that is not exempt (Q-GT-36),
 * in the order of the attack. A destruction takes only the attacker
 * (GT-7N.2: the counters that took part). A retreat takes the attacker's
 * whole stack (GT-7N.2), once per hex, as a defender's D R does: every
 * retreating attacker of that hex and the counters there that did not attack.
 * Attackers for whom the result is ignored (GT-7C.4, GT-7D.1, GT-7J.1) stay:
 * their rules say the result is not theirs, so a stack-mate's retreat does
 * not carry them off, nor destroy them when the stack has nowhere to go.
 * `attackers` are all the attack's counters, `fates` those not exempt.
 */
export function applyAttackerResults(
  ctx: ResolveContext,
  fates: readonly AttackerFate[],
  attackers: readonly string[],
  target: string,
  mayEnterEnemyZoc: boolean,
  cause: string,
  blocked?: RetreatBlocked,
): void {
  const staying = new Set(attackers);
  for (const f of fates) if (f.effect === 'retreat') staying.delete(f.unit.id);
  // The stacks are those the attack was made from: a stack that retreats into the hex of
  // attackers still to retreat is not carried off a second time with them.
  const stacks = new Map<string, AttackerFate[]>();
  for (const f of fates) {
    const u = ctx.state.units[f.unit.id];
    if (f.effect !== 'retreat' || u?.loc.at !== 'hex') continue;
    stacks.set(u.loc.hex, [...(stacks.get(u.loc.hex) ?? []), f]);
  }
  const retreated = new Set<string>();
  for (const f of fates) {
    const u = ctx.state.units[f.unit.id];
    // A destruction may take cargo that fired from aboard (GT-6G.5); a retreat is its transport's.
    if (u === undefined || (u.loc.at !== 'hex' && u.loc.at !== 'carried')) continue;
    if (f.effect === 'eliminate') eliminate(ctx, u, cause);
    if (f.effect !== 'retreat' || retreated.has(u.id) || u.loc.at !== 'hex') continue;
    const here = stacks.get(u.loc.hex) ?? [f];
    // Two cargo counters firing from one transport name it twice.
    const movers = [...new Set(here.flatMap((g) => ctx.state.units[g.unit.id] ?? []))];
    const notCarried = new Set([...staying, ...retreated]);
    for (const m of movers) retreated.add(m.id);
    // One stack takes one path: the longest retreat any of its attackers suffers, the first choice any names.
    const hexes = Math.max(...here.map((g) => g.hexes));
    const stack = stackWith(ctx.state, movers, notCarried);
    for (const m of stack) retreated.add(m.id);
    retreatAttackingStack(ctx, stack, hexes, target, mayEnterEnemyZoc, cause, here.find((g) => g.retreat !== undefined)?.retreat, blocked);
  }
}

/**
 * Retreats an attacking stack `hexes` hexes away from `target` (or destroys
 * it when it cannot), along its owner's choice when that is a legal retreat
 * of the whole stack now, else the engine's path. With a choice, the event
 * says which, to the owner only: the enemy reads the retreat as it would
 * without a choice.
 */
export function retreatAttackingStack(
  ctx: ResolveContext,
  stack: readonly UnitState[],
  hexes: number,
  target: string,
  mayEnterEnemyZoc: boolean,
  cause: string,
  choice: RetreatChoice | undefined,
  blocked?: RetreatBlocked,
): void {
  if (choice === undefined) return void retreatOrEliminate(ctx, stack, hexes, [target], mayEnterEnemyZoc, cause, blocked);
  const state = ctx.state;
  const grid = boardOf(state.scenario).grid;
  const at = stack[0] === undefined ? null : hexOf(state, stack[0]);
  if (at === null) return;
  const options = retreatOptions(state, stack, grid.indexOf(at), hexes, { awayFrom: [grid.indexOf(target)], mayEnterEnemyZoc, blocked });
  const asked: Json = 'path' in choice ? { path: choice.path.slice(0, hexes) } : choice;
  const chosen = matching(options, asked);
  const note: JsonObject = { retreatChoice: chosen === null ? 'ignored' : 'used' };
  carryOutRetreat(ctx, stack, at, (chosen ?? preferredRetreat(options))?.path ?? null, cause, note);
}
