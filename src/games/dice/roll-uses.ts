/**
 * Which rolls the rules events of an exported game say they used, and whether those are the
 * rolls the log holds. Within one submission the server writes PhaseSubmitted, then one
 * DiceRolled per roll in the order the engine made them, then the rules events; and the engine
 * emits the event that records a roll before it makes the next roll. So, read in order, the rules
 * events that record a roll name the rolls in roll order, and each roll's purpose says what it was
 * for. The one roll no event records is a combat pre-roll that passed (GT-7B.1): only a failed
 * one cancels the attack and is written down. The stand-in rolled before an attack on a stack
 * with a "?" whose defender calls for no pre-roll (or whose attack skips it: sabotage) is named
 * as one ("pre-roll (none: ...)") and passes by definition. The HERS blast's stand-ins for the
 * counters a marker might hide are recorded by its attack on the marker (`standIns`).
 */

export interface LoggedRoll {
  /** The version of its DiceRolled event. */
  version: number;
  n: number;
  sides: number;
  value: number;
  purpose: string;
}

export interface LoggedEvent {
  version: number;
  type: string;
  data: unknown;
}

/** A roll a rules event says it used: the value it recorded, and what the roll was for. */
interface Use {
  value: unknown;
  what: string;
  /** Whether a roll's purpose is the one this use needs. */
  fits: (purpose: string) => boolean;
}

type Data = Record<string, unknown>;

const exactly = (purpose: string): Use['fits'] => (p) => p === purpose;
const startingWith = (prefix: string): Use['fits'] => (p) => p.startsWith(prefix);
const use = (value: unknown, what: string, fits: Use['fits'] = exactly(what)): Use => ({ value, what, fits });

/**
 * The rolls each kind of rules event records, in the order they were made. The purposes are
 * those the rules engine gives its `dice.roll` calls (src/rules, see the README's "Verifiable dice").
 */
const USES: Record<string, (d: Data) => Use[]> = {
  // An odds attack (any cause but the HERS), or the HERS blast against one counter, or against the
  // counters under a marker: theirs in order, then the stand-ins. No roll when the defense is 0.
  AttackResolved: (d) => {
    if (d['roll'] === null) return [];
    if (d['cause'] !== 'hers-explosion') return [use(d['roll'], `attack on ${label(d['target'])}`)];
    const blast = (roll: unknown) => use(roll, `HERS explosion against ${label(d['target'])}`, (p) => p.startsWith('HERS explosion ') && p.endsWith(` against ${label(d['target'])}`));
    if (!Array.isArray(d['defenders'])) return [blast(d['roll'])];
    const rolls = [...d['defenders'].map((x) => (isObject(x) ? x['roll'] : undefined)), ...(Array.isArray(d['standIns']) ? d['standIns'] : [])];
    return rolls.map(blast);
  },
  AttackCancelled: (d) => (d['reason'] === 'pre_roll_failed' ? [use(d['roll'], `pre-roll ${label(d['ruleId'])} before the attack on ${label(d['target'])}`)] : []),
  BoobyTrapRolled: (d) => [
    use(d['roll'], `booby trap in ${label(d['hex'])}`, startingWith(`booby trap in ${label(d['hex'])} `)),
    ...(d['sprung'] === true ? [use(d['attackRoll'], `booby trap attack in ${label(d['hex'])}`, startingWith(`booby trap attack in ${label(d['hex'])} `))] : []),
  ],
  BreakdownDetermined: (d) => [use(isObject(d['note']) ? d['note']['roll'] : undefined, 'breakdown roll', startingWith('breakdown roll'))],
  GuerrillasRaised: (d) => [use(d['roll'], 'guerrillas', startingWith('guerrillas ('))],
  GuerrillasNotRaised: (d) => [use(d['roll'], 'guerrillas', startingWith('guerrillas ('))],
  SniperShot: (d) => [use(d['roll'], `sniper shot at ${label(d['target'])}`, startingWith(`sniper shot at ${label(d['target'])} (`))],
  MedicsRolled: (d) => [use(d['roll'], 'medics', startingWith('medics in '))],
};

const isPreRoll = (r: LoggedRoll) => r.purpose.startsWith('pre-roll ');

/**
 * Compares, submission by submission (from one PhaseSubmitted to the next), every roll a rules
 * event records with the DiceRolled roll it used. Rolls are taken in order; a pre-roll no event
 * claims is one that passed and is skipped. Every roll but a passed pre-roll must be claimed.
 */
export function rollUseProblems(events: readonly LoggedEvent[], rolls: ReadonlyMap<number, LoggedRoll>): string[] {
  const problems: string[] = [];
  let start = 0;
  for (let i = 1; i <= events.length; i++) {
    if (i < events.length && events[i]!.type !== 'PhaseSubmitted') continue;
    const submission = events.slice(start, i);
    // Not push(...): a forged submission can hold more problems than a call takes arguments.
    for (const p of submissionProblems(submission.flatMap((e) => rolls.get(e.version) ?? []), submission)) problems.push(p);
    start = i;
  }
  return problems;
}

/** The same for one submission: its rolls in order, and its events (tests also feed it the rules engine's output). */
export function submissionProblems(rolls: readonly LoggedRoll[], events: readonly LoggedEvent[]): string[] {
  const problems: string[] = [];
  let next = 0;
  for (const e of events) {
    const uses = Object.hasOwn(USES, e.type) ? USES[e.type]!(isObject(e.data) ? e.data : {}) : [];
    for (const u of uses) {
      // The first roll this use fits, past pre-rolls that passed. A failed pre-roll is also known by
      // its value: a passed one of the same rule and hex (an earlier attack there) may come first.
      const find = (ok: (r: LoggedRoll) => boolean) => {
        let i = next;
        while (i < rolls.length && !ok(rolls[i]!) && isPreRoll(rolls[i]!)) i++;
        return i;
      };
      let i = find((r) => u.fits(r.purpose) && r.value === u.value);
      if (!rolls[i] || !u.fits(rolls[i]!.purpose)) i = find((r) => u.fits(r.purpose));
      const r = rolls[i];
      if (r === undefined || !u.fits(r.purpose)) {
        problems.push(`event ${e.version} (${brief(e.type)}) records a roll of ${shown(u.value)} for "${brief(u.what)}", but no such roll comes next in its submission${r ? ` (roll ${r.n} is for "${brief(r.purpose)}")` : ''}`);
        continue;
      }
      if (r.value !== u.value) problems.push(`event ${e.version} (${brief(e.type)}) records a roll of ${shown(u.value)} for "${brief(u.what)}", but roll ${r.n} (event ${r.version}) is ${r.value}`);
      next = i + 1;
    }
  }
  for (const r of rolls.slice(next)) {
    if (!isPreRoll(r)) problems.push(`event ${r.version}: roll ${r.n} ("${brief(r.purpose)}") is recorded by no rules event of its submission`);
  }
  return problems;
}

/**
 * A value of the file as a problem names it. Lists and objects only by their kind: a forged one
 * may be nested deeper than String or JSON.stringify can follow, and long text is cut.
 */
export function shown(x: unknown): string {
  if (typeof x === 'string') return JSON.stringify(brief(x));
  if (Array.isArray(x)) return 'a list';
  if (typeof x === 'object' && x !== null) return 'an object';
  return String(x);
}

/** Text of the file cut to a length a problem can show. */
export function brief(text: string): string {
  return text.length > 80 ? `${text.slice(0, 80)}...` : text;
}

/** A hex, unit or rule id as the engine writes it into a roll's purpose. */
function label(x: unknown): string {
  return typeof x === 'string' ? x : shown(x);
}

function isObject(x: unknown): x is Data {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}
