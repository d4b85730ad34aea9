import { Json } from '../../../model/json';
import { OddsCombat } from '../../../model/scenario';
import { GameState, UnitState } from '../../../model/state';
import { boardOf } from '../../../engine/board';
import { eliminate, retreatOrEliminate, stackAt } from '../../../engine/combat/apply';
import { RetreatAsk, retreatByOwner } from '../../../engine/combat/owner-choice';
import { table } from '../../../engine/combat/attack-checks';
import { AttackSetup } from '../../../engine/combat/odds-step';
import { readTable } from '../../../engine/combat/odds';
import { ResolveContext } from '../../../engine/kit/types';
import { allUnits, everythingAboard, typeOf } from '../../../engine/queries';
import { visibilityFor } from '../../../engine/visibility';
import { airOps } from '../air-data';
import { hasAnyTag, isLanded } from '../air-queries';
import { idOrder, publicOf } from '../queries';

/**
 * GT-6N.8, Q-GT-29: a destroyed HERS explodes. It is destroyed with the
 * CH-53E that holds it (cargo is never attacked itself, GT-7A.5), so this is
 * the odds step's applyResult: when a defender result would remove a stack
 * carrying a HERS, the result is carried out and the HERS then makes one
 * column-2 attack on every unit next to it, friend or foe, one die each;
 * results against the HERS side do not exist (it is gone).
 *
 * With `ownerChoices` (an attack that can stop and go on), each owner chooses
 * its retreats as after any attack (Q-GT-35): the carrier's stack, and every
 * counter the blast makes retreat. The blast then stops for the answer, and
 * resumeExplosion goes on with the next counter in its order.
 */
export function explodeIfHers(ctx: ResolveContext, attack: AttackSetup, result: string, opts: { readonly ownerChoices: boolean }): boolean | 'suspended' {
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
      if (!retreatByOwner(ctx, r)) return 'suspended';
    } else retreatOrEliminate(ctx, stackAt(state, r.target, r.side), r.hexes, r.awayFrom, r.mayEnterEnemyZoc, r.cause);
    if (ctx.state.units[def.id]?.loc.at !== 'eliminated') return true;
  }
  ctx.emit(publicOf('HersExploded', { hers: hers.id, hex: attack.targetHex }));
  return blast(ctx, attack.targetHex, opts.ownerChoices, null) ? 'suspended' : true;
}

/** Where a blast stopped for a retreat: its hex, and the last counter it attacked (one in sight of both sides). */
interface BlastStage {
  readonly kind: 'hers-explosion';
  readonly hex: string;
  readonly after: { readonly hex: string; readonly unit: string };
}

/** OddsHooks.resumeResult: the blast goes on after the counter whose retreat its owner chose. */
export function resumeExplosion(ctx: ResolveContext, then: Json): boolean | undefined {
  const stage = then as unknown as BlastStage;
  if (stage.kind !== 'hers-explosion') return undefined;
  return blast(ctx, stage.hex, true, stage.after);
}

/**
 * One fixed-column attack per unit next to `hex`, in a stable order (by hex, then id), from the
 * counter after `after`. Returns whether it stopped for an owner's retreat.
 */
function blast(ctx: ResolveContext, hex: string, ownerChoices: boolean, after: BlastStage['after'] | null): boolean {
  const state = ctx.state;
  const grid = boardOf(state.scenario).grid;
  const t = table(state);
  const label = airOps(state.scenario).explosionColumn;
  const column = t.columns.findIndex((c) => c.label === label);
  if (column < 0) throw new Error(`rules.json combat.airOps.explosionColumn "${label}" is not a column of the combat table`);
  const at = grid.indexOf(hex);
  const victims = allUnits(state)
    .filter((u) => u.loc.at === 'hex' && grid.distance(grid.indexOf(u.loc.hex), at) === 1)
    .filter((u) => after === null || compareVictims(hexLabel(u), u.id, after.hex, after.unit) > 0)
    .sort((a, b) => compareVictims(hexLabel(a), a.id, hexLabel(b), b.id));
  for (const v of victims) {
    const u = ctx.state.units[v.id];
    if (u === undefined || u.loc.at !== 'hex') continue;
    const target = u.loc.hex;
    const roll = ctx.dice.roll(t.die, `HERS explosion (GT-6N.8) against ${target}`);
    const result = explosionResult(ctx.state, t, u, readTable(t, column, 0, roll).result);
    const data = { attackers: [], target, defender: u.id, column: label, roll, result, attackerResultIgnoredFor: [], cause: 'hers-explosion', ruleIds: ['GT-6N.8'] };
    ctx.emit({
      type: 'AttackResolved',
      data,
      visibility: visibilityFor(ctx.state, [u], () => ({ type: 'AttackResolved', data: { attackers: [], target, roll, cause: 'hers-explosion' } })),
    });
    const spec = t.results[result];
    if (spec?.side !== 'defender') continue;
    if (spec.effect === 'eliminate') eliminate(ctx, u, 'HERS explosion');
    if (spec.effect !== 'retreat') continue;
    const r: RetreatAsk = { target, side: u.side, hexes: spec.hexes ?? 1, awayFrom: [hex], mayEnterEnemyZoc: t.retreat?.mayEnterEnemyZoc ?? true, cause: 'HERS explosion', unit: u.id };
    if (!ownerChoices) retreatOrEliminate(ctx, [u], r.hexes, r.awayFrom, r.mayEnterEnemyZoc, r.cause);
    else if (!retreatByOwner(ctx, r, { kind: 'hers-explosion', hex, after: { hex: target, unit: u.id } } satisfies BlastStage)) return true;
  }
  return false;
}

function compareVictims(hexA: string, idA: string, hexB: string, idB: string): number {
  return hexA === hexB ? idOrder(idA, idB) : hexA < hexB ? -1 : 1;
}

function hexLabel(u: UnitState): string {
  return u.loc.at === 'hex' ? u.loc.hex : '';
}

/** The table's overrides that still apply to a fixed-column attack: defense 0 (GT-7B.5), speed 0 (GT-7B.6), landed aircraft (GT-7H.1). */
function explosionResult(state: GameState, t: OddsCombat, u: UnitState, result: string): string {
  const type = typeOf(state, u);
  let r = result;
  for (const o of t.resultOverrides) {
    const applies = (o.when === 'defender-defense-zero' && type.defense <= 0) || (o.when === 'defender-immobile' && type.speed <= 0);
    if (applies && (o.from.length === 0 || o.from.includes(r))) r = o.result;
  }
  const spec = t.results[r];
  if (spec?.side === 'defender' && spec.effect === 'retreat' && isLanded(state, u)) {
    const kill = Object.entries(t.results).find(([, s]) => s.side === 'defender' && s.effect === 'eliminate');
    if (kill !== undefined) r = kill[0];
  }
  return r;
}
