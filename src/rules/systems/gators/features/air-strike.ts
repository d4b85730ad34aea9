import { z } from 'zod';
import { Json } from '../../../model/json';
import { GameState } from '../../../model/state';
import { boardOf } from '../../../engine/board';
import { pickDefender, plannedClass } from '../../../engine/combat/attack-checks';
import { OddsHooks, resolveOddsAttack, resumeOddsAttack } from '../../../engine/combat/odds-step';
import { isChoiceStage } from '../../../engine/combat/owner-choice';
import { OrderHandler, ResolveContext, Resume } from '../../../engine/kit/types';
import { isViolation, labelSchema, ownUnit, unitIdSchema } from '../../../engine/orders/common';
import { flag, mediumOf, typeOf } from '../../../engine/queries';
import { INPUT_RULE, violation } from '../../../engine/violation';
import { SideId, Violation } from '../../../engine/types';
import { markersOf, quickRearm, standingAt } from '../air-queries';
import { gatorsData, MarkerData } from '../data';
import { CombinedHooks, CoreHooks } from '../feature';
import { GatorsExt } from '../ext';
import { isAircraft, publicOf } from '../queries';
import { askFirst } from '../orders/attack';
import { cancel } from '../orders/wrap';
import { loadoutFor } from './loadouts';

/**
 * An attack with Air-Attack markers (GT-7C.3–7C.5, Q-GT-37, GT-7C.7): markers
 * of one type, each with its own strength (rules.json combat.airAttack),
 * against one or more targets next to each other and within the marker's
 * range of the attacker (adjacent; the SSM at 2). Once per combat phase,
 * besides one gun attack (the ordinary "attack", Q-GT-33). Attacker results
 * are ignored (GT-7C.4). The markers fired at a target are used up, and the
 * aircraft must return (GT-6B.3, Q-GT-18), once that target is found: after
 * the attack's pre-rolls (GT-3.8 (2), GT-6M.4, GT-2.13; GT-7B.1), a target not
 * found used no weapon (GT-6B.2); the attack is made all the same (no second
 * marker attack this phase). Markers released at a "?" they cannot harm are
 * used, though that attack is cancelled before its pre-rolls (Q-GT-37 part
 * 2). None are used up, nor a return forced, next to a friendly airfield or
 * the LHD (GT-6B.5, Q-GT-19). The Missile Boat's SSM hits
 * only P1 ships, craft and amphibians in water (Q-GT-38) and is never reloaded.
 */
export const strikeSchema = z.strictObject({
  kind: z.literal('air-strike'),
  unit: unitIdSchema,
  marker: z.string().min(1),
  targets: z.array(z.strictObject({ hex: labelSchema, markers: z.int().min(1).max(8).default(1) })).min(1).max(6),
});
export type StrikeOrder = z.infer<typeof strikeSchema>;

export function checkStrike(state: GameState, h: CoreHooks, side: SideId, o: StrikeOrder, i: number): Violation[] {
  const u = ownUnit(state, side, o.unit, i);
  if (isViolation(u)) return [u];
  if (loadoutFor(state, u.type) === undefined) return [violation('GT-6B.2', 'air/no_markers', `${o.unit} carries no Air-Attack markers`, i)];
  const m = gatorsData(state.scenario).airAttack.markers[o.marker];
  if (m === undefined) return [violation('GT-9.4', 'loadout/unknown_marker', `"${o.marker}" is not an Air-Attack marker`, i)];
  const at = standingAt(state, u);
  if (at < 0) return [violation('GT-7A.5', 'combat/not_in_hex', `${o.unit} is not standing in a hex`, i)];
  const problem = h.odds.attackerProblem?.(state, u, i);
  if (problem) return [problem];
  if (flag(u, 'markerAttack')) return [violation('GT-7C.5', 'air/marker_attack_used', `${o.unit} has already attacked with markers this phase`, i)];
  const need = o.targets.reduce((s, t) => s + t.markers, 0);
  const have = markersOf(state, u).filter((x) => x === o.marker).length;
  if (need > have) return [violation('GT-6B.2', 'air/not_carried', `${o.unit} does not carry ${need} ${o.marker} marker(s)`, i)];
  const grid = boardOf(state.scenario).grid;
  const idx = o.targets.map((t) => grid.indexOf(t.hex));
  if (idx.some((x) => x < 0)) return [violation(INPUT_RULE, 'input/bad_hex', 'a target is not a hex of the board', i)];
  if (new Set(idx).size !== idx.length) return [violation(INPUT_RULE, 'input/duplicate_target', 'a target is listed twice', i)];
  for (const t of idx) {
    const d = grid.distance(at, t);
    if (d < 1 || d > m.range) return [violation('GT-7C.5', 'air/out_of_range', `${grid.label(t)} is not within ${m.range} of ${o.unit}`, i)];
    if (idx.some((x) => x !== t && grid.distance(x, t) !== 1)) return [violation('GT-7C.5', 'air/targets_apart', 'the targets of one marker attack must be next to each other', i)];
  }
  return o.targets.flatMap((t) => targetProblems(state, h, side, m, t.hex, i));
}

function targetProblems(state: GameState, h: CoreHooks, side: SideId, m: MarkerData, hex: string, i: number): Violation[] {
  const board = boardOf(state.scenario);
  const def = pickDefender(state, hex, side, h.odds, side);
  if (def === undefined) return [violation('GT-7A.1', 'combat/no_target', `no enemy unit in ${hex}`, i)];
  const at = board.grid.indexOf(hex);
  const cls = plannedClass(state, h.odds, def, at, side);
  // Q-GT-27: against a concealed stack (or a class the owner's secret decides) the attack stands; it is cancelled at resolution if the marker cannot harm it.
  if (cls === null) return [];
  if (cls !== m.targetClass) return [violation('GT-7C.3', 'air/wrong_class', `a ${m.targetClass} marker cannot attack ${def.id}`, i)];
  if (m.targetTags !== undefined && !m.targetTags.some((t) => typeOf(state, def).tags.includes(t)))
    return [violation(m.ruleId ?? 'Q-GT-38', 'air/marker_target', `this marker may attack only ${m.targetTags.join('/')} units`, i)];
  if (m.targetInWater && mediumOf(board, typeOf(state, def), at) !== 'water') return [violation(m.ruleId ?? 'Q-GT-38', 'air/marker_target', `this marker may attack only units in water`, i)];
  return [];
}

/** What firing `count` markers does to the attacker's markers (public: the attack is seen on the table). */
function markersUsedData(state: GameState, unit: string, marker: string, count: number): Json {
  const u = state.units[unit]!;
  const kept = quickRearm(state, u);
  return { side: u.side, unit: u.id, marker, count, kept, mustReturn: isAircraft(state, u) && !kept };
}

/** The strike is made (GT-7C.5: one per phase), whether or not any target is found (GT-7B.1: no re-targeting). */
const strikeMade = (unit: string) => ({ unit, flags: { markerAttack: true } });

/**
 * The hooks for one target: the markers' strength against their class, attacker results ignored
 * (GT-7C.3, GT-7C.4); the markers are used once the target is found, after the pre-rolls, or once
 * released at a "?" they cannot harm (cancelled before the pre-rolls, Q-GT-27): else probing a "?"
 * with strikes would cost nothing (Q-GT-37 part 2). A target gone or not found used no weapon.
 */
function strikeHooks(base: OddsHooks, o: StrikeOrder, m: MarkerData, markers: number): OddsHooks {
  const use = (ctx: ResolveContext): void => ctx.emit(publicOf('AirAttackMarkersUsed', markersUsedData(ctx.state, o.unit, o.marker, markers)));
  return {
    ...base,
    strength: (s, x, cls) => (x.id === o.unit ? (cls === m.targetClass ? markers * m.strength : 0) : (base.strength?.(s, x, cls) ?? 0)),
    attackerExempt: (s, a, x) => x.id === o.unit || (base.attackerExempt?.(s, a, x) ?? false),
    beforeDie: use,
    afterCancel: (ctx, reason) => {
      if (reason === 'zero_strength') use(ctx);
    },
  };
}

/** Resolves the targets from `from` on; each may first ask the defender (GT-7G.2). */
function strikeFrom(ctx: ResolveContext<GatorsExt>, h: CombinedHooks, o: StrikeOrder, from: number, resume?: Resume): void {
  const m = gatorsData(ctx.state.scenario).airAttack.markers[o.marker]!;
  for (let k = from; k < o.targets.length; k++) {
    const t = o.targets[k]!;
    if (ctx.state.units[o.unit]?.loc.at !== 'hex') return;
    const attack = { attackers: [{ unit: o.unit }], target: t.hex };
    const hooks = strikeHooks(h.odds, o, m, t.markers);
    if (k === from && resume !== undefined && isChoiceStage(resume.stage)) {
      if (resumeOddsAttack(ctx, attack.attackers, t.hex, hooks, resume, { cause: 'air-strike' })) return;
      continue;
    }
    const asked = askFirst(ctx, h.attackReaction, attack, k === from ? resume : undefined, () => pickDefender(ctx.state, t.hex, ctx.side, h.odds) !== undefined, hooks);
    if (asked === false) return;
    if (pickDefender(ctx.state, t.hex, ctx.side, h.odds) === undefined) continue;
    if (resolveOddsAttack(ctx, attack.attackers, t.hex, asked, { cause: 'air-strike', ownerChoices: true }).suspended) return;
  }
}

export function strikeOrder(h: CombinedHooks): OrderHandler<GatorsExt, StrikeOrder> {
  return {
    kind: 'air-strike',
    schema: strikeSchema,
    validate: (state, side, o, i) => checkStrike(state, h, side, o, i),
    // As if every target were found: the submission's later orders may not count on a miss.
    project: (state, _side, o) => [
      { type: 'UnitMarked', data: strikeMade(o.unit) },
      { type: 'AirAttackMarkersUsed', data: markersUsedData(state, o.unit, o.marker, o.targets.reduce((s, t) => s + t.markers, 0)) },
    ],
    optionOrder: (unit, x) => {
      if (x.action !== 'air-strike') return null;
      const d = x.detail as { marker: string; hex: string };
      return { kind: 'air-strike', unit, marker: d.marker, targets: [{ hex: d.hex, markers: 1 }] };
    },
    // One-target strikes with one marker of each type carried (several targets or markers are the player's to combine).
    options: (state, side, unitId) => {
      const u = state.units[unitId];
      if (u === undefined || u.side !== side || u.loc.at !== 'hex') return {};
      const enemyHexes = [...new Set(Object.values(state.units).flatMap((e) => (e.side !== side && e.loc.at === 'hex' ? [e.loc.hex] : [])))].sort();
      const other = [...new Set(markersOf(state, u))].flatMap((marker) =>
        enemyHexes
          .filter((hex) => checkStrike(state, h, side, { kind: 'air-strike', unit: unitId, marker, targets: [{ hex, markers: 1 }] }, 0).length === 0)
          .map((hex) => ({ action: 'air-strike', detail: { marker, hex } })),
      );
      return other.length > 0 ? { other } : {};
    },
    resolve: (ctx, o, i, resume) => {
      if (resume !== undefined) {
        const target = (resume.stage as { target?: string }).target;
        return strikeFrom(ctx, h, o, Math.max(0, o.targets.findIndex((t) => t.hex === target)), resume);
      }
      const v = checkStrike(ctx.state, h, ctx.side, o, i);
      if (v.length > 0) return cancel(ctx, i, 'air-strike', v[0]!);
      ctx.emit(publicOf('UnitMarked', strikeMade(o.unit)));
      strikeFrom(ctx, h, o, 0);
    },
  };
}
