import { z } from 'zod';
import { GameState, UnitState } from '../../../model/state';
import { boardOf } from '../../../engine/board';
import { OrderHandler } from '../../../engine/kit/types';
import { isViolation, ownUnit, unitIdSchema } from '../../../engine/orders/common';
import { allUnits, flag, hexOf, typeOf, unitsAt } from '../../../engine/queries';
import { stackProblem, stackTypesAt } from '../../../engine/stacking';
import { violation } from '../../../engine/violation';
import { SideId, UnitOptions, Violation } from '../../../engine/types';
import { GatorsFeature } from '../feature';
import { GatorsExt, GState } from '../ext';
import { groundData } from '../ground-data';
import { idOrder, tagged } from '../queries';
import { cancel } from '../orders/wrap';
import { RETURNED, split, splitOrder } from './setup-p1';
import { splitOnLandOrder } from './squad-split';

/**
 * Squads (GT-2.11, GT-6H, GT-6I, GT-6J, GT-4.13):
 * - a squad attacks only within 3 hexes of a friendly command unit standing
 *   on the map (Q-GT-03: Hmmwv/Cmd, AAV/Cmd, the command UH-1N; tag
 *   `command`); it may always move and defend (GT-6H.2);
 * - three squads standing in one hex merge into a platoon taken from the
 *   split box — any three squads, any platoon there (GT-6I.2, Q-GT-24); the
 *   squads go back to the pool, the platoon may attack but not move this turn
 *   (GT-6I.1). A destroyed platoon is never in the box, so it is not rebuilt;
 * - splitting on land is squad-split.ts. Squads exist only as the squads of
 *   platoons in the split box: they leave the pool only by a split (here or at
 *   setup) and return to it only by a merge (GT-4.13).
 */
export const mergeSchema = z.strictObject({ kind: z.literal('merge'), squads: z.array(unitIdSchema).length(3), platoon: unitIdSchema.optional() });
export type MergeOrder = z.infer<typeof mergeSchema>;

function splitBox(state: GameState, side: SideId): UnitState[] {
  const box = groundData(state.scenario).squads.splitBox;
  return allUnits(state)
    .filter((u) => u.side === side && u.loc.at === 'box' && u.loc.box === box)
    .sort((a, b) => idOrder(a.id, b.id));
}

/** The attr of a platoon P2 saw go into the split box (split on land), not one P1's sealed setup put there. */
const SPLIT_ON_LAND = 'splitOnLand';

/**
 * The platoon a merge takes. With none named, one P2 saw go into the box, lowest-numbered first,
 * so that the counter coming out does not tell which platoons the sealed setup split (Q-GT-01).
 */
function platoonFor(state: GameState, side: SideId, o: MergeOrder, i: number): UnitState | Violation {
  if (o.platoon === undefined) {
    const box = splitBox(state, side);
    return box.find((p) => p.attrs[SPLIT_ON_LAND] === true) ?? box[0] ?? violation('Q-GT-24', 'squads/no_platoon', 'no platoon counter is in the split box', i);
  }
  const p = state.units[o.platoon];
  if (p?.side === side && p.loc.at === 'eliminated') return violation('GT-4.13', 'squads/platoon_destroyed', `${o.platoon} was destroyed; destroyed platoons are not rebuilt`, i);
  const own = ownUnit(state, side, o.platoon, i);
  if (isViolation(own)) return own;
  if (own.loc.at !== 'box' || own.loc.box !== groundData(state.scenario).squads.splitBox) return violation('Q-GT-24', 'squads/not_in_split_box', `${o.platoon} is not in the split box`, i);
  return own;
}

function checkMerge(state: GameState, side: SideId, o: MergeOrder, i: number): Violation[] {
  const tags = groundData(state.scenario).squads.squadTags;
  if (new Set(o.squads).size !== 3) return [violation('GT-6I.1', 'squads/duplicate', 'three different squads merge', i)];
  const squads: UnitState[] = [];
  for (const id of o.squads) {
    const u = ownUnit(state, side, id, i);
    if (isViolation(u)) return [u];
    if (!tagged(state, u, ...tags)) return [violation('GT-6I.2', 'squads/not_a_squad', `${id} is not a squad`, i)];
    squads.push(u);
  }
  const hexes = new Set(squads.map((u) => (u.loc.at === 'hex' ? u.loc.hex : '')));
  const hex = [...hexes][0]!;
  if (hexes.size !== 1 || hex === '') return [violation('GT-6I.1', 'squads/not_together', 'the three squads must stand in one hex', i)];
  const p = platoonFor(state, side, o, i);
  if (isViolation(p)) return [p];
  const board = boardOf(state.scenario);
  const sp = stackProblem(state, board, side, board.grid.indexOf(hex), [...stackTypesAt(state, side, hex, new Set(o.squads)), typeOf(state, p)]);
  return sp === null ? [] : [violation(sp.ruleId, 'squads/stacking', `${sp.message}: ${hex}`, i)];
}

function mergeData(state: GameState, side: SideId, o: MergeOrder) {
  const p = platoonFor(state, side, o, 0) as UnitState;
  const hex = state.units[o.squads[0]!]!.loc;
  return { side, squads: o.squads, platoon: p.id, hex: hex.at === 'hex' ? hex.hex : '' };
}

/**
 * The merges a squad may make now, each accepted by checkMerge: with every two other own squads
 * in its hex, into each platoon of the split box (Q-GT-24: any of them, the owner's choice, so it
 * is named rather than left to the first in the box). Stacking bounds the squads in a hex.
 */
function mergeOptions(state: GameState, side: SideId, unitId: string): Partial<UnitOptions> {
  const u = state.units[unitId];
  const tags = groundData(state.scenario).squads.squadTags;
  if (u?.loc.at !== 'hex' || !tagged(state, u, ...tags)) return {};
  const hex = u.loc.hex;
  const mates = unitsAt(state, hex)
    .filter((x) => x.side === side && x.id !== unitId && tagged(state, x, ...tags))
    .map((x) => x.id)
    .sort(idOrder);
  const box = splitBox(state, side);
  const other = mates
    .flatMap((a, k) => mates.slice(k + 1).flatMap((b) => box.map((p) => ({ with: [a, b], platoon: p.id }))))
    .filter((d) => checkMerge(state, side, { kind: 'merge', squads: [unitId, ...d.with], platoon: d.platoon }, 0).length === 0)
    .map((detail) => ({ action: 'merge', detail }));
  return other.length > 0 ? { other } : {};
}

function mergeOrder(): OrderHandler<GatorsExt, MergeOrder> {
  return {
    kind: 'merge',
    schema: mergeSchema,
    validate: checkMerge,
    options: mergeOptions,
    optionOrder: (unit, x) => {
      if (x.action !== 'merge') return null;
      const d = x.detail as { with: string[]; platoon: string };
      return { kind: 'merge', squads: [unit, ...d.with], platoon: d.platoon };
    },
    project: (state, side, o) => [{ type: 'SquadsMerged', data: mergeData(state, side, o) }],
    resolve: (ctx, o, i) => {
      const v = checkMerge(ctx.state, ctx.side, o, i);
      if (v.length > 0) return cancel(ctx, i, 'merge', v[0]!);
      ctx.emit({ type: 'SquadsMerged', data: mergeData(ctx.state, ctx.side, o), visibility: { to: 'all' } });
    },
  };
}

function merged(state: GState, data: unknown): GState {
  const d = data as { squads: string[]; platoon: string; hex: string };
  // The pool lies under a hidden marker (oob.json), so the enemy does not count the squads still aboard.
  const { pool, poolMarker } = groundData(state.scenario).squads;
  const units: Record<string, UnitState> = { ...state.units };
  for (const id of d.squads) {
    const u = units[id]!;
    units[id] = { ...u, loc: { at: 'box', box: pool }, hidden: { marker: poolMarker }, flags: {}, attrs: { ...u.attrs, [RETURNED]: true } };
  }
  const { hidden: _h, ...p } = units[d.platoon]!;
  const { [SPLIT_ON_LAND]: _s, ...attrs } = p.attrs;
  // The platoon is its squads: what any of them did this turn (loaded, GT-6G.1; unloaded) it has done.
  const flags = Object.assign({}, ...d.squads.map((id) => state.units[id]!.flags), { moved: true, [MERGED]: true }) as UnitState['flags'];
  units[d.platoon] = { ...p, loc: { at: 'hex', hex: d.hex }, flags, attrs };
  return { ...state, units };
}

function splitOnLand(state: GState, data: unknown): GState {
  const d = data as { platoon: string; squads: ({ unit: string; hex: string } | { unit: string })[] };
  const box = groundData(state.scenario).squads.splitBox;
  const units: Record<string, UnitState> = { ...state.units };
  const p = units[d.platoon]!;
  units[d.platoon] = { ...p, loc: { at: 'box', box }, hidden: { marker: box }, attrs: { ...p.attrs, [SPLIT_ON_LAND]: true } };
  for (const s of d.squads) {
    const { hidden: _h, ...sq } = units[s.unit]!;
    // GT-6J.3, Q-GT-25: none of the three moves on; a boarding squad is loaded by the UnitLoaded that follows.
    units[s.unit] = 'hex' in s ? { ...sq, loc: { at: 'hex', hex: s.hex }, flags: { ...sq.flags, moved: true, [SPLIT]: true } } : { ...sq, flags: { ...sq.flags, [SPLIT]: true } };
  }
  return { ...state, units };
}

/** Flags of the counters that may not move this turn: a platoon merged (GT-6I.1), the squads of a split (GT-6J.3, Q-GT-25). */
const MERGED = 'merged';
const SPLIT = 'split';

/**
 * Why a unit that may not move this turn, having been merged or split, may not be set down elsewhere by a
 * transport that took it up (or took it by the split) either: its unload would move it on. Null otherwise.
 */
export function staysProblem(state: GameState, u: UnitState, i: number): Violation | null {
  if (flag(u, MERGED)) return violation('GT-6I.1', 'squads/merged_stays', `${u.id} was merged this turn and may not move: it is not set down elsewhere this turn`, i);
  if (flag(u, SPLIT)) return violation('Q-GT-25', 'squads/split_stays', `${u.id} was placed by a split this turn and moves no further: it is not set down elsewhere this turn`, i);
  return null;
}

/** GT-6H.2: why a squad may not attack here (no command unit within range), or null. */
function commandProblem(state: GameState, u: UnitState, i: number): Violation | null {
  const d = groundData(state.scenario).squads;
  // A squad firing from aboard a landing craft (GT-6G.5) is counted from the craft's hex.
  const hex = hexOf(state, u);
  if (!tagged(state, u, ...d.squadTags) || hex === null) return null;
  const board = boardOf(state.scenario);
  const at = board.grid.indexOf(hex);
  const near = allUnits(state).some(
    (c) => c.side === u.side && c.loc.at === 'hex' && tagged(state, c, ...d.commandTags) && board.grid.distance(board.grid.indexOf(c.loc.hex), at) <= d.commandRange,
  );
  return near ? null : violation(d.ruleId, 'combat/no_command', `${u.id} is more than ${d.commandRange} hexes from a command unit`, i);
}

export const squads: GatorsFeature = {
  id: 'squads',
  rules: ['GT-2.11', 'GT-6H.2', 'Q-GT-03', 'GT-6I.1', 'GT-6I.2', 'Q-GT-24', 'GT-6J.1', 'GT-6J.2', 'GT-6J.3', 'GT-6J.4', 'Q-GT-25'],
  // The setup split (GT-4.13) is setup-p1.ts code, but belongs to this module.
  phases: { setup: { orders: () => [splitOrder()] }, movement: { orders: (h) => [mergeOrder(), splitOnLandOrder(h)] } },
  odds: { attackerProblem: commandProblem },
  events: {
    PlatoonSplit: (s, e) => split(s, e.data),
    SquadsMerged: (s, e) => merged(s, e.data),
    PlatoonSplitOnLand: (s, e) => splitOnLand(s, e.data),
  },
};

