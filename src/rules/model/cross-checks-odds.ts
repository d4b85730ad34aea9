import { OddsCombat } from './scenario';
import { Report } from './scenario-error';

type Column = OddsCombat['columns'][number];

/**
 * The odds combat table of rules.json: one row per die value, every cell a defined result, and
 * columns that give every odds exactly one column. A gap, an overlap or a column out of order
 * used to load, and columnFor (engine/combat/odds.ts) then read such odds on an end column.
 */
export function checkOddsTable(odds: OddsCombat, report: Report): void {
  const at = (...path: PropertyKey[]) => ['combat', 'odds', ...path];
  if (odds.table.length !== odds.die) report('rules.json', at('table'), `has ${odds.table.length} rows, one per die value 1..${odds.die} expected`);
  odds.table.forEach((row, r) => {
    if (row.length !== odds.columns.length) report('rules.json', at('table', r), `has ${row.length} entries for ${odds.columns.length} columns`);
    row.forEach((cell, c) => {
      if (!Object.hasOwn(odds.results, cell)) report('rules.json', at('table', r, c), `result "${cell}" is not defined in "results"`);
    });
  });
  odds.resultOverrides.forEach((o, i) => {
    if (!Object.hasOwn(odds.results, o.result)) report('rules.json', at('resultOverrides', i, 'result'), `result "${o.result}" is not defined`);
  });
  checkColumns(odds.columns, (i, message) => report('rules.json', at('columns', i), message));
}

/**
 * Odds are never 0 (engine/combat/odds.ts: equal strengths give 1), so -1 and 1 are
 * neighbours: the shipped table has no column 0 and no gap.
 */
const after = (odds: number) => (odds === -1 ? 1 : odds + 1);
const before = (odds: number) => (odds === 1 ? -1 : odds - 1);

/**
 * Columns go from the lowest odds to the highest, each from min to max; only the first may be
 * open below and only the last open above (odds beyond a closed end read on that end column).
 */
function checkColumns(columns: readonly Column[], report: (i: number, message: string) => void): void {
  const last = columns.length - 1;
  const name = (i: number) => `columns[${i}] "${columns[i]!.label}"`;
  const sound = columns.map((c, i) => {
    if (c.min === undefined && i > 0) report(i, 'only the first column may leave out "min": the odds below it would have two columns');
    if (c.max === undefined && i < last) report(i, 'only the last column may leave out "max": the odds above it would have two columns');
    if (c.min !== undefined && c.max !== undefined && c.min > c.max) report(i, `min ${c.min} is above max ${c.max}: the column holds no odds`);
    return (c.min === undefined || c.max === undefined || c.min <= c.max) && (c.min !== undefined || i === 0) && (c.max !== undefined || i === last);
  });
  const pairs = columns.slice(1).flatMap((b, k) => {
    const a = columns[k]!;
    return sound[k] && sound[k + 1] && a.max !== undefined && b.min !== undefined ? [{ i: k + 1, a, b, aMax: a.max, bMin: b.min }] : [];
  });
  // A column out of place makes the gaps and overlaps around it meaningless: it alone is named.
  const misplaced = pairs.find(({ a, b }) => a.min !== undefined && b.max !== undefined && b.max < a.min);
  if (misplaced !== undefined) {
    const { i, a, b, bMin } = misplaced;
    return report(i, `${span(bMin, b.max!)} come before ${name(i - 1)} (${a.min} to ${a.max}): columns go from the lowest odds to the highest`);
  }
  for (const { i, a, b, aMax, bMin } of pairs) {
    if (bMin <= aMax) report(i, `this column and ${name(i - 1)} both hold ${span(Math.max(a.min ?? bMin, bMin), Math.min(aMax, b.max ?? aMax))}`);
    else if (bMin > after(aMax)) report(i, `no column for ${span(after(aMax), before(bMin))} (${name(i - 1)} ends at ${aMax}, this one starts at ${bMin})`);
  }
}

function span(lo: number, hi: number): string {
  return lo === hi ? `odds ${lo}` : `odds ${lo} to ${hi}`;
}
