import { Scenario } from '../model/scenario';
import { buildState } from '../testing/prestate';
import { testScenario } from '../testing/scenario-files';
import { boardOf } from './board';
import { stackCapacity, stackProblem } from './stacking';

/** The most counters a hidden stack may hold, from the data alone: what a marker may hide (Q-GT-29). */
describe('stackCapacity', () => {
  const capacity = (scenario: Scenario, side: string, hex: string, units: Parameters<typeof buildState>[1]['units'] = []) => {
    const state = buildState(scenario, { phase: 'a-move', units });
    const board = boardOf(scenario);
    return stackCapacity(state, board, side, board.grid.indexOf(hex));
  };
  const s = testScenario();
  const withOob = (units: Scenario['oob']['units']): Scenario => ({ ...s, oob: { ...s.oob, units: [...s.oob.units, ...units] } });

  it('is the largest combination the exceptions allow, whatever stands in the hex (GT-6D.1)', () => {
    expect(capacity(s, 'B', '0505')).toBe(3);
    expect(capacity(s, 'B', '0505', [{ id: 'b-inf-1', type: 'infantry', side: 'B', hex: '0505', hidden: '?' }])).toBe(3);
  });

  it('counts the side\'s counters an overlay exception lets in, only where it applies', () => {
    const flyers = withOob([{ id: 'b-heli', type: 'helicopter', side: 'B', at: { hex: '1108' }, count: 5 } as Scenario['oob']['units'][number]]);
    expect(capacity(flyers, 'B', '1108')).toBe(5);
    expect(capacity(flyers, 'B', '0505')).toBe(3);
    // Red Field is B's: A's aircraft may not stack there.
    expect(capacity(flyers, 'A', '1108')).toBe(3);
  });

  it('adds the counters that do not count, and without a limit is the side\'s whole order of battle', () => {
    const rules = (stacking: Partial<Scenario['rules']['stacking']>): Scenario => ({ ...s, rules: { ...s.rules, stacking: { ...s.rules.stacking, ...stacking } } });
    expect(capacity(rules({ exemptTags: ['fort'] }), 'B', '0505')).toBe(3);
    expect(capacity(rules({ exemptTags: ['tank'] }), 'B', '0505')).toBe(4);
    expect(capacity(rules({ limit: null }), 'B', '0505')).toBe(6);
  });

  it('adds the counters an area exception leaves out of the limit, only in its hexes (Q-GT-46)', () => {
    const area: Scenario['rules']['stacking']['exceptions'][number] = { kind: 'area', area: { capital: true }, tags: ['tank'], ruleId: 'Q-GT-46' };
    const cap = { ...s, rules: { ...s.rules, stacking: { ...s.rules.stacking, exceptions: [...s.rules.stacking.exceptions, area] } } };
    expect(capacity(cap, 'A', '1104')).toBe(4);
    expect(capacity(cap, 'A', '0505')).toBe(3);
  });
});

describe('stackProblem with an area exception (Q-GT-46)', () => {
  const s = testScenario();
  const area: Scenario['rules']['stacking']['exceptions'][number] = { kind: 'area', area: { city: 'capital' }, tags: ['helicopter'], ruleId: 'Q-GT-46' };
  const scenario: Scenario = { ...s, rules: { ...s.rules, stacking: { ...s.rules.stacking, exceptions: [...s.rules.stacking.exceptions, area] } } };
  const board = boardOf(scenario);
  const state = buildState(scenario, { phase: 'a-move', units: [] });
  const t = (id: string) => scenario.units.types[id]!;
  const problem = (hex: string, types: string[]) => stackProblem(state, board, 'A', board.grid.indexOf(hex), types.map(t));

  it('leaves the tagged units out of the count in the area, with the other exceptions still applying to the rest', () => {
    expect(problem('1104', ['rifle-platoon', 'helicopter', 'helicopter'])).toBeNull();
    expect(problem('1104', ['rifle-platoon', 'heavy-weapons', 'helicopter'])).toBeNull();
    expect(problem('1104', ['rifle-platoon', 'tank', 'helicopter'])).not.toBeNull();
  });

  it('does not apply outside the area', () => {
    expect(problem('0505', ['rifle-platoon', 'helicopter'])).not.toBeNull();
  });
});
