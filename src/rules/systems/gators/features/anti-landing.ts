import { z } from 'zod';
import { Json } from '../../../model/json';
import { GameState, ReactionRequest, UnitState } from '../../../model/state';
import { boardOf } from '../../../engine/board';
import { OddsHooks, resolveOddsAttack } from '../../../engine/combat/odds-step';
import { defenderAmong } from '../../../engine/combat/attack-checks';
import { retreatChoiceField, validateRetreatChoices } from '../../../engine/combat/attacker-retreat';
import { RetreatChoice } from '../../../engine/combat/owner-choice';
import { ReactionKind, ResolveContext } from '../../../engine/kit/types';
import { labelSchema, notOwnUnits, repeated, unitIdSchema } from '../../../engine/orders/common';
import { allUnits, flag, hexOf, targetClassAt, typeOf } from '../../../engine/queries';
import { INPUT_RULE, unitViolation, violation } from '../../../engine/violation';
import { Violation } from '../../../engine/types';
import { marksOf, visibilityFor } from '../../../engine/visibility';
import { gatorsData } from '../data';
import { CoreHooks, GatorsFeature } from '../feature';
import { GatorsExt, breakdownUnknown, isBroken } from '../ext';
import { isAmphibious, isLand, isWater } from '../queries';

/**
 * GT-7O (Q-GT-45): anti-landing defence, an engine reaction. When a P1
 * amphibian comes out of the water into a hex next to P2 units that can
 * attack it — or, having come ashore this turn, unloads into such a hex — P2
 * may attack it at once, out of turn: any of those units together (each once
 * per turn, GT-7O.4), only from the adjacent hexes (no bombardment from a
 * distance, GT-7O.3), now or never. D R1: the landing fails (the amphibian
 * goes back to the water hex it came from; unloaded cargo goes back aboard)
 * and its move ends; D R2 counts as D X (GT-7O.2). P2's standing orders
 * ("all", "none", { units }, { allExcept }, or { hexes }: all fire at a landing
 * at or next to those hexes, and any other landing is asked) answer without a pause.
 * An answer may name a firer as { unit, retreat } to steer its own A R
 * (Q-GT-35): P2 is the side deciding here, as the attacker of an attack order.
 */
export const ANTI_LANDING = 'anti-landing';
const USED = 'antiLandingUsed';
const ASHORE = 'cameAshore';

const firerSchema = z.union([unitIdSchema, z.strictObject({ unit: unitIdSchema, retreat: retreatChoiceField })]);
const answerSchema = z.strictObject({ attackers: z.array(firerSchema).max(30) });
type Firer = { unit: string; retreat?: RetreatChoice };

/** The firers an answer names, each with its retreat choice if it gave one. */
function firers(answer: Json): Firer[] {
  return (answer as { attackers: z.infer<typeof firerSchema>[] }).attackers.map((a) => (typeof a === 'string' ? { unit: a } : a));
}
const standingSchema = z.union([
  z.literal('all'),
  z.literal('none'),
  z.strictObject({ units: z.array(unitIdSchema).min(1).max(200) }),
  z.strictObject({ allExcept: z.array(unitIdSchema).max(200) }),
  z.strictObject({ hexes: z.array(labelSchema).min(1).max(200) }),
]);

interface Landing {
  readonly unit: string;
  readonly hex: string;
  /** The water hex it came from (a landing), or the carrier it left (an unloading). */
  readonly from?: string;
  readonly carrier?: string;
  readonly with?: readonly string[];
}

/** Whether `u` may make its anti-landing attack on a target of class `cls`, as `state` has it (GT-7O.1, GT-7O.3, GT-7O.4). */
function canFire(state: GameState, h: CoreHooks, u: UnitState, cls: string): boolean {
  return !flag(u, USED) && (h.odds.strength?.(state, u, cls) ?? 0) > 0 && (h.odds.attackerProblem?.(state, u, 0) ?? null) === null;
}

/** The enemy next to `hex`, and the class `target` is attacked as there. */
function landingSite(state: GameState, target: UnitState, hex: string): { around: UnitState[]; cls: string } {
  const board = boardOf(state.scenario);
  const at = board.grid.indexOf(hex);
  const around = allUnits(state).filter((u) => u.side !== target.side && u.loc.at === 'hex' && board.grid.distance(board.grid.indexOf(u.loc.hex), at) === 1);
  return { around, cls: targetClassAt(board, typeOf(state, target), at) };
}

/** The ids of the units next to the landing that may fire at it now. */
function eligible(state: GameState, h: CoreHooks, { around, cls }: { around: UnitState[]; cls: string }): string[] {
  return around.filter((u) => canFire(state, h, u, cls)).map((u) => u.id).sort();
}

/**
 * The question a landing at `l.hex` asks, if any. The window opens on the enemy next to the hex
 * that the lander's side must take to be able to fire, so that its opening (or standing orders
 * answering it) tells nothing hidden: a unit under a marker may be anything, and a broken-down
 * one looks like a working one (Q-GT-14), its other problems asked as if it worked (an A-4
 * landed on its airfield could not fire anyway). The question then lists to the asked side only
 * the units that really can fire, perhaps none.
 */
function request(state: GameState, h: CoreHooks, l: Landing): Omit<ReactionRequest, 'stage'> | null {
  const target = state.units[l.unit];
  if (target === undefined) return null;
  const site = landingSite(state, target, l.hex);
  const working = new Map<string, GameState>();
  const asWorking = (side: string) => working.get(side) ?? working.set(side, breakdownUnknown(state, side)).get(side)!;
  const seeming = site.around.filter((u) => u.hidden !== undefined || canFire(asWorking(u.side), h, u, site.cls));
  if (seeming.length === 0) return null;
  return {
    side: seeming[0]!.side,
    kind: ANTI_LANDING,
    prompt: { unit: l.unit, hex: l.hex, cause: l.carrier === undefined ? 'landing' : 'unloading' },
    privatePrompt: { eligible: eligible(state, h, site) },
    context: l as unknown as Json,
  };
}

/** Carries out the answer; returns whether the lander still stands where it landed. */
function fire(ctx: ResolveContext<GatorsExt>, h: CoreHooks, l: Landing, answer: Json): boolean {
  const target = ctx.state.units[l.unit];
  if (target === undefined) return false;
  const still = new Set(eligible(ctx.state, h, landingSite(ctx.state, target, l.hex)));
  const chosen = firers(answer).filter((a) => still.has(a.unit));
  if (chosen.length === 0) return true;
  ctx.emit(marksOf(ctx.state, chosen.map(({ unit }) => ({ unit, flags: { [USED]: true } }))));
  const map = gatorsData(ctx.state.scenario).antiLanding.results;
  const hooks: OddsHooks = {
    ...h.odds,
    adjustResult: (s, a, r) => {
      const base = h.odds.adjustResult?.(s, a, r) ?? r;
      const m = map[base];
      return m === undefined || m === 'landing-fails' ? base : m;
    },
    applyResult: (c, a, r, opts) => (map[r] === 'landing-fails' ? landingFails(c, l) : (h.odds.applyResult?.(c, a, r, opts) ?? false)),
  };
  // "The enemy may attack it" (GT-7O.1): the counters landing or unloading, not the friendly ones already in the hex.
  const landers = [l.unit, ...(l.with ?? [])].map((id) => ctx.state.units[id]).filter((u): u is UnitState => u !== undefined && u.loc.at === 'hex' && u.loc.hex === l.hex);
  const defender = defenderAmong(ctx.state, landers, h.odds);
  resolveOddsAttack(ctx, chosen, l.hex, hooks, { cause: ANTI_LANDING, ...(defender === undefined ? {} : { defender: defender.id }) });
  const u = ctx.state.units[l.unit];
  return u !== undefined && u.loc.at === 'hex' && u.loc.hex === l.hex;
}

/** GT-7O.2 D R1, Q-GT-45: back into the water (the move is over), or back aboard. */
function landingFails(ctx: ResolveContext, l: Landing): boolean {
  const u = ctx.state.units[l.unit];
  if (u === undefined || u.loc.at !== 'hex') return true;
  if (l.carrier !== undefined) {
    const carrier = ctx.state.units[l.carrier];
    if (carrier !== undefined && carrier.loc.at !== 'eliminated') {
      // It never left, so it has not loaded (GT-6G.1, Q-GT-49): it may still fire from its craft (GT-6G.5).
      ctx.emit({ type: 'UnitLoaded', data: { unit: l.unit, carrier: l.carrier, returned: true }, visibility: { to: 'all' } });
      return true;
    }
    return false;
  }
  const with_ = (l.with ?? []).filter((id) => ctx.state.units[id]?.loc.at === 'hex');
  ctx.emit({ type: 'UnitRetreated', data: { unit: l.unit, path: [l.hex, l.from!], ...(with_.length > 0 ? { with: with_ } : {}) }, visibility: visibilityFor(ctx.state, [u]) });
  return true;
}

/**
 * Why a unit named in an answer may not fire, under the rule it breaks: another side's unit (or
 * none) first, whatever it is, so the refusal tells nothing of it.
 */
function whyNot(state: GameState, req: ReactionRequest, id: string, side: string): Violation {
  const u = state.units[id];
  if (u === undefined || u.side !== side) return unitViolation(INPUT_RULE, 'input/not_your_unit', `${side} has no unit "${id}"`, id);
  const { unit, hex } = req.prompt as { unit: string; hex: string };
  const board = boardOf(state.scenario);
  const near = u.loc.at === 'hex' && board.grid.distance(board.grid.indexOf(u.loc.hex), board.grid.indexOf(hex)) === 1;
  if (!near) return unitViolation('GT-7O.3', 'reaction/not_eligible', `${id} is not next to ${hex}: no attack from a distance`, id);
  if (flag(u, USED)) return unitViolation('GT-7O.4', 'reaction/used', `${id} has made its anti-landing attack this turn`, id);
  if (isBroken(state, u)) return unitViolation('GT-4.9', 'combat/broken_down', `${id} has broken down and cannot attack`, id);
  const target = state.units[unit];
  const cls = target === undefined ? undefined : targetClassAt(board, typeOf(state, target), board.grid.indexOf(hex));
  if (cls !== undefined && (typeOf(state, u).strength[cls] ?? 0) <= 0) return unitViolation('GT-7A.4', 'combat/zero_strength', `${id} has no strength against ${unit}`, id);
  return unitViolation('GT-7O.1', 'reaction/not_eligible', `${id} may not attack this landing now`, id);
}

const reaction: ReactionKind<GatorsExt> = {
  answerSchema,
  standingSchema,
  validateAnswer: (state, req, answer): Violation[] => {
    const side = req.side;
    const eligible = (req.privatePrompt as { eligible: string[] }).eligible;
    const chosen = firers(answer);
    const bad = chosen.filter((a) => !eligible.includes(a.unit)).map((a) => whyNot(state, req, a.unit, side));
    if (bad.length > 0) return bad;
    if (new Set(chosen.map((a) => a.unit)).size !== chosen.length) return [violation('GT-7O.4', 'reaction/duplicate', 'a unit is listed twice', null)];
    return validateRetreatChoices(state, chosen, (req.prompt as { hex: string }).hex, null);
  },
  checkStanding: (state, side, standing, field) => {
    // The landing side is never asked: its standing orders here would be written and never read.
    if (side === landerSide(state)) return [violation('GT-7O.1', 'reaction/not_yours', `${field}: the side that lands is never asked to fire at a landing`)];
    const s = standing as z.infer<typeof standingSchema>;
    if (typeof s === 'string') return [];
    if ('hexes' in s) {
      const grid = boardOf(state.scenario).grid;
      return s.hexes.flatMap((x, k) => {
        if (grid.indexOf(x) < 0) return [violation(INPUT_RULE, 'input/bad_hex', `${field}.hexes.${k}: ${x} is not a hex of the map`)];
        return repeated(s.hexes, k) ? [violation(INPUT_RULE, 'input/duplicate_hex', `${field}.hexes.${k}: ${x} is listed twice`)] : [];
      });
    }
    return 'units' in s ? notOwnUnits(state, side, `${field}.units`, s.units) : notOwnUnits(state, side, `${field}.allExcept`, s.allExcept);
  },
  fromStanding: (state, req, standing) => {
    if (standing === undefined) return null;
    const eligible = (req.privatePrompt as { eligible: string[] }).eligible;
    const s = standing as z.infer<typeof standingSchema>;
    if (s === 'all') return { attackers: eligible };
    if (s === 'none') return { attackers: [] };
    if ('units' in s) return { attackers: eligible.filter((e) => s.units.includes(e)) };
    if ('hexes' in s) return guards(state, s.hexes, (req.prompt as { hex: string }).hex) ? { attackers: eligible } : null;
    return { attackers: eligible.filter((e) => !s.allExcept.includes(e)) };
  },
  none: () => ({ attackers: [] }),
};

/** Whether a landing at `hex` is at or next to one of the hexes standing orders guard; any other one they leave to be asked. */
function guards(state: GameState, hexes: readonly string[], hex: string): boolean {
  const grid = boardOf(state.scenario).grid;
  const at = grid.indexOf(hex);
  return hexes.some((x) => grid.indexOf(x) >= 0 && grid.distance(grid.indexOf(x), at) <= 1);
}

function landerSide(state: GameState): string {
  return gatorsData(state.scenario).options.landingSide;
}

export const antiLanding: GatorsFeature = {
  id: 'anti-landing',
  rules: ['GT-7O.1', 'GT-7O.2', 'GT-7O.3', 'GT-7O.4', 'Q-GT-45', 'GT-5.5'],
  reactions: { [ANTI_LANDING]: reaction },
  stepReaction: (h) => ({
    question: (state, step) => {
      const u = state.units[step.unit];
      if (u === undefined || step.at < 1 || u.side !== landerSide(state) || !isAmphibious(state, u)) return null;
      const board = boardOf(state.scenario);
      const from = step.path[step.at - 1]!;
      const hex = step.path[step.at]!;
      if (!isWater(board, board.grid.indexOf(from)) || !isLand(board, board.grid.indexOf(hex))) return null;
      return request(state, h, { unit: step.unit, hex, from, with: step.with });
    },
    apply: (ctx, step, answer) => fire(ctx, h, { unit: step.unit, hex: step.path[step.at]!, from: step.path[step.at - 1]!, with: step.with }, answer),
  }),
  // Remember that it came ashore this turn: its cargo's unloading is then a landing too (GT-7O.1).
  afterMove: () => (ctx, moved, resume) => {
    if (resume !== undefined) return;
    const u = ctx.state.units[moved.unit];
    const board = boardOf(ctx.state.scenario);
    if (u === undefined || u.loc.at !== 'hex' || !isAmphibious(ctx.state, u) || flag(u, ASHORE)) return;
    const here = board.grid.indexOf(u.loc.hex);
    if (isLand(board, here) && moved.path.some((p) => isWater(board, board.grid.indexOf(p))))
      ctx.emit({ type: 'UnitMarked', data: { unit: u.id, flags: { [ASHORE]: true } }, visibility: { to: 'all' } });
  },
  afterUnload: (h) => (ctx, info, resume) => {
    const l: Landing = { unit: info.unit, hex: info.hex, carrier: info.carrier };
    if (resume !== undefined) return void fire(ctx, h, l, resume.answer);
    const carrier = ctx.state.units[info.carrier];
    const board = boardOf(ctx.state.scenario);
    if (carrier === undefined || carrier.side !== landerSide(ctx.state) || !isAmphibious(ctx.state, carrier) || !flag(carrier, ASHORE)) return;
    if (!isLand(board, board.grid.indexOf(info.hex)) || hexOf(ctx.state, ctx.state.units[info.unit]!) !== info.hex) return;
    const q = request(ctx.state, h, l);
    if (q === null) return;
    const r = ctx.ask({ ...q, stage: l as unknown as Json });
    if (r.answered) fire(ctx, h, l, r.answer);
  },
};
