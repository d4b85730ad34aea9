import { join } from 'node:path';
import { loadScenario } from '../../../scenarios/load-scenario';
import { Scenario } from '../../model/scenario';
import { buildState } from '../../testing/prestate';
import { runCaseWith } from '../../testing/case-runner';
import { GroundData, parseGroundData } from './ground-data';
import { GATORS_SPEC, gators } from './index';
import { GState } from './ext';
import { hasDebris } from './queries';

/** The ground special rules' data (part 3) and what the rule cases cannot show on the first scenario. */
const scenario = loadScenario(join(__dirname, '../../../scenarios/gators-unnarstan'));
const SECTIONS = ['squads', 'camouflage', 'guerrillas', 'medics', 'debris', 'sabotage', 'bombardment', 'commandBonus', 'recon', 'sniper'] as const;

function withoutDescriptions(d: GroundData): Record<string, unknown> {
  return Object.fromEntries(Object.entries(d).map(([k, v]) => [k, { ...(v as object), description: undefined }]));
}

describe('ground rules data (rules.json combat.*)', () => {
  it('the scenario states every section, and says what the built-in defaults say', () => {
    const combat = scenario.rules.combat as Record<string, unknown>;
    for (const s of SECTIONS) expect([s, combat[s] !== undefined]).toEqual([s, true]);
    const bare: Scenario = { ...scenario, rules: { ...scenario.rules, combat: Object.fromEntries(Object.entries(combat).filter(([k]) => !(SECTIONS as readonly string[]).includes(k))) } };
    expect(withoutDescriptions(parseGroundData(scenario))).toEqual(withoutDescriptions(parseGroundData(bare)));
  });

  it('a malformed section is a scenario error naming it', () => {
    const bad: Scenario = { ...scenario, rules: { ...scenario.rules, combat: { ...scenario.rules.combat, medics: { rolls: 'five' } } } };
    expect(() => parseGroundData(bad)).toThrow(/rules\.json at combat\.medics\.rolls: /);
  });

  it('hasDebris reads the public Debris markers (GT-6Q.4: part 2 keeps Debris airfields unusable with it)', () => {
    const state = buildState(scenario, { phase: 'p1-movement', units: [], ext: { debris: ['2822'] } }, GATORS_SPEC.initialExt(scenario)) as GState;
    expect(hasDebris(state, '2822')).toBe(true);
    expect(hasDebris(state, '3010')).toBe(false);
  });
});

/**
 * GT-2.15 needs single-person counters, which the first scenario does not
 * have (GT-2.9): the shot is checked on the scenario with a Colonel added.
 */
describe('the Scout/Sniper\'s shot at a single person (GT-2.15)', () => {
  const militia = scenario.units.types['militia']!;
  const withColonel: Scenario = {
    ...scenario,
    units: { ...scenario.units, types: { ...scenario.units.types, colonel: { ...militia, name: 'Colonel', tags: ['single-person', 'ground'], strength: {} } } },
  };
  const target = { system: gators, scenario: withColonel, initialExt: GATORS_SPEC.initialExt };
  const shot = (colonelHex: string, dice: number[], expect: unknown) =>
    runCaseWith(target, {
      ruleId: 'GT-2.15',
      title: 'sniper shot',
      prestate: {
        phase: 'p1-combat',
        units: [
          { id: 'p1-sniper', type: 'scout-sniper', side: 'P1', hex: '1810' },
          { id: 'p2-colonel', type: 'colonel', side: 'P2', hex: colonelHex },
        ],
      },
      steps: [{ side: 'P1', submission: { kind: 'orders', orders: [{ kind: 'snipe', unit: 'p1-sniper', target: 'p2-colonel' }] }, dice, expect }],
    }).failures;

  it('hits on 3–6 at range 1', () => {
    expect(shot('1910', [3], { violations: [], events: [{ type: 'SniperShot', data: { roll: 3, need: 3, hit: true } }, { type: 'UnitEliminated', data: { unit: 'p2-colonel' } }] })).toEqual([]);
  });

  it('misses a 3 at range 2 (4–6 needed)', () => {
    expect(shot('2011', [3], { violations: [], events: [{ type: 'SniperShot', data: { roll: 3, need: 4, hit: false } }], absent: ['UnitEliminated'] })).toEqual([]);
  });

  it('cannot shoot at range 3', () => {
    expect(shot('2111', [], { violations: [{ ruleId: 'GT-2.15', code: 'combat/out_of_range' }] })).toEqual([]);
  });

  const snipeAt = (target: string) => ({ action: 'snipe', detail: { target } });
  const sniperPrestate = (sniper: Record<string, unknown>) => ({
    phase: 'p1-combat',
    units: [
      { id: 'p1-sniper', type: 'scout-sniper', side: 'P1', hex: '1810', ...sniper },
      { id: 'p2-colonel', type: 'colonel', side: 'P2', hex: '1910' },
      { id: 'p2-major', type: 'colonel', side: 'P2', hex: '2011' },
      { id: 'p2-far', type: 'colonel', side: 'P2', hex: '2111' },
      { id: 'p2-hidden', type: 'colonel', side: 'P2', hex: '1809', hidden: '?' },
      { id: 'p2-inf', type: 'infantry-platoon', side: 'P2', hex: '1811' },
    ],
  });
  /** The case's failures: the options as expected, and each offered shot, sent alone as an order, accepted. */
  const offered = (sniper: Record<string, unknown>, other: Array<{ detail: { target: string } }>, excludesOther: unknown[]) => [
    ...runCaseWith(target, { ruleId: 'GT-2.15', title: 'sniper options', prestate: sniperPrestate(sniper), options: [{ side: 'P1', unit: 'p1-sniper', other, excludesOther }] }).failures,
    ...other.flatMap(
      (o) =>
        runCaseWith(target, {
          ruleId: 'GT-2.15',
          title: `the offered shot at ${o.detail.target}`,
          prestate: sniperPrestate(sniper),
          steps: [{ side: 'P1', submission: { kind: 'orders', orders: [{ kind: 'snipe', unit: 'p1-sniper', target: o.detail.target }] }, dice: [6], expect: { violations: [] } }],
        }).failures,
    ),
  ];

  it('offers the shot at each visible single person in range: not one out of range, under a "?" or not a single person', () => {
    expect(offered({}, [snipeAt('p2-colonel'), snipeAt('p2-major')], [snipeAt('p2-far'), snipeAt('p2-hidden'), snipeAt('p2-inf')])).toEqual([]);
  });

  it('offers nothing to a sniper that has already attacked this phase', () => {
    expect(offered({ flags: { attacked: true } }, [], [snipeAt('p2-colonel'), snipeAt('p2-major')])).toEqual([]);
  });
});
