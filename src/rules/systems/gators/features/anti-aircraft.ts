import { z } from 'zod';
import { Json } from '../../../model/json';
import { GameState, UnitState } from '../../../model/state';
import { boardOf } from '../../../engine/board';
import { defenderClass, pickDefender, strengthOf } from '../../../engine/combat/attack-checks';
import { OddsHooks } from '../../../engine/combat/odds-step';
import { ReactionKind, ResolveContext } from '../../../engine/kit/types';
import { typeOf } from '../../../engine/queries';
import { violation } from '../../../engine/violation';
import { airOps } from '../air-data';
import { markersOf, withLoadout, withoutMarkers } from '../air-queries';
import { AttackAt, AttackReaction, CoreHooks, GatorsFeature } from '../feature';
import { GatorsExt, GState } from '../ext';
import { isAircraft, publicOf } from '../queries';

/**
 * GT-7G, Q-GT-40: anti-aircraft combat is ordinary combat, but an aircraft
 * attacked in the air adds 1 to the die for each Ground or Armor marker it
 * carries. Before the die is rolled its owner may jettison one such marker
 * (lost; the +1 goes with it; no duty to return): an out-of-turn question
 * ("jettison"), answered at once by standing orders "always", "never" or
 * { prefer: "Ground" | "Armor" }, otherwise by a pause.
 *
 * Hidden information: loadouts are secret (GT-6C.2), but this rule itself
 * shows the attacker that the aircraft carries such markers (the question is
 * asked, the die modifier is in the attack's log) — an accepted leak, as on
 * the table. The jettisoned marker is thrown away in the open.
 */
export const JETTISON = 'jettison';

const answerSchema = z.strictObject({ jettison: z.string().nullable() });
const standingSchema = z.union([z.literal('always'), z.literal('never'), z.strictObject({ prefer: z.string().min(1) })]);

/** The markers of `u` that make it easier to hit (GT-7G.2). */
function heavy(state: GameState, u: UnitState): string[] {
  const kinds = airOps(state.scenario).heavyMarkers;
  return markersOf(state, u).filter((m) => kinds.includes(m));
}

/**
 * The class an aircraft is attacked as in the air: its own units.json targetClass (no class name
 * in code). Landed, it is attacked as another (airOps.landedTargetClass, GT-7H.1).
 */
function airClass(state: GameState, u: UnitState): string {
  return typeOf(state, u).targetClass;
}

/** The aircraft defending at `hex` against `side`, if it is attacked in the air (a landed one is a ground target, GT-7H.1). */
function airborneDefender(state: GameState, odds: OddsHooks, hex: string, side: string): UnitState | undefined {
  const d = pickDefender(state, hex, side, odds);
  if (d === undefined || !isAircraft(state, d)) return undefined;
  return defenderClass(state, odds, d, boardOf(state.scenario).grid.indexOf(hex)) === airClass(state, d) ? d : undefined;
}

const reaction: ReactionKind<GatorsExt> = {
  answerSchema,
  standingSchema,
  validateAnswer: (_state, req, answer) => {
    const a = answer as z.infer<typeof answerSchema>;
    const carried = (req.privatePrompt as { markers: string[] }).markers;
    return a.jettison === null || carried.includes(a.jettison) ? [] : [violation('Q-GT-40', 'reaction/not_carried', `the aircraft carries no ${a.jettison} marker to jettison`, null)];
  },
  fromStanding: (_state, req, standing) => {
    if (standing === undefined) return null;
    const carried = (req.privatePrompt as { markers: string[] }).markers;
    const s = standing as z.infer<typeof standingSchema>;
    if (s === 'never') return { jettison: null };
    if (s === 'always') return { jettison: carried[0] ?? null };
    return { jettison: carried.includes(s.prefer) ? s.prefer : (carried[0] ?? null) };
  },
  none: () => ({ jettison: null }),
};

function attackReaction(h: CoreHooks): AttackReaction {
  return {
    question: (state: GameState, attack: AttackAt, side: string) => {
      const d = airborneDefender(state, h.odds, attack.target, side);
      const markers = d === undefined ? [] : heavy(state, d);
      if (d === undefined || markers.length === 0) return null;
      // An attack that cannot harm it in the air is cancelled without a die (infantry that could not
      // tell whether the aircraft had landed, Q-GT-41): nothing to ask.
      const harmful = attack.attackers.some((a) => state.units[a.unit] !== undefined && strengthOf(state, h.odds, state.units[a.unit]!, airClass(state, d)) > 0);
      if (!harmful) return null;
      return { side: d.side, kind: JETTISON, prompt: { unit: d.id, hex: attack.target }, privatePrompt: { markers }, context: null };
    },
    apply: (ctx: ResolveContext<GatorsExt>, attack: AttackAt, answer: Json) => {
      const d = airborneDefender(ctx.state, h.odds, attack.target, ctx.side);
      const marker = (answer as { jettison: string | null }).jettison;
      if (d === undefined || marker === null || !heavy(ctx.state, d).includes(marker)) return;
      ctx.emit(publicOf('MarkerJettisoned', { side: d.side, unit: d.id, marker }));
    },
  };
}

function jettisoned(state: GState, data: unknown): GState {
  const d = data as { side: string; unit: string; marker: string };
  return withLoadout(state, d.side, d.unit, withoutMarkers(markersOf(state, state.units[d.unit]!), d.marker, 1));
}

export const antiAircraft: GatorsFeature = {
  id: 'anti-aircraft',
  rules: ['GT-7G.1', 'GT-7G.2', 'Q-GT-40'],
  reactions: { [JETTISON]: reaction },
  attackReaction,
  odds: {
    modifiers: (state, attack, knownTo) => {
      const d = attack.defender.unit;
      // The markers are the owner's secret (AIR-02): the attacker reads the +1 only in the attack's record.
      const secret = knownTo !== undefined && knownTo !== null && knownTo !== d.side;
      const n = !secret && isAircraft(state, d) && attack.targetClass === airClass(state, d) ? heavy(state, d).length : 0;
      const per = airOps(state.scenario).heavyMarkerModifier;
      return { shifts: [], dieModifiers: n > 0 ? [{ value: n * per, ruleId: 'GT-7G.2' }] : [] };
    },
  },
  events: { MarkerJettisoned: (s, e) => jettisoned(s, e.data) },
};
