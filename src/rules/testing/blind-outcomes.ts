import { RecordedRoll } from '../dice/forced-dice';
import { SeededDice } from '../dice/seeded-dice';
import { SECRETS_APPLIED } from '../engine/events';
import { eventAsSeenBy } from '../engine/visibility';
import { Dice, GameSystem, RawSubmission, RulesEvent, SideId } from '../engine/types';
import { GameState } from '../model/state';

/**
 * What a reader reads of a submission carried out must not depend on what it cannot see: every
 * event takes a version all sides count (one it may not read reads as a gap, `null`), and every
 * roll is logged (a secret one reads as a roll of that die). So the same submission, carried
 * out with the same dice in two states the reader cannot tell apart, must read the same, event
 * for event and roll for roll, up to where the rules let the reader learn something:
 *
 * - an event marked `reveals` (a unit destroyed or unmasked, sealed orders opened): from there
 *   on the runs may part;
 * - the results of an attack on a stack the reader may not see (the event read redacted): that
 *   it was destroyed, retreated or unharmed is shown, as on the table;
 * - a move cut short where it met a hidden unit: stopped by its zone of control (`stoppedBy`,
 *   rules.json zoc.hidden "ignored-until-contact"), or by a reaction asked there;
 * - the accepted leaks of src/rules/README.md: an attack cancelled because its concealed target
 *   could not be harmed or its pre-roll failed (Q-GT-27), and that a reaction is asked at all
 *   (answered by standing orders or not).
 *
 * The dice carry no place among the events (the engine's `Dice` sees none), so they are
 * compared only when the events read the same throughout.
 */
export interface Run {
  readonly events: readonly RulesEvent[];
  readonly rolls: readonly RecordedRoll[];
  /** A throw is an answer too (the server's 500). */
  readonly threw: string | null;
}

/** A reaction asked: the accepted leak that it is asked at all. */
const ASKED = new Set(['ReactionRequested', 'ResolutionSuspended', 'ReactionAnswered']);
/** What applying a combat result writes (GT-7E, GT-7N), the reader's own question about its retreat included. */
const RESULT_TYPES = new Set(['UnitEliminated', 'UnitRetreated', 'MarkerRetreated', ...ASKED]);
/** Between an attack and its results: the marks a system hook sets once the attack is made. */
const AFTER_ATTACK = new Set([...RESULT_TYPES, 'UnitsMarked']);

/**
 * The same dice in every run, fresh each time: the step's forced values first (a rule case's,
 * the campaign's), then rolls drawn from the seed and the roll's place alone, so that one run
 * rolling a die more does not shift the values of the next.
 */
export class ScriptedDice implements Dice {
  readonly rolls: RecordedRoll[] = [];

  constructor(
    private readonly forced: readonly number[],
    private readonly seed: number,
  ) {}

  roll(sides: number, purpose: string, visibleTo?: SideId[]): number {
    const n = this.rolls.length;
    const f = this.forced[n];
    const value = f !== undefined && Number.isInteger(f) && f >= 1 && f <= sides ? f : new SeededDice((this.seed + n * 7919) >>> 0).roll(sides);
    this.rolls.push(visibleTo === undefined ? { sides, value, purpose } : { sides, value, purpose, visibleTo });
    return value;
  }
}

/** `raw` carried out by `side` in `state`, or null when the state refuses it (refusals are compared elsewhere). */
export function carryOut<S extends GameState>(system: GameSystem<S>, state: S, side: SideId, raw: RawSubmission, forced: readonly number[], seed: number): Run | null {
  const parsed = system.parse(state, side, raw);
  if (!parsed.ok || system.validate(state, side, parsed.value).length > 0) return null;
  const dice = new ScriptedDice(forced, seed);
  try {
    return { events: system.resolve(state, side, parsed.value, dice), rolls: dice.rolls, threw: null };
  } catch (err) {
    return { events: [], rolls: dice.rolls, threw: err instanceof Error ? err.message : String(err) };
  }
}

function readEvents(run: Run, reader: SideId | null): string[] {
  const read = run.events.map((e) => JSON.stringify(eventAsSeenBy(e, reader)));
  return run.threw === null ? read : [...read, `threw ${run.threw}`];
}

function readDice(run: Run, reader: SideId | null): string[] {
  return run.rolls.map((r) => (r.visibleTo === undefined || (reader !== null && r.visibleTo.includes(reader)) ? `d${r.sides} ${r.purpose} = ${r.value}` : `d${r.sides} secret`));
}

function redactedFor(e: RulesEvent, reader: SideId | null): boolean {
  return e.visibility.to === 'sides' && (reader === null || !e.visibility.sides.includes(reader));
}

/** Whether the rules let `run` part from another run at event `k`, as `reader` reads it. */
function mayPart(run: Run, k: number, reader: SideId | null): boolean {
  for (let i = 0; i <= k && i < run.events.length; i++) if (run.events[i]!.reveals === true) return true;
  const e = run.events[k];
  if (e === undefined) return false;
  if (e.type === 'AttackCancelled' || ASKED.has(e.type) || ASKED.has(nextBesidesRecords(run, k)?.type ?? '')) return true;
  if (e.type === 'UnitMoved' && (e.data as { stoppedBy?: unknown }).stoppedBy !== undefined) return true;
  if (!RESULT_TYPES.has(e.type)) return false;
  // The results of the last attack before it, when that attack's defender (or attackers) were hidden from the reader.
  for (let i = k - 1; i >= 0; i--) {
    const before = run.events[i]!;
    if (AFTER_ATTACK.has(before.type)) continue;
    return before.type === 'AttackResolved' && redactedFor(before, reader);
  }
  return false;
}

/** The event after `k`, past the side's records a run logs just before it stops for a reaction. */
function nextBesidesRecords(run: Run, k: number): RulesEvent | undefined {
  let i = k + 1;
  while (run.events[i]?.type === SECRETS_APPLIED) i++;
  return run.events[i];
}

/** '' when `reader` reads the two runs alike as far as the rules require; else where they part. */
export function partingLeak(a: Run, b: Run, reader: SideId | null): string {
  const [ea, eb] = [readEvents(a, reader), readEvents(b, reader)];
  let k = 0;
  while (k < ea.length && k < eb.length && ea[k] === eb[k]) k++;
  if (k === ea.length && k === eb.length) {
    const [da, db] = [readDice(a, reader), readDice(b, reader)];
    const d = da.findIndex((x, i) => x !== db[i]);
    const at = d >= 0 ? d : da.length !== db.length ? Math.min(da.length, db.length) : -1;
    return at < 0 ? '' : `roll #${at + 1} reads ${da[at] ?? '(none)'} / ${db[at] ?? '(none)'} (${da.length} / ${db.length} rolls)`;
  }
  if (mayPart(a, k, reader) || mayPart(b, k, reader)) return '';
  const types = (r: Run) => r.events.map((e) => e.type).join(' ');
  return `event #${k + 1} reads ${(ea[k] ?? '(none)').slice(0, 400)} / ${(eb[k] ?? '(none)').slice(0, 400)} (events: ${types(a)} / ${types(b)})`;
}
