import { Scenario } from '../model/scenario';
import { buildState } from '../testing/prestate';
import { testScenario } from '../testing/scenario-files';
import { boardOf } from './board';
import { stackCapacity } from './stacking';

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
});
