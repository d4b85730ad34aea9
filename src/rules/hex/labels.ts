import { Axial } from './axial';

/**
 * Board-game labels ↔ axial coordinates.
 *
 * Labels are column then row, each zero-padded, 1-based: "0507" is column 5,
 * row 7, and "0101" is the top-left hex. Columns and rows use two digits each
 * (four-digit labels) unless the map has more than 99 of them, in which case
 * that part is as wide as the largest number (a 120 × 90 map has labels like
 * "11785").
 *
 * Layout is "odd-q": flat-topped hexes in vertical columns, and the columns
 * with an odd 0-based index (labels 02, 04, ...) are pushed down half a hex.
 */
export interface LabelFormat {
  readonly columnDigits: number;
  readonly rowDigits: number;
}

export const FOUR_DIGIT: LabelFormat = { columnDigits: 2, rowDigits: 2 };

export function labelFormat(columns: number, rows: number): LabelFormat {
  return {
    columnDigits: Math.max(2, String(columns).length),
    rowDigits: Math.max(2, String(rows).length),
  };
}

/** 0-based offset column/row to axial. */
export function offsetToAxial(col: number, row: number): Axial {
  return { q: col, r: row - (col - (col & 1)) / 2 };
}

/** Axial to 0-based offset column/row. */
export function axialToOffset(a: Axial): { col: number; row: number } {
  return { col: a.q, row: a.r + (a.q - (a.q & 1)) / 2 };
}

export function formatLabel(col: number, row: number, format: LabelFormat = FOUR_DIGIT): string {
  return (
    String(col + 1).padStart(format.columnDigits, '0') + String(row + 1).padStart(format.rowDigits, '0')
  );
}

/** Parses a label into 0-based column and row, or returns null when it is not a label of this format. */
export function parseLabel(
  label: string,
  format: LabelFormat = FOUR_DIGIT,
): { col: number; row: number } | null {
  if (label.length !== format.columnDigits + format.rowDigits || !/^[0-9]+$/.test(label)) return null;
  const col = Number(label.slice(0, format.columnDigits)) - 1;
  const row = Number(label.slice(format.columnDigits)) - 1;
  if (col < 0 || row < 0) return null;
  return { col, row };
}

export function labelToAxial(label: string, format: LabelFormat = FOUR_DIGIT): Axial | null {
  const p = parseLabel(label, format);
  return p === null ? null : offsetToAxial(p.col, p.row);
}

export function axialToLabel(a: Axial, format: LabelFormat = FOUR_DIGIT): string {
  const { col, row } = axialToOffset(a);
  return formatLabel(col, row, format);
}
