import { z } from 'zod';
import { GameState, UnitState } from '../../../model/state';
import { boardOf } from '../../../engine/board';
import { table } from '../../../engine/combat/attack-checks';
import { OrderHandler, ResolveContext } from '../../../engine/kit/types';
import { labelSchema } from '../../../engine/orders/common';
import { allUnits, stackAt, standingNextTo, towedBy } from '../../../engine/queries';
import { violation } from '../../../engine/violation';
import { SideId, Violation } from '../../../engine/types';
import { cancel } from '../orders/wrap';
import { GatorsFeature } from '../feature';
import { GatorsExt } from '../ext';
import { moduleOn } from '../data';
import { enemyWithin, hexIs, reveal, revealedEvent, standingAt } from '../ground';
import { groundData } from '../ground-data';
import { crewOf, tagged } from '../queries';
import { UNMASK, camouflageZocVeto, unmaskReaction, unmaskStep, unmaskedAtEnd } from './camouflage-unmask';

/**
 * Camouflage in play (GT-6L, Q-GT-27). The kernel hides units under "?"
 * (setup-p2 places them); this feature takes the markers off again:
 * - a unit that moves loses it, unless its whole move (start included) was in
 *   jungle (GT-6L.2);
 * - an enemy unit that ends its move (or is unloaded) next to it uncovers it;
 *   in jungle only Recon, Scout/Sniper and SEAL teams do (GT-6L.2, GT-6L.3).
 *   Flying past does not uncover: GT-6C.4 would be void if it did;
 * - attacking does not, nor being attacked, unless a result makes the stack
 *   retreat (GT-6L.4);
 * - air defence unmasks to stop aircraft (camouflage-unmask.ts).
 * Freed markers hide other counters again in P2's movement phase, on a hex
 * not next to an enemy unit (GT-6L.6), within the setup.json number (GT-4.3);
 * one freed by a move is free for the later orders of the same submission
 * (Q-GT-50: projectMove).
 * Attacks on a "?" stack (Q-GT-27) are the kernel's: real values, the attack
 * cancelled if the attacker turns out to have no strength against it.
 */
export const camouflageSchema = z.strictObject({ kind: z.literal('camouflage'), hex: labelSchema });
export type CamouflageOrder = z.infer<typeof camouflageSchema>;

/**
 * `finders` end next to the "?"s around `hex`. `crews`: the small teams crewing a moving FAV count
 * among them (GT-2.20 takes only their concealment, GT-2.13). Only on the FAV's own move: it moves
 * only crewed, so the uncovering tells the enemy nothing it did not see. A FAV unloaded or placed
 * may have no crew, which is hidden cargo (Q-GT-01, Q-GT-21): there its crew does not count.
 */
function uncoverNear(ctx: ResolveContext, finders: readonly UnitState[], hex: string, crews = false): void {
  const board = boardOf(ctx.state.scenario);
  const d = groundData(ctx.state.scenario).camouflage;
  const at = board.grid.indexOf(hex);
  const side = finders[0]?.side;
  const lookouts = [...finders];
  // Loops, not flatMap (slow in V8): this runs for every move resolved.
  if (crews) for (const f of finders) for (const c of crewOf(ctx.state, f)) lookouts.push(c);
  const scouts = lookouts.some((f) => tagged(ctx.state, f, ...d.uncoverTags));
  for (const s of standingNextTo(ctx.state, at)) {
    if (s.side === side || s.loc.at !== 'hex') continue;
    const i = board.grid.indexOf(s.loc.hex);
    if (hexIs(board, i, d.keepInTerrain) && !scouts) continue;
    // A gun hitched to a counter there stands in that hex too: it is uncovered with the hex.
    for (const u of [s, towedBy(ctx.state, s.id)]) if (u !== undefined && ctx.state.units[u.id]?.hidden !== undefined) reveal(ctx, ctx.state.units[u.id]!, 'enemy adjacent (GT-6L.2)');
  }
}

/**
 * GT-6L.2 for counters placed next to their hex without a move order of their own (the squads a
 * split on land puts next to the platoon, GT-6J.2: "moved into adjacent hexes"), where this
 * feature is on: they uncover as a unit ending its move there would.
 */
export function uncoverNextToPlaced(ctx: ResolveContext, placed: readonly { readonly unit: string; readonly hex: string }[]): void {
  if (!moduleOn(ctx.state.scenario, CAMOUFLAGE_MODULE)) return;
  for (const p of placed) {
    const u = ctx.state.units[p.unit];
    if (u !== undefined && u.loc.at === 'hex' && u.loc.hex === p.hex) uncoverNear(ctx, [u], p.hex);
  }
}

/** The scenario.json module that switches camouflage on. */
export const CAMOUFLAGE_MODULE = 'camouflage';

const MOVED = 'moved (GT-6L.2)';

/**
 * GT-6L.4: counters an attack forces to retreat lose their "?" before they move off; also those
 * of a fixed-column attack that is no odds attack (the HERS blast), where this feature is on.
 */
export function uncoverRetreating(ctx: ResolveContext, units: readonly UnitState[]): void {
  if (!moduleOn(ctx.state.scenario, CAMOUFLAGE_MODULE)) return;
  for (const u of units) if (ctx.state.units[u.id]?.hidden !== undefined) reveal(ctx, ctx.state.units[u.id]!, 'forced to retreat (GT-6L.4)');
}

/**
 * The movers and what they tow that lose their "?" by moving along `path` (the hex left
 * first): all of them, unless every hex of it is jungle (GT-6L.2). A gun towed by two
 * trucks is named once.
 */
function uncoveredByMove(state: GameState, group: readonly UnitState[], path: readonly string[]): UnitState[] {
  const all = [...group];
  for (const u of group) {
    const g = towedBy(state, u.id);
    if (g !== undefined) all.push(g);
  }
  const hidden = all.filter((u, k) => u.hidden !== undefined && all.findIndex((x) => x.id === u.id) === k);
  // Every move is projected while orders are checked; most movers have no marker to lose.
  if (hidden.length === 0) return [];
  const board = boardOf(state.scenario);
  const jungle = groundData(state.scenario).camouflage.keepInTerrain;
  return path.every((p) => hexIs(board, board.grid.indexOf(p), jungle)) ? [] : hidden;
}

/** The side's uncovered counters in the hex, a gun hitched to one of them included. */
function toHide(state: GameState, side: SideId, hex: string): UnitState[] {
  return stackAt(state, hex).filter((u) => u.side === side && u.hidden === undefined);
}

function checkHide(state: GameState, side: SideId, o: CamouflageOrder, i: number): Violation[] {
  const markers = state.scenario.setup.hiddenMarkers[side];
  if (markers === undefined) return [violation('GT-6L.1', 'camouflage/no_markers', `${side} has no camouflage markers`, i)];
  const units = toHide(state, side, o.hex);
  if (units.length === 0) return [violation('GT-6L.6', 'camouflage/nothing_to_hide', `${side} has no uncovered unit standing in ${o.hex}`, i)];
  if (enemyWithin(state, side, boardOf(state.scenario).grid.indexOf(o.hex), 1))
    return [violation('GT-6L.6', 'camouflage/enemy_adjacent', `${o.hex} is next to an enemy unit`, i)];
  const inUse = allUnits(state).filter((u) => u.side === side && u.hidden?.marker === markers.marker).length;
  if (inUse + units.length > markers.count)
    return [violation(markers.ruleId, 'camouflage/no_marker_free', `${inUse} of ${markers.count} "${markers.marker}" markers are in use`, i)];
  return [];
}

function hideOrder(): OrderHandler<GatorsExt, CamouflageOrder> {
  const marker = (state: GameState, side: SideId) => state.scenario.setup.hiddenMarkers[side]?.marker ?? '?';
  return {
    kind: 'camouflage',
    schema: camouflageSchema,
    validate: checkHide,
    // The hexes where the side's uncovered units stand that it may camouflage now.
    sideOptions: {
      list: (state, side) =>
        [...new Set(allUnits(state).flatMap((u) => (u.side === side && u.loc.at === 'hex' && u.hidden === undefined ? [u.loc.hex] : [])))]
          .sort()
          .filter((hex) => checkHide(state, side, { kind: 'camouflage', hex }, 0).length === 0)
          .map((hex) => ({ action: 'camouflage', detail: { hex } })),
      order: (x) => ({ kind: 'camouflage', hex: (x.detail as { hex: string }).hex }),
    },
    project: (state, side, o) => toHide(state, side, o.hex).map((u) => ({ type: 'UnitConcealed', data: { unit: u.id, marker: marker(state, side) } })),
    resolve: (ctx, o, i) => {
      const v = checkHide(ctx.state, ctx.side, o, i);
      if (v.length > 0) return cancel(ctx, i, 'camouflage', v[0]!);
      // Public: the enemy saw these units; it now sees the marker where they stand.
      for (const u of toHide(ctx.state, ctx.side, o.hex))
        ctx.emit({ type: 'UnitConcealed', data: { unit: u.id, marker: marker(ctx.state, ctx.side) }, visibility: { to: 'all' } });
    },
  };
}

export const camouflage: GatorsFeature = {
  id: 'camouflage',
  rules: ['GT-6L.1', 'GT-6L.2', 'GT-6L.3', 'GT-6L.4', 'GT-6L.5', 'GT-6L.6', 'GT-6C.4', 'Q-GT-27', 'Q-GT-50'],
  reactions: { [UNMASK]: unmaskReaction },
  phases: { movement: { orders: () => [hideOrder()] } },
  move: { zocVeto: (state, enemy, moverType, _medium, knownTo) => camouflageZocVeto(state, enemy, moverType.tags, knownTo) },
  stepReaction: (h) => unmaskStep(h),
  // Q-GT-50: a "?" freed by a move is back in the pool for the submission's later camouflage orders.
  projectMove: (state, moved) => {
    const group: UnitState[] = [];
    for (const id of [moved.unit, ...moved.with]) {
      const u = state.units[id];
      if (u !== undefined) group.push(u);
    }
    return uncoveredByMove(state, group, moved.path).map((u) => revealedEvent(u, moved.path[moved.path.length - 1]!, MOVED));
  },
  afterMove: (h) => (ctx, moved, resume) => {
    if (resume !== undefined) return;
    const group = [moved.unit, ...moved.with].map((id) => ctx.state.units[id]).filter((u): u is UnitState => u !== undefined && u.loc.at === 'hex');
    const lead = group[0];
    if (lead === undefined || lead.loc.at !== 'hex') return;
    const board = boardOf(ctx.state.scenario);
    const end = board.grid.indexOf(lead.loc.hex);
    // GT-6C.4: those whose zone stopped it unmask, also where that zone began over a hex it could not stop in.
    const stops = moved.zocAt === undefined || moved.zocAt === lead.loc.hex ? [end] : [end, board.grid.indexOf(moved.zocAt)];
    for (const e of unmaskedAtEnd(ctx.state, h, lead, stops)) reveal(ctx, e, 'unmasked to stop an aircraft (GT-6C.4)');
    for (const u of uncoveredByMove(ctx.state, group, moved.path)) reveal(ctx, ctx.state.units[u.id]!, MOVED);
    // The crew counts only on a drive: a move stopped before its first step enters no hex, and
    // would let a FAV unloaded next to a "?" (crew hidden) uncover it by merely being ordered.
    uncoverNear(ctx, group, lead.loc.hex, moved.path.length > 1);
  },
  afterUnload: () => (ctx, info, resume) => {
    const u = ctx.state.units[info.unit];
    if (resume !== undefined || u === undefined || u.loc.at !== 'hex' || u.loc.hex !== info.hex) return;
    uncoverNear(ctx, [u], info.hex);
  },
  odds: {
    // GT-6L.4: forced to retreat, the defending stack is uncovered (before it moves off).
    applyResult: (ctx, attack, result) => {
      const spec = table(ctx.state).results[result];
      if (spec?.side === 'defender' && spec.effect === 'retreat') uncoverRetreating(ctx, standingAt(ctx.state, attack.targetHex, attack.defender.unit.side));
      return false;
    },
  },
};
