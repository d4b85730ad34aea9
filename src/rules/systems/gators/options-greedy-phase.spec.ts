import { join } from 'node:path';
import { loadScenario } from '../../../scenarios/load-scenario';
import { SeededDice } from '../../dice/seeded-dice';
import { JsonObject } from '../../model/json';
import { GState } from './ext';
import { gators } from './index';
import { casePrestates } from '../../../../test/support/gators-agree';
import { orderFor } from './examples/option-order';
import { replayCampaign } from './examples/replay';

/**
 * What options after a draft promise a client: a phase built order by order, each order one the
 * unit's options offer after the orders chosen before it, is a phase the rules accept, whatever
 * it picks. At every step of the scripted campaign where a side gives orders, a bot takes the
 * side's units in a random order (seeded) and gives most of them a random one of their options
 * (half of those a second one, from their options after the first: Debris where a platoon was),
 * then may add one or two of the side's options (a hex for Debris, camouflage or guerrillas);
 * the draft must pass validateDraft all along, and the whole phase may break no rule that an
 * empty phase does not (a rule on the whole submission may ask for orders the bot never chose).
 */
const scenario = loadScenario(join(__dirname, '../../../scenarios/gators-unnarstan'));
const SEED = 20261206;
/** Units given a chance per step: enough to fill hexes and use up markers, few enough to stay quick. */
const UNITS_PER_STEP = 200;

const keys = (state: GState, side: string, orders: readonly JsonObject[]): string[] => {
  const p = gators.parse(state, side, { kind: 'orders', orders });
  return (p.ok ? gators.validate(state, side, p.value) : p.violations).map((v) => `${v.ruleId} ${v.code}: ${v.message}`);
};

function shuffled<T>(xs: readonly T[], rng: SeededDice): T[] {
  const out = [...xs];
  for (let i = out.length - 1; i > 0; i--) {
    const j = rng.roll(i + 1) - 1;
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** The side's orders of no one unit the bots chose, in all. */
let sideOrders = 0;
/** The kinds of the units' orders the bots chose. */
const picked = new Set<string>();

interface Built {
  readonly where: string;
  readonly orders: JsonObject[];
  readonly problems: string[];
}

function buildPhase(state: GState, side: string, where: string, rng: SeededDice): Built {
  const orders: JsonObject[] = [];
  const problems: string[] = [];
  const units = Object.values(state.units).filter((u) => u.side === side).map((u) => u.id).sort();
  // Half the units asked get a second order, from their options after their first (a platoon's Debris after its move).
  for (const unit of shuffled(units, rng).slice(0, UNITS_PER_STEP)) {
    for (let n = rng.roll(4) === 1 ? 0 : rng.roll(2); n > 0; n--) {
      const p = gators.parse(state, side, { kind: 'orders', orders });
      if (!p.ok) return { where, orders, problems: [`the draft no longer parses: ${JSON.stringify(p.violations)}`] };
      const o = gators.options(state, side, unit, p.value);
      if (Array.isArray(o)) break; // a unit the draft made away with (merged, say)
      const offered = [...o.moves.map((m) => orderFor(unit, 'move', m)), ...o.attacks.map((a) => orderFor(unit, 'attack', a)), ...(o.other ?? []).map((x) => orderFor(unit, 'other', x))].filter(
        (x): x is JsonObject => x !== null,
      );
      if (offered.length === 0) break;
      const pick = offered[rng.roll(offered.length) - 1]!;
      orders.push(pick);
      picked.add(pick['kind'] as string);
      const q = gators.parse(state, side, { kind: 'orders', orders });
      const refused = q.ok ? gators.validateDraft(state, side, q.value) : q.violations;
      if (refused.length > 0) problems.push(`${JSON.stringify(pick)} breaks the draft: ${refused.map((v) => `${v.ruleId} ${v.message}`).join(' | ')}`);
    }
  }
  // And a few of the side's orders of no one unit (Debris, camouflage, guerrillas), after all that.
  for (let n = rng.roll(3) - 1; n > 0; n--) {
    const p = gators.parse(state, side, { kind: 'orders', orders });
    if (!p.ok) break;
    const offered = gators.sideOptions(state, side, p.value);
    if (offered.length === 0) break;
    const x = offered[rng.roll(offered.length) - 1]!;
    const pick = { kind: x.action, ...(x.detail as JsonObject) };
    orders.push(pick);
    sideOrders++;
    const q = gators.parse(state, side, { kind: 'orders', orders });
    const refused = q.ok ? gators.validateDraft(state, side, q.value) : q.violations;
    if (refused.length > 0) problems.push(`${JSON.stringify(pick)} breaks the draft: ${refused.map((v) => `${v.ruleId} ${v.message}`).join(' | ')}`);
  }
  const empty = new Set(keys(state, side, []));
  problems.push(...keys(state, side, orders).filter((k) => !empty.has(k)).map((k) => `the whole phase: ${k}`));
  return { where, orders, problems };
}

describe('Gators! a phase built from options after a draft is accepted', () => {
  const built: Built[] = [];
  const cases: Built[] = [];
  replayCampaign(scenario).forEach((p, k) => {
    if (p.step.submission?.kind !== 'orders') return;
    built.push(buildPhase(p.before, p.step.side, `step ${k} (${p.step.phase}, ${p.step.side})`, new SeededDice(SEED + k)));
  });
  // The rule cases' positions: towing, Debris, camouflage, landing craft, aircraft... that the campaign does not reach.
  casePrestates(scenario).forEach(([where, state], k) => {
    const ph = gators.phase(state);
    if (ph.mode === 'reaction' || ph.mode === 'ended') return;
    for (const side of ph.acting) cases.push(buildPhase(state, side, `${where} (${ph.phase}, ${side})`, new SeededDice(SEED + 1000 + k)));
  });

  it('builds many phases of many orders, of every kind of phase the campaign plays', () => {
    expect(built.length).toBeGreaterThanOrEqual(30);
    expect(built.reduce((n, b) => n + b.orders.length, 0)).toBeGreaterThan(300);
    const phases = new Set(built.filter((b) => b.orders.length > 0).map((b) => b.where.replace(/^step \d+ \(([^,]+),.*$/, '$1')));
    expect([...phases].sort()).toEqual(expect.arrayContaining(['p1-combat', 'p1-movement', 'p2-combat', 'p2-movement', 'setup']));
  });

  it('builds phases with orders of many kinds, some offered only after a draft (Debris where a platoon was)', () => {
    expect(picked.size).toBeGreaterThanOrEqual(15);
    expect([...picked]).toContain('leave-debris');
  });

  it("builds phases with the side's orders of no one unit too", () => {
    expect(sideOrders).toBeGreaterThan(30);
  });

  it('builds phases at the rule cases too', () => {
    expect(cases.length).toBeGreaterThan(400);
    expect(cases.reduce((n, b) => n + b.orders.length, 0)).toBeGreaterThan(400);
  });

  it('each order keeps the draft valid, and the whole phase breaks no rule an empty one does not', () => {
    expect([...built, ...cases].flatMap((b) => b.problems.map((x) => `${b.where}: ${x}`))).toEqual([]);
  });
});
