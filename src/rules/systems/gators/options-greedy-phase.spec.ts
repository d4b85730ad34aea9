import { join } from 'node:path';
import { loadScenario } from '../../../scenarios/load-scenario';
import { SeededDice } from '../../dice/seeded-dice';
import { JsonObject } from '../../model/json';
import { GState } from './ext';
import { gators } from './index';
import { casePrestates } from '../../../../test/support/gators-agree';
import { botPhase, violationKeys } from '../../../../test/support/options-bot';
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
  const b = botPhase(state, side, rng, { units: UNITS_PER_STEP, skip: 4 });
  sideOrders += b.sideOrders;
  b.kinds.slice(0, b.kinds.length - b.sideOrders).forEach((k) => picked.add(k));
  const empty = new Set(violationKeys(state, side, []));
  const problems = [...b.problems, ...violationKeys(state, side, b.orders).filter((k) => !empty.has(k)).map((k) => `the whole phase: ${k}`)];
  return { where, orders: b.orders, problems };
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
