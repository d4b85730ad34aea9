/**
 * Verifies the dice of an exported game: npm run verify-dice -- game.json
 * Exit code 0 when every check passes (README "Verifiable dice"), 1 with the list of problems
 * otherwise, 2 when the file cannot be read as JSON.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { DiceReport, verifyDice } from '../src/games/dice/verify-dice';

const file = process.argv[2];
if (!file) {
  process.stderr.write('usage: npm run verify-dice -- <exported-game.json>\n');
  process.exit(2);
}
let doc: unknown;
try {
  // npm runs scripts in the package root; INIT_CWD is where the user typed the path.
  // A byte-order mark is how some editors start UTF-8 files; JSON.parse refuses it.
  doc = JSON.parse(readFileSync(resolve(process.env.INIT_CWD ?? process.cwd(), file), 'utf8').replace(/^\uFEFF/, ''));
} catch (err) {
  process.stderr.write(`cannot read ${file}: ${(err as Error).message}\n`);
  process.exit(2);
}
let report: DiceReport;
try {
  report = verifyDice(doc);
} catch (err) {
  // verifyDice lists what is wrong instead of throwing; this is the last resort (e.g. JSON nested too deep).
  process.stderr.write(`cannot verify ${file}: ${(err as Error).message}\n`);
  process.exit(2);
}
if (report.ok) {
  process.stdout.write(`OK: all ${report.rolls} rolls match the revealed seed and its commitment, and the rules events used them.\n`);
} else {
  process.stdout.write(`MISMATCH (${report.problems.length} problem(s) in ${report.rolls} rolls):\n${report.problems.map((p) => `  - ${p}`).join('\n')}\n`);
}
process.exit(report.ok ? 0 : 1);
