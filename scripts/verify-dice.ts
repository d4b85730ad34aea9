/**
 * Verifies the dice of exported games and replays their rules: npm run verify-dice -- game.json [more.json ...]
 * Each file is checked and reported (named, when there are several). Exit code 0 when every check
 * of every file passes (README "Verifiable dice"), 1 with the list of problems when any file's
 * dice do not match or its log does not follow from its orders, 2 when any file cannot be read as JSON.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { DiceReport, verifyDice } from '../src/games/dice/verify-dice';
import { ReplayReport, replayExport } from '../src/games/replay/replay-export';
import { SYSTEMS } from '../src/rules/systems';

const files = process.argv.slice(2);
if (files.length === 0) {
  process.stderr.write('usage: npm run verify-dice -- <exported-game.json> [more.json ...]\n');
  process.exit(2);
}

/** 0 verified, 1 mismatch, 2 unreadable. */
function check(file: string, named: boolean): 0 | 1 | 2 {
  const prefix = named ? `${file}: ` : '';
  let report: DiceReport;
  let replay: ReplayReport;
  try {
    // npm runs scripts in the package root; INIT_CWD is where the user typed the path.
    // A byte-order mark is how some editors start UTF-8 files; JSON.parse refuses it.
    const doc: unknown = JSON.parse(readFileSync(resolve(process.env.INIT_CWD ?? process.cwd(), file), 'utf8').replace(/^\uFEFF/, ''));
    try {
      report = verifyDice(doc);
      replay = replayExport(doc, SYSTEMS);
    } catch (err) {
      // Both list what is wrong instead of throwing; this is the last resort (e.g. JSON nested too deep).
      process.stderr.write(`cannot verify ${file}: ${(err as Error).message}\n`);
      return 2;
    }
  } catch (err) {
    process.stderr.write(`cannot read ${file}: ${(err as Error).message}\n`);
    return 2;
  }
  if (report.ok) process.stdout.write(`${prefix}OK: all ${report.rolls} rolls match the revealed seed and its commitment, and the rules events used them.\n`);
  else process.stdout.write(`${prefix}MISMATCH (${report.problems.length} problem(s) in ${report.rolls} rolls):\n${list(report.problems)}\n`);
  const trusted = replay.trusted.length ? `\n${list(replay.trusted, 'trusted: ')}` : '';
  if (!replay.replayed) process.stdout.write(`${prefix}NOT REPLAYED: ${replay.trusted.join('; ').replace(/^nothing replayed: /, '')}\n`);
  else if (replay.mismatches.length === 0) process.stdout.write(`${prefix}REPLAY OK: the rules, run again on the game's ${replay.decisions} decisions (its start and every submission), give every rules event and roll of the log.${trusted}\n`);
  else process.stdout.write(`${prefix}REPLAY MISMATCH (${replay.mismatches.length} place(s) in ${replay.decisions} decisions where the log does not follow from its orders, scenario and rolls):\n${list(replay.mismatches)}${trusted}\n`);
  return report.ok && replay.mismatches.length === 0 ? 0 : 1;
}

function list(lines: string[], lead = ''): string {
  return lines.map((p) => `  - ${lead}${p}`).join('\n');
}

// Every file is checked, whatever an earlier one gave: the worst outcome is the exit code.
const outcomes = files.map((file) => check(file, files.length > 1));
process.exit(Math.max(...outcomes));
