import { z } from 'zod';
import { Json } from '../../model/json';
import { GameState, ReactionRequest, UnitState } from '../../model/state';
import { boardOf } from '../board';
import { ReactionKind, ResolveContext } from '../kit/types';
import { labelSchema, unitIdSchema } from '../orders/common';
import { withTowed } from '../stacking';
import { SideId, Violation } from '../types';
import { violation } from '../violation';
import { concealedFrom } from '../visibility';
import { carryOutRetreat, stackAt } from './apply';
import { cr, defenderCandidates, pickDefender } from './attack-checks';
import type { OddsHooks } from './odds-step';
import { RetreatBlocked, RetreatOption, preferredRetreat, retreatOptions } from './retreat';

/**
 * Q-GT-35 and Q-GT-44: the owner of a defending stack chooses its retreat
 * path and, on a tie, the counter that defends. Each is a reaction whose
 * standing orders are "auto" (the default: the engine's deterministic rule,
 * with no question and no event) or "ask" (the attack stops for the owner
 * whenever there is more than one choice). An expired window applies the
 * engine's rule. The choices are listed only to the owner; the attacker reads
 * that a question was asked (its kind and hex), as for any reaction.
 */
export const RETREAT_CHOICE = 'retreat';
export const DEFENDER_CHOICE = 'stack-defender';

/** What a retreat needs to be carried out again on resume. Known to both sides: the attacker reads it in its suspension. */
export interface RetreatAsk {
  readonly target: string;
  readonly side: SideId;
  readonly hexes: number;
  readonly awayFrom: readonly string[];
  readonly mayEnterEnemyZoc: boolean;
  readonly cause: string;
  /** Only this counter retreats, not its stack: a fixed-column attack on each counter (GT-6N.8). Never one the other side cannot see. */
  readonly unit?: string;
}

/** Where an odds attack stopped for its defender's owner. */
export type ChoiceStage =
  | { readonly kind: 'owner-choice'; readonly choice: 'stack-defender'; readonly target: string }
  | ({ readonly kind: 'owner-choice'; readonly choice: 'retreat'; readonly then?: Json } & RetreatAsk);

const policySchema = z.enum(['auto', 'ask']);
/**
 * A chosen retreat: the hexes entered, or only the final hex. The defender's
 * answer and the attacker's `retreat` in its attack order (attacker-retreat.ts).
 */
export const retreatChoiceSchema = z.union([z.strictObject({ path: z.array(labelSchema).min(1).max(12) }), z.strictObject({ to: labelSchema })]);
export type RetreatChoice = z.infer<typeof retreatChoiceSchema>;
const defenderAnswer = z.strictObject({ unit: unitIdSchema });

export function isChoiceStage(stage: Json | undefined): stage is ChoiceStage & Json {
  return typeof stage === 'object' && stage !== null && (stage as { kind?: unknown }).kind === 'owner-choice';
}

function asks(state: GameState, side: SideId, kind: string): boolean {
  return state.sides[side]?.secret.standing[kind] === 'ask';
}

/** Asking about a stack under a marker would tell the enemy what the marker hides (two equal counters, what terrain they may enter). */
function hiddenStack(state: GameState, stack: readonly UnitState[]): boolean {
  return withTowed(state, stack).some((u) => concealedFrom(state, u).length > 0);
}

/**
 * The counter that defends `hex` against `side` (Q-GT-44): asks its owner on
 * a tie when its standing orders say so, else the engine's pick. 'suspended'
 * means the caller must return and resume (resumeOddsAttack).
 */
export function chooseDefender(ctx: ResolveContext, hex: string, side: SideId, hooks: OddsHooks): UnitState | undefined | 'suspended' {
  const tied = defenderCandidates(ctx.state, hex, side, hooks);
  const asked = tied.length < 2 ? null : askDefender(ctx, hex, tied, stackAt(ctx.state, hex, tied[0]!.side), { hex, attacker: side });
  return asked ?? pickDefender(ctx.state, hex, side, hooks);
}

/**
 * Asks the owner of `tied` (its counters of equal defense in `hex`, the engine's pick first) which
 * one defends (Q-GT-44), when its standing orders say "ask" and `stack` stands under no marker.
 * Returns the counter named, 'suspended' (the caller returns, and resumes with the answer), or
 * null when nothing is asked or the answer names none of them: the engine's pick stands.
 */
export function askDefender(ctx: ResolveContext, hex: string, tied: readonly UnitState[], stack: readonly UnitState[], context: Json): UnitState | 'suspended' | null {
  const owner = tied[0]?.side;
  if (owner === undefined || tied.length < 2 || !asks(ctx.state, owner, DEFENDER_CHOICE) || hiddenStack(ctx.state, stack)) return null;
  const stage: ChoiceStage = { kind: 'owner-choice', choice: 'stack-defender', target: hex };
  const r = ctx.ask({ side: owner, kind: DEFENDER_CHOICE, prompt: { hex }, privatePrompt: { hex, candidates: tied.map((u) => u.id) }, context, stage: stage as Json });
  if (!r.answered) return 'suspended';
  return tied.find((u) => u.id === (r.answer as { unit?: string }).unit) ?? null;
}

/** The counter named in an answer, if it may still defend; else the engine's pick. */
export function chosenDefender(state: GameState, hex: string, side: SideId, hooks: OddsHooks, answer: Json): UnitState | undefined {
  const id = (answer as { unit?: string }).unit;
  return defenderCandidates(state, hex, side, hooks).find((u) => u.id === id) ?? pickDefender(state, hex, side, hooks);
}

/** What retreats: the stack in the hex, or the one counter the ask names while it still stands there. */
function retreating(state: GameState, r: RetreatAsk): UnitState[] {
  const stack = stackAt(state, r.target, r.side);
  return r.unit === undefined ? stack : stack.filter((u) => u.id === r.unit);
}

function optionsFor(state: GameState, r: RetreatAsk, stack: readonly UnitState[], blocked?: RetreatBlocked): RetreatOption[] {
  const grid = boardOf(state.scenario).grid;
  return retreatOptions(state, stack, grid.indexOf(r.target), r.hexes, { awayFrom: r.awayFrom.map((h) => grid.indexOf(h)), mayEnterEnemyZoc: r.mayEnterEnemyZoc, blocked });
}

/** The option a choice names (the first such path in search order for `to`), or null. */
export function matching(options: readonly RetreatOption[], answer: Json): RetreatOption | null {
  const a = answer as { path?: string[]; to?: string };
  if (a.path !== undefined) return options.find((o) => o.path.length === a.path!.length && o.path.every((h, i) => h === a.path![i])) ?? null;
  if (a.to !== undefined) return preferredRetreat(options.filter((o) => o.path[o.path.length - 1] === a.to));
  return null;
}

/**
 * Retreats the stack in `r.target` (GT-7N.2), its owner choosing the path
 * when its standing orders say "ask" and there is more than one (Q-GT-35).
 * Returns false when the resolution stopped for the answer. `then`: where the
 * caller goes on after the retreat on resume (OddsHooks.resumeResult); the
 * side resolving reads it, so it names nothing hidden from that side.
 * `blocked`: the hexes the system closes to the stack (OddsHooks.retreatBlocked).
 */
export function retreatByOwner(ctx: ResolveContext, r: RetreatAsk, then?: Json, blocked?: RetreatBlocked): boolean {
  const stack = retreating(ctx.state, r);
  if (stack.length === 0) return true;
  const options = optionsFor(ctx.state, r, stack, blocked);
  if (options.length > 1 && asks(ctx.state, r.side, RETREAT_CHOICE) && !hiddenStack(ctx.state, stack)) {
    const stage: ChoiceStage = { kind: 'owner-choice', choice: 'retreat', ...r, ...(then === undefined ? {} : { then }) };
    // Sorted, and without the engine's pick. The list rests on what the owner sees (terrain,
    // markers, its own stacks), and so does the pick, which counts every concealed enemy as
    // exerting a zone of control (retreat.ts), also where enemy ZOCs bar a retreat
    // (mayEnterEnemyZoc false; true in every scenario so far).
    const paths = options.map((o) => [...o.path]).sort((a, b) => (a.join() < b.join() ? -1 : 1));
    const q = ctx.ask({
      side: r.side,
      kind: RETREAT_CHOICE,
      prompt: { hex: r.target },
      privatePrompt: { hex: r.target, hexes: r.hexes, paths },
      context: r as unknown as Json,
      stage: stage as unknown as Json,
    });
    if (!q.answered) return false;
    carryOut(ctx, r, stack, matching(options, q.answer) ?? preferredRetreat(options));
    return true;
  }
  carryOut(ctx, r, stack, preferredRetreat(options));
  return true;
}

/** Carries out a retreat the owner has answered (or the engine's path, if the answer no longer fits). */
export function finishRetreat(ctx: ResolveContext, r: RetreatAsk, answer: Json, blocked?: RetreatBlocked): void {
  const stack = retreating(ctx.state, r);
  if (stack.length === 0) return;
  const options = optionsFor(ctx.state, r, stack, blocked);
  carryOut(ctx, r, stack, matching(options, answer) ?? preferredRetreat(options));
}

function carryOut(ctx: ResolveContext, r: RetreatAsk, stack: readonly UnitState[], chosen: RetreatOption | null): void {
  carryOutRetreat(ctx, stack, r.target, chosen === null ? null : chosen.path, r.cause);
}

export function retreatRule(state: GameState): string {
  return state.scenario.rules.combat.odds?.retreat?.ruleId ?? 'Q-GT-35';
}

/**
 * The engine's path, as the answer of standing orders "auto" or of an expired window: among the
 * paths the question listed, which left out the hexes the system closes to the stack (`blocked`).
 */
function defaultRetreat(state: GameState, req: ReactionRequest): Json {
  const r = req.context as unknown as RetreatAsk;
  const listed = (req.privatePrompt as { paths?: string[][] } | null)?.paths?.map((p) => p.join());
  const best = preferredRetreat(optionsFor(state, r, retreating(state, r)).filter((o) => listed === undefined || listed.includes(o.path.join())));
  return { path: best === null ? [] : [...best.path] };
}

function defaultDefender(req: ReactionRequest): Json {
  return { unit: (req.privatePrompt as { candidates: string[] }).candidates[0] ?? '' };
}

/** The two reactions, for a system's `reactions` (its players may then set them to "ask"). */
export function ownerChoiceReactions<X extends Json>(): Record<string, ReactionKind<X>> {
  const retreat: ReactionKind<X> = {
    answerSchema: retreatChoiceSchema,
    standingSchema: policySchema,
    validateAnswer: (state, req, answer): Violation[] => {
      const { hex, paths } = req.privatePrompt as { hex: string; paths: string[][] };
      const a = answer as { path?: string[]; to?: string };
      const ok = a.path !== undefined ? paths.some((p) => p.join() === a.path!.join()) : paths.some((p) => p[p.length - 1] === a.to);
      if (ok) return [];
      const named = a.path !== undefined ? a.path.join('→') : String(a.to);
      return [violation(retreatRule(state), 'reaction/illegal_retreat', `${named} is not a legal retreat from ${hex}`, null)];
    },
    fromStanding: (state, req, standing) => (standing === 'ask' ? null : defaultRetreat(state, req)),
    none: (state, req) => defaultRetreat(state, req),
  };
  const defender: ReactionKind<X> = {
    answerSchema: defenderAnswer,
    standingSchema: policySchema,
    validateAnswer: (state, req, answer): Violation[] => {
      const candidates = (req.privatePrompt as { candidates: string[] }).candidates;
      const unit = (answer as { unit: string }).unit;
      if (candidates.includes(unit)) return [];
      return [violation(cr(state, 'defender_choice', 'Q-GT-44'), 'reaction/not_a_candidate', `${unit} is not one of the counters that may defend (${candidates.join(', ')})`, null)];
    },
    fromStanding: (_state, req, standing) => (standing === 'ask' ? null : defaultDefender(req)),
    none: (_state, req) => defaultDefender(req),
  };
  return { [RETREAT_CHOICE]: retreat, [DEFENDER_CHOICE]: defender };
}
