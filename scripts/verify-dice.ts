/**
 * Verifies the dice of exported games: npm run verify-dice -- game.json [more.json ...]
 * Each file is checked and reported (named, when there are several). Exit code 0 when every check
 * of every file passes (README "Verifiable dice"), 1 with the list of problems when any file's
 * dice do not match, 2 when any file cannot be read as JSON.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { DiceReport, verifyDice } from '../src/games/dice/verify-dice';

const files = process.argv.slice(2);
if (files.length === 0) {
  process.stderr.write('usage: npm run verify-dice -- <exported-game.json> [more.json ...]\n');
  process.exit(2);
}

/** 0 verified, 1 mismatch, 2 unreadable. */
function check(file: string, named: boolean): 0 | 1 | 2 {
  const prefix = named ? `${file}: ` : '';
  let report: DiceReport;
  try {
    // npm runs scripts in the package root; INIT_CWD is where the user typed the path.
    // A byte-order mark is how some editors start UTF-8 files; JSON.parse refuses it.
    const doc: unknown = JSON.parse(readFileSync(resolve(process.env.INIT_CWD ?? process.cwd(), file), 'utf8').replace(/^\uFEFF/, ''));
    try {
      report = verifyDice(doc);
    } catch (err) {
      // verifyDice lists what is wrong instead of throwing; this is the last resort (e.g. JSON nested too deep).
      process.stderr.write(`cannot verify ${file}: ${(err as Error).message}\n`);
      return 2;
    }
  } catch (err) {
    process.stderr.write(`cannot read ${file}: ${(err as Error).message}\n`);
    return 2;
  }
  if (report.ok) {
    process.stdout.write(`${prefix}OK: all ${report.rolls} rolls match the revealed seed and its commitment, and the rules events used them.\n`);
    return 0;
  }
  process.stdout.write(`${prefix}MISMATCH (${report.problems.length} problem(s) in ${report.rolls} rolls):\n${report.problems.map((p) => `  - ${p}`).join('\n')}\n`);
  return 1;
}

// Every file is checked, whatever an earlier one gave: the worst outcome is the exit code.
const outcomes = files.map((file) => check(file, files.length > 1));
process.exit(Math.max(...outcomes));
