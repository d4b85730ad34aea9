import type { GameState } from '../../model/state';
import { notOwnUnits } from './common';

describe('notOwnUnits (standing orders naming units)', () => {
  // Only the units' sides are read.
  const state = { units: { d: { side: 'P2' }, aav: { side: 'P1' } } } as unknown as GameState;

  it('refuses a unit named twice at the place it repeats, naming the field', () => {
    expect(notOwnUnits(state, 'P2', 'anti-landing.units', ['d', 'd']).map((v) => [v.ruleId, v.code, v.message])).toEqual([
      ['input', 'input/duplicate_unit', 'anti-landing.units.1: d is listed twice'],
    ]);
  });

  it('refuses an enemy unit named twice as unknown both times, telling nothing of it', () => {
    expect(notOwnUnits(state, 'P2', 'anti-landing.allExcept', ['aav', 'aav']).map((v) => v.code)).toEqual(['input/not_your_unit', 'input/not_your_unit']);
  });
});
