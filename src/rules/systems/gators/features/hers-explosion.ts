import { Json } from '../../../model/json';
import { OddsCombat } from '../../../model/scenario';
import { GameState, UnitState } from '../../../model/state';
import { boardOf } from '../../../engine/board';
import { eliminate, retreatOrEliminate, stackAt } from '../../../engine/combat/apply';
import { RetreatAsk, retreatByOwner } from '../../../engine/combat/owner-choice';
import { RetreatBlocked } from '../../../engine/combat/retreat';
import { table } from '../../../engine/combat/attack-checks';
import { AttackSetup } from '../../../engine/combat/odds-step';
import { immobileAt } from '../../../engine/combat/immobile';
import { readTable } from '../../../engine/combat/odds';
import { ResolveContext } from '../../../engine/kit/types';
import { allUnits, everythingAboard, typeOf } from '../../../engine/queries';
import { concealedFrom, visibilityFor } from '../../../engine/visibility';
import { stackCapacity } from '../../../engine/stacking';
import { airOps } from '../air-data';
import { hasAnyTag, isLanded } from '../air-queries';
import { idOrder, publicOf } from '../queries';
import { moduleOn } from '../data';
import { MEDICS_MODULE, medicsResult } from './medics';
import { uncoverRetreating } from './camouflage';
import { attackedOutsideOdds } from './debris-work';

/**
 * GT-6N.8, Q-GT-29: a destroyed HERS explodes. It is destroyed with the
 * CH-53E that holds it (cargo is never attacked itself, GT-7A.5), so this is
 * the odds step's applyResult: when a defender result would remove a stack
 * carrying a HERS, the result is carried out and the HERS then makes one
 * column-2 attack on every unit next to it, friend or foe, one die each;
 * results against the HERS side do not exist (it is gone). The units under a
 * marker next to it are attacked as one stack, with as many secret dice as
 * their hex could hold, whatever the marker hides (blastConcealed).
 *
 * With `ownerChoices` (an attack that can stop and go on), each owner chooses
 * its retreats as after any attack (Q-GT-35): the carrier's stack, and every
 * counter the blast makes retreat. The blast then stops for the answer, and
 * resumeExplosion goes on with the next counter in its order.
 */
export function explodeIfHers(
  ctx: ResolveContext,
  attack: AttackSetup,
  result: string,
  opts: { readonly ownerChoices: boolean; readonly retreatBlocked?: RetreatBlocked | undefined },
): boolean | 'suspended' {
  const state = ctx.state;
  const def = attack.defender.unit;
  const hers = everythingAboard(state, def.id).find((u) => hasAnyTag(state, u, airOps(state.scenario).hersTags));
  const t = table(state);
  const spec = t.results[result];
  if (hers === undefined || spec === undefined || spec.side !== 'defender' || spec.effect === 'none') return false;
  const grid = boardOf(state.scenario).grid;
  if (spec.effect === 'eliminate') eliminate(ctx, def, `attack on ${attack.targetHex}`);
  else {
    const r: RetreatAsk = {
      target: attack.targetHex,
      side: def.side,
      hexes: spec.hexes ?? 1,
      awayFrom: attack.attackers.map((a) => grid.label(a.hex)),
      mayEnterEnemyZoc: t.retreat?.mayEnterEnemyZoc ?? true,
      cause: `attack on ${attack.targetHex}`,
    };
    // The owner is asked only between two paths or more: a stack that got away did not explode.
    if (opts.ownerChoices) {
      if (!retreatByOwner(ctx, r, undefined, opts.retreatBlocked)) return 'suspended';
    } else retreatOrEliminate(ctx, stackAt(state, r.target, r.side), r.hexes, r.awayFrom, r.mayEnterEnemyZoc, r.cause, opts.retreatBlocked);
    if (ctx.state.units[def.id]?.loc.at !== 'eliminated') return true;
  }
  ctx.emit(publicOf('HersExploded', { hers: hers.id, hex: attack.targetHex }));
  return blast(ctx, attack.targetHex, opts.ownerChoices, null, opts.retreatBlocked) ? 'suspended' : true;
}

/** Where a blast stopped for a retreat: its hex, and the last counter it attacked (one in sight of both sides). */
interface BlastStage {
  readonly kind: 'hers-explosion';
  readonly hex: string;
  readonly after: { readonly hex: string; readonly unit: string };
}

/** OddsHooks.resumeResult: the blast goes on after the counter whose retreat its owner chose. */
export function resumeExplosion(ctx: ResolveContext, then: Json, blocked?: RetreatBlocked): boolean | undefined {
  const stage = then as unknown as BlastStage;
  if (stage.kind !== 'hers-explosion') return undefined;
  return blast(ctx, stage.hex, true, stage.after, blocked);
}

/** What the blast attacks next to the HERS: a counter in sight, or a side's counters under a marker there, together. */
type Target = { readonly hex: string; readonly unit: UnitState } | { readonly hex: string; readonly concealed: readonly UnitState[] };

/**
 * One fixed-column attack per unit next to `hex`, in a stable order (by hex, then id), from the
 * counter after `after`. Returns whether it stopped for an owner's retreat. The counters a side
 * hides under a marker are attacked together, after those in sight in their hex (blastConcealed).
 */
function blast(ctx: ResolveContext, hex: string, ownerChoices: boolean, after: BlastStage['after'] | null, blocked: RetreatBlocked | undefined): boolean {
  const t = table(ctx.state);
  const label = airOps(ctx.state.scenario).explosionColumn;
  const column = t.columns.findIndex((c) => c.label === label);
  if (column < 0) throw new Error(`rules.json combat.airOps.explosionColumn "${label}" is not a column of the combat table`);
  for (const target of targetsNext(ctx.state, hex).filter((x) => after === null || compareKeys(keyOf(x), [after.hex, 0, after.unit]) > 0)) {
    if ('concealed' in target) {
      blastConcealed(ctx, hex, target.hex, target.concealed, column, blocked);
      continue;
    }
    const u = ctx.state.units[target.unit.id];
    if (u === undefined || u.loc.at !== 'hex') continue;
    const roll = ctx.dice.roll(t.die, `HERS explosion (GT-6N.8) against ${target.hex}`);
    const result = explosionResult(ctx.state, t, u, readTable(t, column, 0, roll).result);
    const data = { attackers: [], target: target.hex, defender: u.id, column: label, roll, result, attackerResultIgnoredFor: [], cause: 'hers-explosion', ruleIds: ['GT-6N.8'] };
    ctx.emit({ type: 'AttackResolved', data, visibility: { to: 'all' } });
    attackedOutsideOdds(ctx, [u]);
    const stage = { kind: 'hers-explosion', hex, after: { hex: target.hex, unit: u.id } } satisfies BlastStage;
    if (!applyBlastResult(ctx, u, result, hex, ownerChoices ? stage : null, blocked)) return true;
  }
  return false;
}

/**
 * The blast against a side's counters under a marker in `at` (Q-GT-29): each event and die takes
 * a version every side counts, so the stack takes as many dice as its hex could hold by the
 * stacking data (stackCapacity), secret to the sides that may not see under the marker, the first
 * for its counters in id order and the rest stand-ins that decide nothing, and one attack event,
 * read by those sides as an attack on the hex (a stack over that bound, which the rules never
 * let arise, still takes a die per counter). What the results do (a counter destroyed or
 * retreating) shows, as after any attack on a marker.
 */
function blastConcealed(ctx: ResolveContext, from: string, at: string, units: readonly UnitState[], column: number, blocked: RetreatBlocked | undefined): void {
  const state = ctx.state;
  const t = table(state);
  const board = boardOf(state.scenario);
  const knowing = Object.keys(state.sides).filter((s) => units.every((u) => !concealedFrom(state, u).includes(s)));
  const dice = Math.max(units.length, stackCapacity(state, board, units[0]!.side, board.grid.indexOf(at)));
  const rolls = Array.from({ length: dice }, (_, k) =>
    ctx.dice.roll(t.die, k < units.length ? `HERS explosion (GT-6N.8) against ${at}` : `HERS explosion (GT-6N.8, a stand-in under the marker) against ${at}`, knowing),
  );
  const defenders = units.map((u, k) => ({ unit: u.id, roll: rolls[k]!, result: explosionResult(state, t, u, readTable(t, column, 0, rolls[k]!).result) }));
  const data = { attackers: [], target: at, column: t.columns[column]!.label, defenders, standIns: rolls.slice(units.length), attackerResultIgnoredFor: [], cause: 'hers-explosion', ruleIds: ['GT-6N.8'] };
  ctx.emit({ type: 'AttackResolved', data, visibility: visibilityFor(state, units, () => ({ type: 'AttackResolved', data: { attackers: [], target: at, cause: 'hers-explosion' } })) });
  attackedOutsideOdds(ctx, units);
  for (const d of defenders) {
    const u = ctx.state.units[d.unit];
    if (u !== undefined && u.loc.at === 'hex') applyBlastResult(ctx, u, d.result, from, null, blocked);
  }
}

/**
 * Carries out the blast's result on one counter; its retreat goes away from the HERS, and asks
 * its owner when `ask` says where the blast goes on (a stack under a marker is never asked).
 * Returns false when it stopped for the answer.
 */
function applyBlastResult(ctx: ResolveContext, u: UnitState, result: string, from: string, ask: Json | null, blocked: RetreatBlocked | undefined): boolean {
  const t = table(ctx.state);
  const spec = t.results[result];
  if (spec?.side !== 'defender') return true;
  if (spec.effect === 'eliminate') eliminate(ctx, u, 'HERS explosion');
  if (spec.effect !== 'retreat' || u.loc.at !== 'hex') return true;
  uncoverRetreating(ctx, [u]);
  const r: RetreatAsk = { target: u.loc.hex, side: u.side, hexes: spec.hexes ?? 1, awayFrom: [from], mayEnterEnemyZoc: t.retreat?.mayEnterEnemyZoc ?? true, cause: 'HERS explosion', unit: u.id };
  if (ask !== null) return retreatByOwner(ctx, r, ask, blocked);
  // As it stands now: uncovered, its retreat is read in full.
  retreatOrEliminate(ctx, [ctx.state.units[u.id]!], r.hexes, r.awayFrom, r.mayEnterEnemyZoc, r.cause, blocked);
  return true;
}

/** The counters next to `hex`: those in sight one by one, those a side hides in one hex together. */
function targetsNext(state: GameState, hex: string): Target[] {
  const grid = boardOf(state.scenario).grid;
  const at = grid.indexOf(hex);
  const out: Target[] = [];
  const concealed = new Map<string, UnitState[]>();
  for (const u of allUnits(state)) {
    if (u.loc.at !== 'hex' || grid.distance(grid.indexOf(u.loc.hex), at) !== 1) continue;
    if (concealedFrom(state, u).length === 0) out.push({ hex: u.loc.hex, unit: u });
    else {
      const key = `${u.loc.hex} ${u.side}`;
      concealed.set(key, [...(concealed.get(key) ?? []), u]);
    }
  }
  for (const units of concealed.values()) out.push({ hex: hexLabel(units[0]!), concealed: [...units].sort((a, b) => idOrder(a.id, b.id)) });
  return out.sort((a, b) => compareKeys(keyOf(a), keyOf(b)));
}

/** By hex; in a hex, the counters in sight by id, then the hidden stacks by side. */
function keyOf(x: Target): readonly [string, number, string] {
  return 'unit' in x ? [x.hex, 0, x.unit.id] : [x.hex, 1, x.concealed[0]!.side];
}

function compareKeys(a: readonly [string, number, string], b: readonly [string, number, string]): number {
  if (a[0] !== b[0]) return a[0] < b[0] ? -1 : 1;
  if (a[1] !== b[1]) return a[1] - b[1];
  return a[1] === 0 ? idOrder(a[2], b[2]) : a[2] < b[2] ? -1 : a[2] > b[2] ? 1 : 0;
}

function hexLabel(u: UnitState): string {
  return u.loc.at === 'hex' ? u.loc.hex : '';
}

/**
 * The table's overrides that still apply to a fixed-column attack: defense 0 (GT-7B.5), speed 0
 * with nothing to tow it (GT-7B.6), the Medical Team's D R1 over GT-7B.5 (GT-7M.1: "a combat
 * result against them"; the blast has no Guerrillas among its attackers), landed aircraft (GT-7H.1).
 */
function explosionResult(state: GameState, t: OddsCombat, u: UnitState, result: string): string {
  const type = typeOf(state, u);
  let r = result;
  const immobile = u.loc.at === 'hex' ? immobileAt(state, u, u.loc.hex) : type.speed <= 0;
  for (const o of t.resultOverrides) {
    const applies = (o.when === 'defender-defense-zero' && type.defense <= 0) || (o.when === 'defender-immobile' && immobile);
    if (applies && (o.from.length === 0 || o.from.includes(r))) r = o.result;
  }
  if (moduleOn(state.scenario, MEDICS_MODULE)) r = medicsResult(state, u, [], r);
  const spec = t.results[r];
  if (spec?.side === 'defender' && spec.effect === 'retreat' && isLanded(state, u)) {
    const kill = Object.entries(t.results).find(([, s]) => s.side === 'defender' && s.effect === 'eliminate');
    if (kill !== undefined) r = kill[0];
  }
  return r;
}
