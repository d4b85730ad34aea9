import fc from 'fast-check';
import { testScenario } from '../../testing/scenario-files';
import { columnFor, odds, readTable } from './odds';

const table = testScenario().rules.combat.odds!;
const RESULTS = ['A X', 'A R2', 'A R1', 'n/r', 'D R1', 'D R2', 'D X'];
const formula = (column: number, die: number) => RESULTS[Math.max(0, Math.min(6, column + die - 5))];

describe('odds (GT-7B.2) and the results table (GT-9.5)', () => {
  it.each([
    [2, 2, '1'],
    [3, 2, '1'],
    [5, 2, '2'],
    [2, 3, '-1'],
    [1, 2, '-2'],
    [1, 3, '-3'],
    [1, 4, '<-3'],
    [6, 1, '>5'],
  ])('%i against %i is column %s (worked odds of GT-7B.2)', (a, d, label) => {
    expect(table.columns[columnFor(table, odds(a, d))]!.label).toBe(label);
  });

  it('the table data equals clamp(column + die - 5, 0, 6) in all 60 cells', () => {
    for (let c = 0; c < 10; c++) for (let die = 1; die <= 6; die++) expect(readTable(table, c, 0, die).result).toBe(formula(c, die));
  });

  it('shifts and modified dice beyond the table read as the formula with an unclamped die (Q-GT-34)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 9 }), fc.integer({ min: -3, max: 3 }), fc.integer({ min: 1, max: 6 }), fc.integer({ min: -4, max: 4 }), (c, shift, die, drm) => {
        const shifted = Math.max(0, Math.min(9, c + shift));
        expect(readTable(table, c, shift, die + drm).result).toBe(formula(shifted, die + drm));
      }),
    );
  });

  it('odds beyond a table with closed ends read on the nearer end column', () => {
    const closed = { ...table, columns: [{ label: '2', min: 2, max: 2 }, { label: '3', min: 3, max: 3 }] };
    expect(columnFor(closed, 1)).toBe(0);
    expect(columnFor(closed, -4)).toBe(0);
    expect(columnFor(closed, 9)).toBe(1);
    const defensive = { ...table, columns: [{ label: '-3', min: -3, max: -3 }, { label: '-2', min: -2, max: -2 }] };
    expect(columnFor(defensive, -1)).toBe(1);
    expect(columnFor(defensive, 4)).toBe(1);
  });

  it('a zero defense has infinite odds', () => {
    expect(odds(1, 0)).toBe(Infinity);
    expect(columnFor(table, Infinity)).toBe(9);
  });
});
