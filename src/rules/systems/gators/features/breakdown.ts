import { z } from 'zod';
import { JsonObject } from '../../../model/json';
import { GameState, UnitState } from '../../../model/state';
import { OrderHandler, ResolveContext } from '../../../engine/kit/types';
import { isViolation, ownUnit, unitIdSchema } from '../../../engine/orders/common';
import { allUnits, hasTag, hexOf, typeOf } from '../../../engine/queries';
import { violation } from '../../../engine/violation';
import { SideId, Violation } from '../../../engine/types';
import { BreakdownData, gatorsData } from '../data';
import { GatorsFeature } from '../feature';
import { BreakdownNote, GatorsExt, GState, isBroken, notesOf } from '../ext';
import { idOrder, privateTo } from '../queries';

/**
 * GT-4.8, GT-4.9, GT-6C.5, Q-GT-14: the secret breakdown roll. After the
 * sealed setup, one d6 that only P2 sees picks a row of rules.json
 * combat.breakdown; the broken units stay on the map, may defend, cannot move
 * or attack, and have no ZOC. The result and the written-down hex of a broken
 * Hawk live in P2's notes and are never shown to P1 (until the game is over).
 *
 * The ZOC of a broken unit is judged with the mover's knowledge (the kernel
 * passes `knownTo`): planning for P1 assumes a working unit, so that P1's
 * options never tell it what broke; for P2 and for the real move it has none.
 */
export const breakdownChoiceSchema = z.strictObject({ kind: z.literal('breakdown'), units: z.array(unitIdSchema).min(1).max(10) });
export type BreakdownChoice = z.infer<typeof breakdownChoiceSchema>;

function breakable(state: GameState, u: UnitState, table: BreakdownData): boolean {
  return table.results.some((r) => r.broken.some((b) => hasTag(typeOf(state, u), b.tags)));
}

function checkChoice(state: GameState, side: SideId, o: BreakdownChoice, i: number): Violation[] {
  const table = gatorsData(state.scenario).breakdown;
  for (const id of o.units) {
    const u = ownUnit(state, side, id, i);
    if (isViolation(u)) return [u];
    if (table === null || !breakable(state, u, table)) return [violation('GT-4.8', 'setup/not_breakable', `${id} cannot break down`, i)];
  }
  return [];
}

function choiceOrder(): OrderHandler<GatorsExt, BreakdownChoice> {
  return {
    kind: 'breakdown',
    schema: breakdownChoiceSchema,
    validate: checkChoice,
    // "This one to break down first": the unit after those the draft already named (a later
    // choice replaces an earlier one, so the option keeps them).
    options: (state, side, unitId) => {
      const before = notesOf(state, side).breakdownChoice ?? [];
      if (before.includes(unitId)) return {};
      const units = [...before, unitId];
      return checkChoice(state, side, { kind: 'breakdown', units }, 0).length > 0 ? {} : { other: [{ action: 'breakdown', detail: { units } }] };
    },
    optionOrder: (_unit, x) => (x.action === 'breakdown' ? { kind: 'breakdown', units: (x.detail as { units: string[] }).units } : null),
    project: (_s, side, o) => [{ type: 'BreakdownChosen', data: { side, units: o.units } }],
    resolve: (ctx, o) => ctx.emit(privateTo(ctx.side, 'BreakdownChosen', { side: ctx.side, units: o.units })),
  };
}

/** The roll, made once the sealed setup is applied. */
function rollBreakdown(ctx: ResolveContext<GatorsExt>): void {
  const table = gatorsData(ctx.state.scenario).breakdown;
  if (table === null) return;
  const candidates = allUnits(ctx.state).filter((u) => u.loc.at !== 'eliminated' && breakable(ctx.state, u, table));
  const side = candidates[0]?.side;
  if (side === undefined) return;
  const roll = ctx.dice.roll(table.die, 'breakdown roll (GT-4.8)', [side]);
  const result = table.results.findIndex((r) => r.rolls.includes(roll));
  const row = table.results[result];
  if (row === undefined) throw new Error(`rules.json combat.breakdown has no row for a roll of ${roll}`);
  const chosen = notesOf(ctx.state, side).breakdownChoice ?? [];
  // The named units in the order P2 named them (its options offer each after those already named), then the rest by id.
  const rank = (u: UnitState) => (chosen.includes(u.id) ? chosen.indexOf(u.id) : chosen.length);
  const first = (a: UnitState, b: UnitState) => rank(a) - rank(b) || idOrder(a.id, b.id);
  const broken = row.broken.flatMap((b) =>
    candidates
      .filter((u) => u.side === side && hasTag(typeOf(ctx.state, u), b.tags))
      .sort(first)
      .slice(0, b.count)
      .map((u) => u.id),
  );
  const recorded = broken
    .map((id) => ctx.state.units[id]!)
    .filter((u) => hasTag(typeOf(ctx.state, u), table.recordHexOf))
    .map((u) => ({ unit: u.id, hex: hexOf(ctx.state, u) }));
  const note: BreakdownNote = { roll, result, text: row.text ?? '', broken, recorded };
  ctx.emit(privateTo(side, 'BreakdownDetermined', { side, note }, { type: 'BreakdownRolled', data: { side } }));
}

function setNote(state: GState, side: SideId, patch: JsonObject): GState {
  const s = state.sides[side]!;
  return { ...state, sides: { ...state.sides, [side]: { ...s, secret: { ...s.secret, notes: { ...s.secret.notes, ...patch } } } } };
}

export const breakdown: GatorsFeature = {
  id: 'breakdown',
  rules: ['GT-4.8', 'GT-4.9', 'GT-6C.5', 'Q-GT-14'],
  phases: { setup: { orders: () => [choiceOrder()], afterSealed: rollBreakdown } },
  events: {
    BreakdownChosen: (s, e) => {
      const d = e.data as { side: string; units: string[] };
      return setNote(s, d.side, { breakdownChoice: d.units });
    },
    BreakdownDetermined: (s, e) => {
      const d = e.data as { side: string; note: BreakdownNote };
      return setNote(s, d.side, { breakdown: d.note as unknown as JsonObject });
    },
  },
  move: {
    moveProblem: (state, u, i) => (isBroken(state, u) ? violation('GT-4.9', 'movement/broken_down', `${u.id} has broken down and cannot move`, i) : null),
    // Only where the mover may know it: its own side, or the real state (knownTo null).
    zocVeto: (state, enemy, _t, _m, knownTo) => isBroken(state, enemy) && (knownTo === null || knownTo === enemy.side),
  },
  odds: {
    attackerProblem: (state, u, i) => (isBroken(state, u) ? violation('GT-4.9', 'combat/broken_down', `${u.id} has broken down and cannot attack`, i) : null),
  },
  view: (state, viewer, base) => {
    // Q-GT-14: revealed when the game is over.
    if (state.phase.stage !== 'ended' && viewer.kind !== 'referee') return base;
    const revealed: Record<string, JsonObject> = {};
    for (const side of Object.keys(state.sides)) {
      const b = notesOf(state, side).breakdown;
      if (b !== undefined) revealed[side] = b as unknown as JsonObject;
    }
    return { ...base, ext: { ...(base.ext as JsonObject), breakdown: revealed } };
  },
};
