import { z } from 'zod';
import { GameState, UnitState } from '../../../model/state';
import { UnitType } from '../../../model/scenario';
import { Board, boardOf, isOnMap } from '../../../engine/board';
import { Json } from '../../../model/json';
import { OrderHandler, ResolveContext, Resume } from '../../../engine/kit/types';
import { isViolation, labelSchema, moveFlagProblems, ownUnit, unitIdSchema } from '../../../engine/orders/common';
import { allUnits, cargoOf, mediumOf, standingNextTo, typeOf } from '../../../engine/queries';
import { stackProblem, stackTypesAt } from '../../../engine/stacking';
import { canStepInto, cargoProblem, loadingPlaceProblem } from '../../../engine/transport';
import { violation } from '../../../engine/violation';
import { visibilityFor } from '../../../engine/visibility';
import { SideId, UnitOptions, Violation } from '../../../engine/types';
import { neighbourHexes } from '../air-queries';
import { CombinedHooks, CoreHooks } from '../feature';
import { GatorsExt } from '../ext';
import { enemyWithin } from '../ground';
import { groundData } from '../ground-data';
import { closedToPlacing, isShip, tagged } from '../queries';
import { cancel } from '../orders/wrap';
import { moduleOn } from '../data';
import { squadsFromPool } from './setup-p1';
import { AIRFIELDS_MODULE, stopped } from './airfields';
import { uncoverNextToPlaced } from './camouflage';
import { resumeTrap, springTrap } from './debris-trap';
import { stageProxy } from '../stage-proxy';

/**
 * Splitting a rifle platoon on land, instead of moving it (GT-6J, Q-GT-25):
 * three squads come from the pool, the platoon counter goes to the split box
 * (GT-4.13, GT-6J.4). One squad stays in the platoon's hex; the other two go
 * into adjacent hexes or into transports standing there — not next to the
 * enemy, unless the platoon is surrounded (every adjacent hex impassable for a
 * squad, occupied, or in an enemy ZOC; a "?" counts as exerting one). None of
 * them moves on this phase; all may attack.
 */
const placeSchema = z.union([z.strictObject({ hex: labelSchema }), z.strictObject({ carrier: unitIdSchema })]);
export const splitOnLandSchema = z.strictObject({ kind: z.literal('split'), platoon: unitIdSchema, to: z.array(placeSchema).length(2) });
export type SplitOnLandOrder = z.infer<typeof splitOnLandSchema>;
type Place = z.infer<typeof placeSchema>;

function surrounded(state: GameState, h: CombinedHooks, side: SideId, squad: UnitType, at: number): boolean {
  const board = boardOf(state.scenario);
  const occupied = new Set(allUnits(state).flatMap((u) => (u.loc.at === 'hex' ? [board.grid.indexOf(u.loc.hex)] : [])));
  const zoc = (n: number) =>
    allUnits(state).some(
      (e) =>
        e.side !== side &&
        e.loc.at === 'hex' &&
        board.grid.distance(board.grid.indexOf(e.loc.hex), n) === 1 &&
        (e.hidden !== undefined || h.move.exertsZoc!(state, e, squad, mediumOf(board, squad, n), side)),
    );
  return board.grid.neighbours.slice(at * 6, at * 6 + 6).every((n, d) => !isOnMap(board, n) || !canStepInto(board, squad, at, d, n) || occupied.has(n) || zoc(n));
}

function placeHex(state: GameState, p: Place): string | null {
  if ('hex' in p) return p.hex;
  const c = state.units[p.carrier];
  return c?.loc.at === 'hex' ? c.loc.hex : null;
}

/** What a split's places are checked against: the same for every pair of places the platoon might choose. */
interface SplitFrom {
  readonly p: UnitState;
  readonly squads: readonly string[];
  readonly squad: UnitType;
  readonly at: number;
  readonly home: string;
  /** Surrounded: its squads may go next to the enemy (GT-6J.2). */
  readonly free: boolean;
}

function checkSplit(state: GameState, h: CombinedHooks, side: SideId, o: SplitOnLandOrder, i: number): Violation[] {
  const from = splitFrom(state, h, side, o.platoon, i);
  return Array.isArray(from) ? from : checkPlaces(state, h, side, from, o.to, i);
}

/** The platoon's part of checkSplit, which options() reads once for all the pairs of places it tries. */
function splitFrom(state: GameState, h: CombinedHooks, side: SideId, platoon: string, i: number): SplitFrom | Violation[] {
  const p = ownUnit(state, side, platoon, i);
  if (isViolation(p)) return [p];
  if (!tagged(state, p, ...groundData(state.scenario).squads.splitTags)) return [violation('GT-6J.4', 'squads/not_splittable', `only Rifle Platoons split into squads (${p.id})`, i)];
  const board = boardOf(state.scenario);
  if (p.loc.at !== 'hex' || mediumOf(board, typeOf(state, p), board.grid.indexOf(p.loc.hex)) !== 'land') return [violation('GT-6J.1', 'squads/not_on_land', `${p.id} may be split only standing on land`, i)];
  const flags = [...moveFlagProblems(state, p, i), ...[h.moveProblem(state, p, i)].filter((v): v is Violation => v !== null)];
  if (flags.length > 0) return flags;
  const squads = squadsFromPool(state, side, 'land');
  if (squads.length < 3) return [violation('GT-4.13', 'squads/no_squads', 'no squads are left in the pool', i)];
  const squad = typeOf(state, state.units[squads[0]!]!);
  const at = board.grid.indexOf(p.loc.hex);
  return { p, squads, squad, at, home: p.loc.hex, free: surrounded(state, h, side, squad, at) };
}

function checkPlaces(state: GameState, h: CoreHooks, side: SideId, { p, squads, squad, at, home, free }: SplitFrom, to: readonly Place[], i: number): Violation[] {
  const board = boardOf(state.scenario);
  const aboard = new Map<string, UnitState[]>();
  const standing = new Map<number, number>([[at, 1]]);
  for (const [k, place] of to.entries()) {
    const hex = placeHex(state, place);
    const j = hex === null ? -1 : board.grid.indexOf(hex);
    if (j < 0 || board.grid.distance(j, at) !== 1) return [violation('GT-6J.2', 'squads/not_adjacent', `squad ${k + 1} must go next to ${home}`, i)];
    if (!free && enemyWithin(state, side, j, 1)) return [violation('GT-6J.2', 'squads/next_to_enemy', `${hex} is next to the enemy and ${p.id} is not surrounded`, i)];
    if ('hex' in place) {
      // A squad steps there: off a bridge only along the road, onto a bridge along it (GT-3.14).
      if (!canStepInto(board, squad, at, board.grid.directionTo(at, j), j)) return [violation('GT-6J.2', 'squads/terrain', `a squad cannot stand in ${hex}`, i)];
      if (enemyWithin(state, side, j, 0)) return [violation('GT-6J.2', 'squads/enemy_hex', `${hex} is held by the enemy`, i)];
      // The hexes closed to its move, as to an unload: a bridge Debris destroyed (GT-6Q.8, Q-GT-22).
      const closed = closedToPlacing(h.move, state, state.units[squads[k + 1]!]!, place.hex);
      if (closed !== null) return [violation(closed.ruleId, closed.code, closed.message, i)];
      standing.set(j, (standing.get(j) ?? 0) + 1);
      continue;
    }
    const c = ownUnit(state, side, place.carrier, i);
    if (isViolation(c)) return [c];
    if (isShip(state, c)) return [violation('Q-GT-16', 'transport/ship_recovery', `units go aboard ${c.id} only by recovery`, i)];
    const where = loadingPlaceProblem(state, c, 'load');
    if (where !== null) return [violation(where.ruleId, where.code, where.message, i)];
    const cargo = [...(aboard.get(c.id) ?? cargoOf(state, c.id)), state.units[squads[k + 1]!]!];
    const cp = cargoProblem(state, c, cargo);
    if (cp !== null) return [violation(cp.ruleId, cp.code, cp.message, i)];
    aboard.set(c.id, cargo);
  }
  return stacking(state, board, side, p, squad, standing, i);
}

function stacking(state: GameState, board: Board, side: SideId, p: UnitState, squad: UnitType, standing: ReadonlyMap<number, number>, i: number): Violation[] {
  for (const [j, n] of standing) {
    const label = board.grid.label(j);
    const sp = stackProblem(state, board, side, j, [...stackTypesAt(state, side, label, new Set([p.id])), ...Array<UnitType>(n).fill(squad)]);
    if (sp !== null) return [violation(sp.ruleId, 'squads/stacking', `${sp.message}: ${label}`, i)];
  }
  return [];
}

/**
 * The splits a platoon may make now, each accepted by checkSplit: every unordered pair (one place
 * twice too) of the hexes next to it and of the own transports standing there, the platoon's part
 * of the check read once. [a, b] stands for [b, a]: the two squads placed are alike, so which pool
 * squad goes where is no choice worth an option. Ships are left out (squads go aboard them only by recovery, Q-GT-16), and so are units
 * that carry nothing: no check could accept them. Six hexes and the few transports stacking lets
 * stand in them bound the pairs.
 */
function splitOptions(state: GameState, h: CombinedHooks, side: SideId, unitId: string): Partial<UnitOptions> {
  const p = state.units[unitId];
  if (p?.loc.at !== 'hex' || !tagged(state, p, ...groundData(state.scenario).squads.splitTags)) return {};
  const from = splitFrom(state, h, side, unitId, 0);
  if (Array.isArray(from)) return {};
  const grid = boardOf(state.scenario).grid;
  const carriers = standingNextTo(state, from.at).filter((c) => c.side === side && typeOf(state, c).transport !== undefined && !isShip(state, c));
  const places: Place[] = [...neighbourHexes(state, from.at).map((n) => ({ hex: grid.label(n) })), ...carriers.map((c) => ({ carrier: c.id }))];
  const other = places
    .flatMap((a, k) => places.slice(k).map((b) => [a, b]))
    .filter((to) => checkPlaces(state, h, side, from, to, 0).length === 0)
    .map((to) => ({ action: 'split', detail: { to } }));
  return other.length > 0 ? { other } : {};
}

type SplitSquad = { readonly unit: string; readonly hex: string } | { readonly unit: string };

/** The event of a split: the squads placed in hexes (the staying one first); those boarding a transport follow as UnitLoaded. */
function splitEvent(state: GameState, side: SideId, o: SplitOnLandOrder): { side: SideId; platoon: string; hex: string; squads: SplitSquad[] } {
  const p = state.units[o.platoon]!;
  const [stay, ...rest] = squadsFromPool(state, side, 'land');
  const hex = p.loc.at === 'hex' ? p.loc.hex : '';
  const squads: SplitSquad[] = [{ unit: stay!, hex }, ...o.to.map((place, k): SplitSquad => ('hex' in place ? { unit: rest[k]!, hex: place.hex } : { unit: rest[k]! }))];
  return { side, platoon: o.platoon, hex, squads };
}

export function splitOnLandOrder(h: CombinedHooks): OrderHandler<GatorsExt, SplitOnLandOrder> {
  const loads = (state: GameState, side: SideId, o: SplitOnLandOrder) => {
    const rest = squadsFromPool(state, side, 'land').slice(1);
    return o.to.flatMap((place, k) => ('carrier' in place ? [{ unit: rest[k]!, carrier: place.carrier }] : []));
  };
  return {
    kind: 'split',
    schema: splitOnLandSchema,
    validate: (state, side, o, i) => checkSplit(state, h, side, o, i),
    options: (state, side, unitId) => splitOptions(state, h, side, unitId),
    // Options also pass the movement phase's whole check (GT-6B.3: no squad boards an aircraft that must return, air-ops.ts).
    optionOrder: (unit, x) => (x.action === 'split' ? { kind: 'split', platoon: unit, to: (x.detail as { to: SplitOnLandOrder['to'] }).to } : null),
    project: (state, side, o) => [
      { type: 'PlatoonSplitOnLand', data: splitEvent(state, side, o) },
      ...loads(state, side, o).map((l) => ({ type: 'UnitLoaded', data: l })),
    ],
    resolve: (ctx, o, i, resume) => {
      if (resume !== undefined) return resumeSplitTraps(ctx, h, resume);
      const v = checkSplit(ctx.state, h, ctx.side, o, i);
      if (v.length > 0) return cancel(ctx, i, 'split', v[0]!);
      const boarding = loads(ctx.state, ctx.side, o);
      const ev = splitEvent(ctx.state, ctx.side, o);
      ctx.emit({ type: 'PlatoonSplitOnLand', data: ev, visibility: { to: 'all' } });
      for (const l of boarding) {
        const after = { ...ctx.state, units: { ...ctx.state.units, [l.unit]: { ...ctx.state.units[l.unit]!, loc: { at: 'carried' as const, by: l.carrier } } } };
        ctx.emit({
          type: 'UnitLoaded',
          data: l,
          visibility: visibilityFor(after, [after.units[l.unit]!], () => ({ type: 'MarkerLoaded', data: { hex: placeHex(ctx.state, { carrier: l.carrier }) } })),
        });
      }
      // The squad that stays has entered nothing; the two placed next to it have, and stop there: they
      // capture an airfield (GT-6P.1), uncover a "?" next to them (GT-6L.2, CAMO-01) and may spring a
      // trap (GT-6Q.5), in the order a move's end does them (features.ts).
      const placed = ev.squads.slice(1).filter((s): s is Placed => 'hex' in s);
      if (moduleOn(ctx.state.scenario, AIRFIELDS_MODULE)) for (const s of placed) stopped(ctx, ctx.state.units[s.unit]!);
      uncoverNextToPlaced(ctx, placed);
      trapsFrom(ctx, h, placed, 0);
    },
  };
}

type Placed = { readonly unit: string; readonly hex: string };

/** Where a split's traps stopped for the owner (Q-GT-35): the squads placed, and which one's trap asked. */
interface TrapsStage {
  readonly kind: 'split-traps';
  readonly placed: readonly Placed[];
  readonly k: number;
  readonly s: Json;
}

/** The stage a split's k-th trap asks with: its own stage `s`, wrapped. */
const trapsStage = (placed: readonly Placed[], k: number) => (s: Json): Json => ({ kind: 'split-traps', placed: placed.map((x) => ({ ...x })), k, s });

/** The traps of the squads placed, from the k-th: one may stop for its owner's choice, and the rest wait. */
function trapsFrom(ctx: ResolveContext<GatorsExt>, h: CombinedHooks, placed: readonly Placed[], from: number): void {
  for (let k = from; k < placed.length; k++) {
    const p = stageProxy(ctx, trapsStage(placed, k));
    springTrap(p, [placed[k]!.unit], placed[k]!.hex, { ownerChoices: true, blocked: h.odds.retreatBlocked });
    if (p.suspended) return;
  }
}

function resumeSplitTraps(ctx: ResolveContext<GatorsExt>, h: CombinedHooks, resume: Resume): void {
  const st = resume.stage as unknown as TrapsStage;
  const here = st.placed[st.k]!;
  const p = stageProxy(ctx, trapsStage(st.placed, st.k));
  resumeTrap(p, { stage: st.s, answer: resume.answer }, [here.unit], here.hex, h.odds.retreatBlocked);
  if (!p.suspended) trapsFrom(ctx, h, st.placed, st.k + 1);
}
