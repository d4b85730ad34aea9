import { z } from 'zod';
import { Json, JsonObject } from '../model/json';
import { GameState, ReactionRequest, UnitState } from '../model/state';
import { boardOf } from '../engine/board';
import { resolveOddsAttack } from '../engine/combat/odds-step';
import { oddsAttack } from '../engine/combat/odds-step';
import { ownerChoiceReactions } from '../engine/combat/owner-choice';
import { defineSystem } from '../engine/kit/define-system';
import { ReactionKind, ResolveContext, Resume, SystemSpec } from '../engine/kit/types';
import { MovedInfo, moveOrder } from '../engine/orders/move';
import { placeOrder } from '../engine/orders/place';
import { hitchOrder, unhitchOrder } from '../engine/orders/tow-orders';
import { loadOrder, unloadOrder } from '../engine/orders/transport-orders';
import { flag, mediumAt, strengthVs, targetClassAt, typeOf, unitOf, allUnits } from '../engine/queries';
import { setupViolations } from '../engine/setup';
import { Violation } from '../engine/types';
import { violation } from '../engine/violation';
import { marksOf, visibilityFor } from '../engine/visibility';

/**
 * A tiny game system built only from kernel parts, to test the kernel before
 * any real system exists. It has: a sealed simultaneous setup with
 * concealment markers; movement with loading, unloading and towing; odds
 * combat; and one reaction, "landing-fire" — the defender may fire at an
 * amphibian that comes ashore next to it (modelled on GT-7O), decided by
 * standing orders or by pausing for the defender; and the kernel's owner
 * choices of a defence (retreat path, tied defender: owner-choice.ts).
 */

type Ext = { readonly [key: string]: Json };

const landingAnswer = z.strictObject({ attackers: z.array(z.string()).max(12) });
const landingStanding = z.union([z.literal('all'), z.literal('none'), z.strictObject({ units: z.array(z.string()).max(50) })]);

interface LandingContext {
  readonly unit: string;
  readonly hex: string;
  readonly from: string;
}

/** Enemy units adjacent to `hex` that could fire at the lander there, and have not fired so this turn. */
function eligibleFirers(state: GameState, lander: UnitState, hex: string): string[] {
  const board = boardOf(state.scenario);
  const at = board.grid.indexOf(hex);
  const cls = targetClassAt(board, typeOf(state, lander), at);
  return allUnits(state)
    .filter((u) => u.side !== lander.side && u.loc.at === 'hex' && board.grid.distance(board.grid.indexOf(u.loc.hex), at) === 1)
    .filter((u) => !flag(u, 'landingFireUsed') && strengthVs(typeOf(state, u), cls) > 0)
    .map((u) => u.id)
    .sort();
}

const landingFire: ReactionKind<Ext> = {
  answerSchema: landingAnswer,
  standingSchema: landingStanding,
  validateAnswer: (_state, request, answer): Violation[] => {
    const eligible = ((request.privatePrompt as { eligible?: string[] }).eligible ?? []) as string[];
    const chosen = (answer as { attackers: string[] }).attackers;
    const bad = chosen.filter((a) => !eligible.includes(a));
    return bad.length === 0 ? [] : [violation('GT-7O.3', 'reaction/not_eligible', `${bad.join(', ')} may not fire at this landing`, null)];
  },
  fromStanding: (_state, request: ReactionRequest, standing) => {
    if (standing === undefined) return null;
    const eligible = ((request.privatePrompt as { eligible?: string[] }).eligible ?? []) as string[];
    if (standing === 'all') return { attackers: eligible };
    if (standing === 'none') return { attackers: [] };
    const units = (standing as { units: string[] }).units;
    return { attackers: eligible.filter((e) => units.includes(e)) };
  },
  none: () => ({ attackers: [] }),
};

/** After a move: concealed enemies next to where it ended are revealed; an amphibian landing next to the enemy may be fired on. */
function afterMove(ctx: ResolveContext<Ext>, moved: MovedInfo, resume?: Resume): void {
  if (resume === undefined) {
    const end = moved.path[moved.path.length - 1]!;
    revealNear(ctx, moved.unit, end);
    const board = boardOf(ctx.state.scenario);
    const lander = unitOf(ctx.state, moved.unit);
    if (moved.path.length < 2 || lander.loc.at !== 'hex') return;
    const from = moved.path[moved.path.length - 2]!;
    const cameAshore = mediumAt(board, board.grid.indexOf(moved.path[0]!)) === 'water' && mediumAt(board, board.grid.indexOf(end)) !== 'water';
    const amphibious = ctx.state.scenario.rules.movementClasses[typeOf(ctx.state, lander).movementClass]?.amphibious === true;
    if (!cameAshore || !amphibious) return;
    const eligible = eligibleFirers(ctx.state, lander, end);
    if (eligible.length === 0) return;
    const defender = unitOf(ctx.state, eligible[0]!).side;
    const context: LandingContext = { unit: moved.unit, hex: end, from };
    const r = ctx.ask({
      side: defender,
      kind: 'landing-fire',
      prompt: { unit: moved.unit, hex: end },
      privatePrompt: { eligible },
      context: context as unknown as Json,
      stage: { unit: moved.unit, with: [...moved.with], path: [...moved.path] },
    });
    if (!r.answered) return;
    return fireAtLanding(ctx, context, r.answer);
  }
  const st = resume.stage as { unit: string; path: string[] };
  const end = st.path[st.path.length - 1]!;
  fireAtLanding(ctx, { unit: st.unit, hex: end, from: st.path[st.path.length - 2]! }, resume.answer);
}

/** GT-7O.2 as this test system reads it: D R1 = the landing fails (back to the water hex), D R2 = destroyed. */
function fireAtLanding(ctx: ResolveContext<Ext>, c: LandingContext, answer: Json): void {
  const chosen = (answer as { attackers: string[] }).attackers.filter((id) => {
    const u = ctx.state.units[id];
    return u !== undefined && u.loc.at === 'hex';
  });
  if (chosen.length === 0) return;
  ctx.emit(marksOf(ctx.state, chosen.map((unit) => ({ unit, flags: { landingFireUsed: true } }))));
  resolveOddsAttack(
    ctx,
    chosen.map((unit) => ({ unit })),
    c.hex,
    {
      adjustResult: (_s, _a, result) => (result === 'D R2' ? 'D X' : result),
      applyResult: (rctx, _a, result) => {
        if (result !== 'D R1') return false;
        const u = rctx.state.units[c.unit];
        if (u !== undefined && u.loc.at === 'hex')
          rctx.emit({ type: 'UnitRetreated', data: { unit: c.unit, path: [c.hex, c.from] }, visibility: visibilityFor(rctx.state, [u]) });
        return true;
      },
    },
    { cause: 'landing-fire' },
  );
}

function revealNear(ctx: ResolveContext<Ext>, moverId: string, end: string): void {
  const board = boardOf(ctx.state.scenario);
  const mover = unitOf(ctx.state, moverId);
  const at = board.grid.indexOf(end);
  for (const u of allUnits(ctx.state)) {
    if (u.side === mover.side || u.hidden === undefined || u.loc.at !== 'hex') continue;
    if (board.grid.distance(board.grid.indexOf(u.loc.hex), at) !== 1) continue;
    ctx.emit({ type: 'UnitRevealed', data: { unit: u.id, type: u.type, hex: u.loc.hex, cause: 'enemy adjacent' }, visibility: { to: 'all' }, reveals: true });
  }
}

export const testSpec: SystemSpec<Ext> = {
  id: 'kernel-test',
  initialExt: () => ({}),
  phases: {
    setup: {
      orders: [placeOrder<Ext>()],
      validateSubmission: (_before, after, side) => setupViolations(after, side),
    },
    movement: {
      orders: [moveOrder<Ext>({ afterMove }), loadOrder<Ext>(), unloadOrder<Ext>(), hitchOrder<Ext>(), unhitchOrder<Ext>()],
    },
    combat: { orders: [oddsAttack<Ext>()] },
    'end-of-turn': { auto: () => undefined },
  },
  reactions: { 'landing-fire': landingFire, ...ownerChoiceReactions<Ext>() },
};

export const testSystem = defineSystem(testSpec);

export type TestState = GameState<Ext>;
export type { JsonObject };
