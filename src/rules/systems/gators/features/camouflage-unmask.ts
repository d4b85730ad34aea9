import { z } from 'zod';
import { Json } from '../../../model/json';
import { GameState, UnitState } from '../../../model/state';
import { boardOf } from '../../../engine/board';
import { ReactionKind } from '../../../engine/kit/types';
import { notOwnUnits, unitIdSchema } from '../../../engine/orders/common';
import { StepReaction } from '../../../engine/orders/move';
import { allUnits, mediumAt, typeOf } from '../../../engine/queries';
import { violation } from '../../../engine/violation';
import { gatorsData } from '../data';
import { CoreHooks } from '../feature';
import { GatorsExt } from '../ext';
import { reveal } from '../ground';
import { isAircraft } from '../queries';

/**
 * GT-6C.4, GT-6L.5, Q-GT-21: a camouflaged unit stops a passing enemy
 * aircraft with its ZOC only by unmasking. P2 decides by standing orders
 * (reaction kind "camouflage-unmask", kept secret in P2's state):
 *   "all" (the default)  every camouflaged unit that can stop the aircraft unmasks;
 *   "none"               none does;
 *   { "units": [...] }   only these do;
 *   "ask"                P2 is asked at each hex of the flight next to such a unit.
 * The first three are known before the move, so they act through the ZOC
 * hook: the kernel's real path stops where an unmasking unit's ZOC begins
 * (as for any hidden ZOC), and the unit is revealed when the aircraft ends
 * next to it. "ask" needs the kernel's step reaction; the answer
 * { "unmask": [...] } reveals those units and ends the flight there, or, over
 * a hex it may not end in (an enemy's), at the last hex before it that it may,
 * where the aircraft waits for the answer (the kernel's stopsLikeZoc).
 */
export const UNMASK = 'camouflage-unmask';

const standingSchema = z.union([z.literal('all'), z.literal('none'), z.literal('ask'), z.strictObject({ units: z.array(unitIdSchema).min(1).max(200) })]);
type Standing = z.infer<typeof standingSchema>;
const answerSchema = z.strictObject({ unmask: z.array(unitIdSchema).max(30) });

function standingOf(state: GameState, side: string): Standing {
  const r = standingSchema.safeParse(state.sides[side]?.secret.standing[UNMASK]);
  return r.success ? r.data : 'all';
}

/** Whether P2's standing orders unmask this unit for a passing aircraft without asking. */
function unmasksAhead(state: GameState, u: UnitState): boolean {
  const s = standingOf(state, u.side);
  return s === 'all' || (typeof s === 'object' && s.units.includes(u.id));
}

function withoutMarker(u: UnitState): UnitState {
  const { hidden: _h, ...open } = u;
  return open;
}

/** Camouflaged enemies of `mover` next to hex i whose ZOC would stop it once unmasked (other vetoes, such as breakdown, still apply). */
export function couldStop(state: GameState, h: CoreHooks, mover: UnitState, i: number): UnitState[] {
  const board = boardOf(state.scenario);
  const t = typeOf(state, mover);
  const medium = mediumAt(board, i);
  return allUnits(state).filter(
    (e) =>
      e.side !== mover.side &&
      e.hidden !== undefined &&
      e.loc.at === 'hex' &&
      board.grid.distance(board.grid.indexOf(e.loc.hex), i) === 1 &&
      h.move.exertsZoc!(state, withoutMarker(e), t, medium, null),
  );
}

/** The ZOC veto: a camouflaged unit exerts no ZOC on aircraft unless it unmasks ahead (the real move only; planning ignores hidden units anyway). */
export function camouflageZocVeto(state: GameState, enemy: UnitState, moverTags: readonly string[], knownTo: string | null): boolean {
  return knownTo === null && enemy.hidden !== undefined && moverTags.includes('aircraft') && !unmasksAhead(state, enemy);
}

/**
 * After an aircraft's move: the camouflaged units whose standing orders made their ZOC stop it are now
 * unmasked, those next to its end and those next to the hex where the real move met their ZOC (realPath
 * `zocAt`), when that hex could not hold it and it ended before it.
 */
export function unmaskedAtEnd(state: GameState, h: CoreHooks, mover: UnitState, stops: readonly number[]): UnitState[] {
  if (!isAircraft(state, mover)) return [];
  const found = stops.flatMap((i) => couldStop(state, h, mover, i).filter((e) => unmasksAhead(state, e)));
  return found.filter((e, k) => found.findIndex((x) => x.id === e.id) === k);
}

export function unmaskStep(h: CoreHooks): StepReaction<GatorsExt> {
  return {
    question: (state, step) => {
      const mover = state.units[step.unit];
      // The last hex ends the move anyway: no ZOC is needed to stop it there.
      if (mover === undefined || step.at >= step.path.length - 1 || !isAircraft(state, mover)) return null;
      const board = boardOf(state.scenario);
      const eligible = couldStop(state, h, mover, board.grid.indexOf(step.path[step.at]!)).filter((e) => standingOf(state, e.side) === 'ask');
      if (eligible.length === 0) return null;
      return {
        side: eligible[0]!.side,
        kind: UNMASK,
        prompt: { unit: step.unit, hex: step.path[step.at]! },
        privatePrompt: { eligible: eligible.map((e) => e.id).sort() },
        context: { unit: step.unit, hex: step.path[step.at]! },
      };
    },
    apply: (ctx, step, answer) => {
      const mover = ctx.state.units[step.unit];
      if (mover === undefined) return true;
      const board = boardOf(ctx.state.scenario);
      const still = new Set(couldStop(ctx.state, h, mover, board.grid.indexOf(step.path[step.at]!)).map((e) => e.id));
      const chosen = (answer as { unmask: string[] }).unmask.filter((id) => still.has(id));
      for (const id of chosen) reveal(ctx, ctx.state.units[id]!, 'unmasked to stop an aircraft (GT-6C.4)');
      return chosen.length === 0;
    },
    // Q-GT-21: the ZOC of the unmasked unit stops it, and over an enemy hex that means before it (GT-6D.1), as with "all".
    stopsLikeZoc: () => true,
  };
}

export const unmaskReaction: ReactionKind<GatorsExt> = {
  answerSchema,
  standingSchema: standingSchema as z.ZodType<Json>,
  validateAnswer: (_state, req, answer) => {
    const eligible = (req.privatePrompt as { eligible: string[] }).eligible;
    const bad = (answer as { unmask: string[] }).unmask.filter((a) => !eligible.includes(a));
    return bad.length === 0 ? [] : [violation('GT-6C.4', 'reaction/not_eligible', `${bad.join(', ')} cannot stop this aircraft here`, null)];
  },
  checkStanding: (state, side, standing, field) => {
    // Only the side that camouflages is asked to unmask; the landing side's orders would never be read.
    if (side === gatorsData(state.scenario).options.landingSide) return [violation('GT-6C.4', 'reaction/not_yours', `${field}: the side that lands has no camouflaged units to unmask`)];
    return typeof standing === 'object' && standing !== null && 'units' in standing ? notOwnUnits(state, side, `${field}.units`, standing.units as string[]) : [];
  },
  fromStanding: (_state, req, standing) => {
    const eligible = (req.privatePrompt as { eligible: string[] }).eligible;
    const s = standingSchema.safeParse(standing);
    if (!s.success || s.data === 'ask') return null;
    if (s.data === 'all') return { unmask: eligible };
    if (s.data === 'none') return { unmask: [] };
    const units = s.data.units;
    return { unmask: eligible.filter((e) => units.includes(e)) };
  },
  none: () => ({ unmask: [] }),
};
