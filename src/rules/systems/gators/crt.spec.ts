import { join } from 'node:path';
import { loadScenario } from '../../../scenarios/load-scenario';
import { columnFor, odds, readTable } from '../../engine/combat/odds';

/**
 * GT-9.5 cell by cell, and the odds arithmetic of GT-7B.2 at its edges, on
 * the table of the Unnarstan scenario's rules.json (the data the game reads).
 */
const table = loadScenario(join(__dirname, '../../../scenarios/gators-unnarstan')).rules.combat.odds!;

const COLUMNS = ['<-3', '-3', '-2', '-1', '1', '2', '3', '4', '5', '>5'];
/** GT-9.5 as printed: rows are the d6, columns the advantage. */
const GT_9_5 = [
  ['A X', 'A X', 'A X', 'A X', 'A X', 'A R2', 'A R1', 'n/r', 'D R1', 'D R2'],
  ['A X', 'A X', 'A X', 'A X', 'A R2', 'A R1', 'n/r', 'D R1', 'D R2', 'D X'],
  ['A X', 'A X', 'A X', 'A R2', 'A R1', 'n/r', 'D R1', 'D R2', 'D X', 'D X'],
  ['A X', 'A X', 'A R2', 'A R1', 'n/r', 'D R1', 'D R2', 'D X', 'D X', 'D X'],
  ['A X', 'A R2', 'A R1', 'n/r', 'D R1', 'D R2', 'D X', 'D X', 'D X', 'D X'],
  ['A R2', 'A R1', 'n/r', 'D R1', 'D R2', 'D X', 'D X', 'D X', 'D X', 'D X'],
];
const RESULTS = ['A X', 'A R2', 'A R1', 'n/r', 'D R1', 'D R2', 'D X'];
/** An attack and a defense that give each column's advantage (GT-7B.2). */
const FOR_COLUMN: Record<string, [number, number]> = { '<-3': [1, 4], '-3': [1, 3], '-2': [1, 2], '-1': [2, 3], '1': [2, 2], '2': [5, 2], '3': [6, 2], '4': [8, 2], '5': [10, 2], '>5': [6, 1] };

describe('GT-9.5 combat results table', () => {
  it('the scenario data has the printed columns and results', () => {
    expect(table.columns.map((c) => c.label)).toEqual(COLUMNS);
    expect(table.die).toBe(6);
  });

  const cells = COLUMNS.flatMap((col, c) => [1, 2, 3, 4, 5, 6].map((die) => [col, die, GT_9_5[die - 1]![c]!] as const));
  it('has 60 cells', () => expect(cells).toHaveLength(60));

  it.each(cells)('column %s, die %i: %s', (col, die, expected) => {
    const [attack, defense] = FOR_COLUMN[col]!;
    const column = columnFor(table, odds(attack, defense));
    expect(table.columns[column]!.label).toBe(col);
    expect(readTable(table, column, 0, die).result).toBe(expected);
    // The derived note: clamp(column + die − 5, 0, 6) on columns 0…9 and results 0…6.
    expect(RESULTS[Math.max(0, Math.min(6, COLUMNS.indexOf(col) + die - 5))]).toBe(expected);
  });
});

describe('GT-7B.2 odds at the edges', () => {
  it.each([
    [2, 2, 1, '1'],
    [3, 2, 1, '1'],
    [5, 2, 2, '2'],
    [2, 3, -1, '-1'],
    [1, 2, -2, '-2'],
    [1, 3, -3, '-3'],
    [1, 4, -4, '<-3'],
    [6, 1, 6, '>5'],
  ])('%i vs %i → %i, column %s', (attack, defense, advantage, col) => {
    expect(odds(attack, defense)).toBe(advantage);
    expect(table.columns[columnFor(table, odds(attack, defense))]!.label).toBe(col);
  });

  it('Q-GT-34: shifts stop at the end columns; a modified die beyond 1–6 reads further columns', () => {
    expect(readTable(table, 9, 2, 3).result).toBe('D X');
    expect(readTable(table, 0, -1, 6).result).toBe('A R2');
    expect(readTable(table, 5, 0, 7).result).toBe('D X');
    expect(readTable(table, 4, 0, 0).result).toBe('A X');
    expect(readTable(table, 4, -1, 5).result).toBe('n/r');
  });
});
