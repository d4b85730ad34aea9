import { join } from 'node:path';
import { loadScenario } from '../../../scenarios/load-scenario';
import { SeededDice } from '../../dice/seeded-dice';
import { boardOf } from '../../engine/board';
import { currentPhase } from '../../engine/phase-machine';
import { JsonObject } from '../../model/json';
import { GState } from './ext';
import { GATORS_SPEC, gators } from './index';
import { casePrestates, orderKinds } from '../../../../test/support/gators-agree';
import { replayCampaign } from './examples/replay';

/**
 * The side's orders of no one unit (sideOptions: Gators! Debris at setup, camouflage, raising
 * guerrillas) against validate, at every state of the scripted campaign and every rule case's
 * prestate where a side acts: each side option, sent as its order alone, must add no violation to
 * what an empty submission gets; and the same order naming a hex the side options leave out (a
 * sample of the map's hexes, and every hex of the side's own units) must be refused.
 */
const scenario = loadScenario(join(__dirname, '../../../scenarios/gators-unnarstan'));
const grid = boardOf(scenario).grid;
const SEED = 20261206;
/** Hexes of the map tried per state and kind, for the converse. */
const TRIES = 25;

const said = (state: GState, side: string, orders: JsonObject[]): string[] => {
  const p = gators.parse(state, side, { kind: 'orders', orders });
  return (p.ok ? gators.validate(state, side, p.value) : p.violations).map((v) => `${v.ruleId} ${v.code}: ${v.message}`);
};

const tried: Record<string, { offered: number; unoffered: number }> = {};

function check(state: GState, where: string, rng: SeededDice): string[] {
  const out: string[] = [];
  const ph = gators.phase(state);
  const def = currentPhase(state);
  const kinds = ((def && GATORS_SPEC.phases[def.kind as keyof typeof GATORS_SPEC.phases]?.orders) ?? []).filter((h) => h.sideOptions !== undefined).map((h) => h.kind);
  for (const side of ph.acting) {
    const baseline = new Set(said(state, side, []));
    const adds = (order: JsonObject) => said(state, side, [order]).filter((v) => !baseline.has(v));
    const offered = gators.sideOptions(state, side);
    for (const x of offered) {
      const order = { kind: x.action, ...(x.detail as JsonObject) };
      (tried[x.action] ??= { offered: 0, unoffered: 0 }).offered++;
      const v = adds(order);
      if (v.length > 0) out.push(`${where} ${side} ${JSON.stringify(order)}: offered but refused: ${v.join(' | ')}`);
    }
    const own = Object.values(state.units).flatMap((u) => (u.side === side && u.loc.at === 'hex' ? [u.loc.hex] : []));
    for (const kind of kinds) {
      const given = new Set(offered.filter((x) => x.action === kind).map((x) => (x.detail as { hex: string }).hex));
      const hexes = new Set([...own, ...Array.from({ length: TRIES }, () => grid.label(rng.roll(grid.size) - 1))]);
      for (const hex of hexes) {
        if (given.has(hex)) continue;
        (tried[kind] ??= { offered: 0, unoffered: 0 }).unoffered++;
        if (adds({ kind, hex }).length === 0) out.push(`${where} ${side} ${kind} ${hex}: accepted but not offered`);
      }
    }
  }
  return out;
}

describe("Gators! the side's options and validate() agree", () => {
  const rng = new SeededDice(SEED);
  const mismatches: string[] = [];
  const acts = (state: GState) => !['reaction', 'ended'].includes(gators.phase(state).mode);
  replayCampaign(scenario).forEach((p, k) => {
    if (acts(p.before)) mismatches.push(...check(p.before, `step ${k}`, rng));
  });
  for (const [where, state] of casePrestates(scenario)) if (acts(state)) mismatches.push(...check(state, where, rng));

  it("tries every kind of the side's options both ways, many times", () => {
    const side = [...orderKinds()].flatMap(([k, o]) => (o === 'side' ? [k] : [])).sort();
    expect(side).toEqual(['camouflage', 'debris', 'raise-guerrillas']);
    for (const k of side) expect([k, (tried[k]?.offered ?? 0) > 300, (tried[k]?.unoffered ?? 0) > 300]).toEqual([k, true, true]);
  });

  it('every side option is accepted as an order, and a hex not offered is refused', () => {
    expect(mismatches).toEqual([]);
  });
});
