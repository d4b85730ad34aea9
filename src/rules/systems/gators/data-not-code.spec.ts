import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseScenario } from '../../model/parse-scenario';
import { Scenario } from '../../model/scenario';
import { RecordedRoll } from '../../dice/forced-dice';
import { runCaseWith } from '../../testing/case-runner';
import { gatorsData } from './data';
import { GATORS_SPEC, gators } from './index';

/**
 * The scenario's ids are the scenario's: renaming one consistently across every data file (and
 * the rule case, when it names it) must leave a real rule case passing. A failure means the code
 * still spells the id.
 */
const REAL = join(__dirname, '../../../scenarios/gators-unnarstan');
const CASES = join(__dirname, 'cases');

type Mode = 'tags' | 'values' | 'everywhere';
type Renames = readonly [from: string, to: string, mode: Mode][];

/** Replaces every string equal to `from`: as an array item only (tags), as any value, or everywhere, keys included. */
function rename(x: unknown, from: string, to: string, mode: Mode, inArray = false): unknown {
  if (typeof x === 'string') return x === from && (mode !== 'tags' || inArray) ? to : x;
  if (Array.isArray(x)) return x.map((e) => rename(e, from, to, mode, true));
  if (x !== null && typeof x === 'object')
    return Object.fromEntries(Object.entries(x).map(([k, v]) => [mode === 'everywhere' && k === from ? to : k, rename(v, from, to, mode)]));
  return x;
}

function files(): Record<string, unknown> {
  return Object.fromEntries(readdirSync(REAL).filter((f) => f.endsWith('.json')).map((f) => [f, JSON.parse(readFileSync(join(REAL, f), 'utf8')) as unknown]));
}

const readCase = (file: string): unknown => JSON.parse(readFileSync(join(CASES, file), 'utf8'));

function run(scenario: Scenario, c: unknown, onResolved?: (rolls: readonly RecordedRoll[]) => void): string[] {
  return runCaseWith({ system: gators, scenario, initialExt: GATORS_SPEC.initialExt }, c, onResolved).failures;
}

function renamed(caseFile: string, renames: Renames, inCase: boolean): string[] {
  let data: unknown = files();
  let c = readCase(caseFile);
  for (const [a, b, m] of renames) {
    data = rename(data, a, b, m);
    if (inCase) c = rename(c, a, b, m);
  }
  return run(parseScenario(data as Record<string, unknown>, 'renamed'), c);
}

describe('a consistent rename of a scenario id changes no rule', () => {
  it.each<[string, string, Renames, boolean]>([
    ['side ids (options.landingSide/defendingSide)', 'setup/p2-debris-accepted.json', [['P1', 'US', 'everywhere'], ['P2', 'RED', 'everywhere']], true],
    ['airborne aircraft (combat.setup.airborneTags)', 'setup/p2-airfield-accepted.json', [['f-5a', 'fighter', 'tags']], false],
    ['airborne aircraft, too many (combat.setup.airborneTags)', 'setup/p2-three-airborne-rejected.json', [['f-5a', 'fighter', 'tags']], false],
    ['helicopters (combat.setup.assignTags)', 'setup/p1-three-helicopters-rejected.json', [['helicopter', 'rotorcraft', 'tags']], false],
    ['the main ship (combat.setup.mainShipTags, airOps.onlyShips)', 'setup/p1-harrier-lhd-accepted.json', [['lhd', 'flagship', 'tags']], false],
    ['attack helicopters (combat.setup.armedOffMainShipTags)', 'setup/p1-cobra-unarmed-rejected.json', [['attack-helicopter', 'gunship', 'tags']], false],
    ['LHD-only aircraft (airOps.onlyShips)', 'launch-recovery/harrier-lpd-rejected.json', [['lhd-only', 'flagship-only', 'tags']], false],
    ['aircraft landed in the capital (airOps.landedInCapital)', 'victory/capital-uh1n-landed-accepted.json', [['uh-1n', 'government-lift', 'tags']], false],
    ['the squad pool and its marker (combat.squads.pool/poolMarker)', 'squads/split-accepted.json', [['squad-pool', 'reserve', 'values'], ['pool', 'R', 'values']], true],
    ['the squad pool at setup (combat.squads.pool)', 'setup/p1-split-accepted.json', [['squad-pool', 'reserve', 'values']], true],
    ['the class of aircraft in the air (units.json targetClass)', 'anti-aircraft/heavy-markers-accepted.json', [['air', 'aerial', 'everywhere']], true],
    ['the class of aircraft in the air, jettison (units.json targetClass)', 'anti-aircraft/jettison-pause-accepted.json', [['air', 'aerial', 'everywhere']], true],
  ])('%s: %s', (_what, file, renames, inCase) => {
    expect(renamed(file, renames, inCase)).toEqual([]);
  });

  it('the split box (combat.squads.splitBox): squads/merge-accepted.json', () => {
    const data = files() as { 'rules.json': { combat: { squads: Record<string, unknown> } } };
    data['rules.json'].combat.squads['splitBox'] = 'platoon-box';
    expect(run(parseScenario(data, 'renamed'), rename(readCase('squads/merge-accepted.json'), 'split', 'platoon-box', 'values'))).toEqual([]);
  });
});

describe('the dice are data (combat.guerrillas/medics/sniper.die)', () => {
  const withDie = (section: string): Scenario => {
    const data = files() as { 'rules.json': { combat: Record<string, Record<string, unknown>> } };
    data['rules.json'].combat[section]!['die'] = 10;
    return parseScenario(data, `d10-${section}`);
  };
  const sidesRolled = (scenario: Scenario, file: string): number[] => {
    const sides: number[] = [];
    expect(run(scenario, readCase(file), (rolls) => sides.push(...rolls.map((r) => r.sides)))).toEqual([]);
    return sides;
  };

  it.each([
    ['guerrillas', 'guerrillas/raise-accepted.json'],
    ['medics', 'medics/surrender-accepted.json'],
  ])('%s rolls the die its data names (%s)', (section, file) => {
    expect(sidesRolled(withDie(section), file)).toEqual([10]);
  });

  it('the sniper rolls the die its data names (GT-2.15, a Colonel added)', () => {
    const base = withDie('sniper');
    const militia = base.units.types['militia']!;
    const scenario: Scenario = { ...base, units: { ...base.units, types: { ...base.units.types, colonel: { ...militia, tags: ['single-person', 'ground'], strength: {} } } } };
    const shot = {
      ruleId: 'GT-2.15',
      title: 'sniper shot on a d10',
      prestate: { phase: 'p1-combat', units: [{ id: 'p1-sniper', type: 'scout-sniper', side: 'P1', hex: '1810' }, { id: 'p2-colonel', type: 'colonel', side: 'P2', hex: '1910' }] },
      steps: [{ side: 'P1', submission: { kind: 'orders', orders: [{ kind: 'snipe', unit: 'p1-sniper', target: 'p2-colonel' }] }, dice: [{ value: 9, sides: 10 }], expect: { violations: [] } }],
    };
    expect(run(scenario, shot)).toEqual([]);
  });
});

describe('the sides are data, with no default', () => {
  it('a scenario.json without options.landingSide is refused when its Gators! data is read', () => {
    const data = files() as { 'scenario.json': { options: Record<string, unknown> } };
    delete data['scenario.json'].options['landingSide'];
    expect(() => gatorsData(parseScenario(data, 'no-landing-side'))).toThrow(/landingSide/);
  });
});
