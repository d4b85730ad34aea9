import { z } from 'zod';
import { JsonObject } from '../../../model/json';
import { GameState, UnitState } from '../../../model/state';
import { Board, boardOf } from '../../../engine/board';
import { OrderHandler } from '../../../engine/kit/types';
import { Block } from '../../../engine/movement/context';
import { isViolation, labelSchema, ownUnit, unitIdSchema } from '../../../engine/orders/common';
import { flag } from '../../../engine/queries';
import { violation } from '../../../engine/violation';
import { SideId, Violation } from '../../../engine/types';
import { gatorsData } from '../data';
import { GatorsFeature, ProjectedMove } from '../feature';
import { GatorsExt, gext } from '../ext';
import { standingAt } from '../ground';
import { hersGround } from '../air-queries';
import { hersAboard } from './hers-stays';
import { groundData } from '../ground-data';
import { hasDebris, publicOf, tagged } from '../queries';
import { cancel } from '../orders/wrap';
import { cleared, debrisUsed, removed } from './debris-state';
import { resumeTrap, springTrap } from './debris-trap';
import { attackersStop, emitWorkMarks, interrupt, interruptMarks, workOnDebris } from './debris-work';
import { debrisOrder } from './setup-p2';

/**
 * Debris in play (GT-6Q, Q-GT-32; P2 places it at setup, setup-p2.ts):
 * - no vehicle (nor landing craft) may enter a Debris hex (GT-6Q.3), nor the HERS be set ashore
 *   on one in its CH-53E; Debris on
 *   a bridge destroys it: no ground unit may enter until removed (GT-6Q.8), but
 *   the units that remove Debris, who need two turns there to repair it: their
 *   move or unload ends on it, and a retreat never brings them there;
 * - booby traps (debris-trap.ts); removal and clearing (debris-work.ts);
 * - a P2 infantry platoon that has just left its hex may leave a Debris
 *   marker there (GT-6Q.1), roads and bridges included (GT-6Q.2 "may block a
 *   road", GT-6Q.8), while markers remain: they are never reused (GT-6Q.2).
 * An airfield with Debris is unusable (GT-6Q.4): `hasDebris` in queries.ts,
 * for the air operations.
 */
export const leaveDebrisSchema = z.strictObject({ kind: z.literal('leave-debris'), unit: unitIdSchema, hex: labelSchema });
export type LeaveDebrisOrder = z.infer<typeof leaveDebrisSchema>;

/** The per-turn flag: the hex a unit that may leave Debris started its move in. */
const LEFT = 'leftHex';

function blockedByDebris(state: GameState, mover: UnitState, board: Board): ReadonlyMap<number, Block> {
  const out = new Map<number, Block>();
  const hexes = gext(state).debris;
  if (hexes.length === 0) return out;
  const d = groundData(state.scenario).debris;
  const vehicle = tagged(state, mover, ...d.blocksTags);
  const ground = tagged(state, mover, ...d.bridgeBlocksTags);
  const crew = tagged(state, mover, ...d.removerTags);
  for (const hex of hexes) {
    const i = board.grid.indexOf(hex);
    if (vehicle) out.set(i, { ruleId: 'GT-6Q.3', code: 'movement/debris', message: `no vehicle may enter the Debris in ${hex}` });
    else if (ground && board.bridges.has(i)) out.set(i, crew ? repairCrew(hex) : destroyed(hex));
  }
  return out;
}

/**
 * GT-6Q.3 with GT-6N.1: the HERS is equipment, a vehicle for Debris (README "GT-6Q.3 (what is a
 * vehicle)"), and in its CH-53E on a beach or open hex it is ashore, on the ground. So the CH-53E
 * may fly it over Debris, but not end (move, retreat or launch) where it would set it down on Debris.
 */
function hersOnDebris(state: GameState, movers: readonly UnitState[], at: number): Block | null {
  const hexes = gext(state).debris;
  if (hexes.length === 0) return null;
  const hex = boardOf(state.scenario).grid.label(at);
  if (!hexes.includes(hex) || !hersGround(state, at)) return null;
  const d = groundData(state.scenario).debris;
  const set = movers.flatMap((m) => hersAboard(state, m)).find((h) => tagged(state, h, ...d.blocksTags));
  return set === undefined ? null : { ruleId: 'GT-6Q.3', code: 'movement/debris', message: `no vehicle may enter the Debris in ${hex}: ${set.id} would be set ashore there` };
}

const destroyed = (hex: string): Block => ({ ruleId: 'GT-6Q.8', code: 'movement/bridge_destroyed', message: `the bridge at ${hex} is destroyed (Debris)` });

// Else GT-6Q.8's two turns of repair could never begin: the crew could not reach the bridge.
const repairCrew = (hex: string): Block => ({
  ruleId: 'GT-6Q.8',
  code: 'movement/bridge_repair_stop',
  message: `the bridge at ${hex} is destroyed (Debris): only its repair crew may move onto it, and the move ends there`,
  stops: true,
});

function groupOf(state: GameState, moved: ProjectedMove): UnitState[] {
  return [moved.unit, ...moved.with].map((id) => state.units[id]).filter((u): u is UnitState => u !== undefined);
}

/** GT-6Q.1: the defender's platoons among the movers, each flagged with the hex it left (the move's first). */
function leftMarks(state: GameState, group: readonly UnitState[], path: readonly string[]): { unit: string; flags: JsonObject }[] {
  const d = groundData(state.scenario).debris;
  const defender = gatorsData(state.scenario).options.defendingSide;
  return group.filter((u) => u.side === defender && tagged(state, u, ...d.leftByTags)).map((u) => ({ unit: u.id, flags: { [LEFT]: path[0]! } }));
}

function checkLeave(state: GameState, side: SideId, o: LeaveDebrisOrder, i: number): Violation[] {
  const u = ownUnit(state, side, o.unit, i);
  if (isViolation(u)) return [u];
  const d = groundData(state.scenario).debris;
  if (side !== gatorsData(state.scenario).options.defendingSide || !tagged(state, u, ...d.leftByTags))
    return [violation('GT-6Q.1', 'debris/not_a_platoon', `only the defender's infantry platoons leave Debris behind (${u.id})`, i)];
  // The hex left is flagged by the move (projectMove while the orders are checked, afterMove when carried out).
  if (!flag(u, 'moved') || u.flags[LEFT] !== o.hex) return [violation('GT-6Q.1', 'debris/not_left', `${u.id} has not just left ${o.hex}`, i)];
  if (hasDebris(state, o.hex)) return [violation('GT-6Q.2', 'debris/already', `${o.hex} already has a Debris marker`, i)];
  const max = gatorsData(state.scenario).options.debrisMarkers;
  if (debrisUsed(state) >= max) return [violation('Q-GT-32', 'debris/none_left', `all ${max} Debris markers have been used; they are not reused`, i)];
  return [];
}

function leaveOrder(): OrderHandler<GatorsExt, LeaveDebrisOrder> {
  return {
    kind: 'leave-debris',
    schema: leaveDebrisSchema,
    validate: checkLeave,
    // Only once the platoon's move is in the draft: the hex it left, if Debris may go there.
    options: (state, side, unitId) => {
      const hex = state.units[unitId]?.flags[LEFT];
      if (typeof hex !== 'string' || checkLeave(state, side, { kind: 'leave-debris', unit: unitId, hex }, 0).length > 0) return {};
      return { other: [{ action: 'leave-debris', detail: { hex } }] };
    },
    optionOrder: (unit, x) => (x.action === 'leave-debris' ? { kind: 'leave-debris', unit, hex: (x.detail as { hex: string }).hex } : null),
    project: (_s, _side, o) => [{ type: 'DebrisPlaced', data: { hex: o.hex } }],
    resolve: (ctx, o, i) => {
      const v = checkLeave(ctx.state, ctx.side, o, i);
      if (v.length > 0) return cancel(ctx, i, 'leave-debris', v[0]!);
      ctx.emit(publicOf('DebrisPlaced', { hex: o.hex }));
    },
  };
}

export const debris: GatorsFeature = {
  id: 'debris',
  rules: ['GT-6Q.1', 'GT-6Q.2', 'GT-6Q.3', 'GT-6Q.5', 'GT-6Q.6', 'GT-6Q.7', 'GT-6Q.8', 'Q-GT-54'],
  phases: {
    setup: { orders: () => [debrisOrder()] },
    movement: { orders: () => [leaveOrder()], onEnter: workOnDebris },
    'end-of-turn': { auto: attackersStop },
  },
  move: { blocked: blockedByDebris, endProblem: hersOnDebris },
  // So that the submission's leave-debris orders are checked against the hex each platoon left.
  projectMove: (state, moved) => {
    const marks = leftMarks(state, groupOf(state, moved), moved.path);
    return marks.length > 0 ? [{ type: 'UnitsMarked', data: { marks } }] : [];
  },
  afterMove: (h) => (ctx, moved, resume) => {
    const hex = moved.path[moved.path.length - 1]!;
    if (resume !== undefined) return resumeTrap(ctx, resume, [moved.unit, ...moved.with], hex, h.odds.retreatBlocked);
    const group = groupOf(ctx.state, moved);
    const defending = group.filter((u) => u.side === gatorsData(ctx.state.scenario).options.defendingSide);
    // Whether a "?" worked on Debris or may leave it is as hidden as what it is.
    emitWorkMarks(ctx, [...interruptMarks(ctx.state, group), ...leftMarks(ctx.state, group, moved.path)], defending);
    springTrap(ctx, group.map((u) => u.id), hex, { ownerChoices: true, blocked: h.odds.retreatBlocked });
  },
  afterUnload: (h) => (ctx, info, resume) => {
    if (resume === undefined) springTrap(ctx, [info.unit], info.hex, { ownerChoices: true, blocked: h.odds.retreatBlocked });
    else resumeTrap(ctx, resume, [info.unit], info.hex, h.odds.retreatBlocked);
  },
  odds: {
    // Q-GT-32 "not defending": an attack on a worker's hex ends its full turn, whatever the result.
    applyResult: (ctx, attack) => {
      interrupt(ctx, standingAt(ctx.state, attack.targetHex, attack.defender.unit.side));
      return false;
    },
  },
  events: {
    DebrisRemoved: (s, e) => removed(s, e.data),
    DebrisTrapsCleared: (s, e) => cleared(s, e.data),
    BoobyTrapRolled: (s) => s,
  },
};

