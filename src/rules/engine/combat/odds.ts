import { OddsCombat } from '../../model/scenario';

/**
 * Combat advantage (GT-7B.2): the larger strength divided by the smaller,
 * fraction dropped; negative when the defender is stronger. Equal strength
 * gives 1 (the table has no column 0). A zero defense gives +Infinity.
 */
export function odds(attack: number, defense: number): number {
  if (defense <= 0) return Infinity;
  if (attack <= 0) return -Infinity;
  return attack >= defense ? Math.floor(attack / defense) : -Math.floor(defense / attack);
}

/**
 * Index of the table column for an advantage, from the columns' [min, max] ranges in rules.json.
 * The load checks that the columns go up without gap or overlap, so odds no column holds are
 * beyond one end of the table, and read on that end column.
 */
export function columnFor(table: OddsCombat, advantage: number): number {
  const i = table.columns.findIndex((c) => (c.min === undefined || advantage >= c.min) && (c.max === undefined || advantage <= c.max));
  if (i >= 0) return i;
  const lowest = table.columns[0]!.min;
  return lowest !== undefined && advantage < lowest ? 0 : table.columns.length - 1;
}

export interface TableRead {
  readonly column: number;
  readonly row: number;
  readonly result: string;
}

/**
 * Reads the table with shifts and a modified die. Shifts are clamped to the
 * end columns (Q-GT-34). A modified die beyond 1..die is read either as extra
 * column shifts ("shift-column", which is what the Gators! formula
 * clamp(column + die − 5) gives) or clamped to the table ("clamp-die").
 */
export function readTable(table: OddsCombat, column: number, shift: number, die: number): TableRead {
  const last = table.columns.length - 1;
  const clamp = (x: number, lo: number, hi: number) => Math.max(lo, Math.min(hi, x));
  let col = clamp(column + shift, 0, last);
  let row = die;
  if (table.dieBeyondTable === 'shift-column') {
    if (row > table.die) {
      col = clamp(col + row - table.die, 0, last);
      row = table.die;
    } else if (row < 1) {
      col = clamp(col - (1 - row), 0, last);
      row = 1;
    }
  } else row = clamp(row, 1, table.die);
  return { column: col, row, result: table.table[row - 1]![col]! };
}
