import { scenarioVersionOf } from '../catalog-builder';
import { brief, LoggedEvent, LoggedRoll, rollUseProblems, shown } from './roll-uses';
import { commitmentOf, rollFromSeed } from './server-dice';

export interface DiceReport {
  ok: boolean;
  rolls: number;
  problems: string[];
}

type Obj = Record<string, unknown>;
interface Event extends LoggedEvent {
  source: unknown;
}

/**
 * Checks the dice of an exported game (README "Verifiable dice"). The log: a list of events
 * numbered 1, 2, 3, ... up to the game's version, opened by the one GameCreated (which published
 * the commitment) and closed by GameEnded and SeedRevealed (which reveals the export's seed).
 * Each roll: well-formed, numbered 1, 2, 3, ..., right after its PhaseSubmitted or another roll,
 * of a die the scenario rolls, and the value the seed gives. The rules events: each roll they
 * record is the roll of the log they used (roll-uses.ts). Anything malformed is a problem in the
 * list, never an exception.
 */
export function verifyDice(exported: unknown): DiceReport {
  const doc = isObject(exported) ? exported : {};
  if (doc['format'] !== 'fieldpost.game-export') return failed('not a Fieldpost game export (format)');
  // Another version may mean other things by the same fields: checking it as version 1 could pass what it should not.
  if (doc['formatVersion'] !== 1) return failed(`formatVersion is ${doc['formatVersion'] === undefined ? 'missing' : shown(doc['formatVersion'])}: this verifier reads version 1 of the export format`);
  const dice = isObject(doc['dice']) ? doc['dice'] : {};
  const problems: string[] = [];
  // Without a seed no roll can be checked, but the rest can: a client is told every fault at once.
  const seed = readSeed(dice['seed'], problems);
  if (!Array.isArray(doc['events'])) return { ok: false, rolls: 0, problems: [...problems, 'events is not a list'] };
  if (seed !== undefined && commitmentOf(seed) !== dice['seedCommitment']) problems.push('the revealed seed does not match the published commitment');
  const events = readEvents(doc['events'], doc['game'], problems);
  frameProblems(events, seed, dice['seedCommitment'], problems);
  scenarioProblems(doc['scenario'], events, problems);
  headerProblems(doc, events, problems);
  const rolls = readRolls(events, problems);
  const sizes = dieSizes(events, problems);
  for (const r of rolls.values()) {
    if (sizes && !sizes.includes(r.sides)) problems.push(`event ${r.version}: roll ${r.n} is a d${r.sides}, but the scenario rolls only ${sizes.map((s) => `d${s}`).join(', ')}`);
    const value = seed === undefined ? r.value : rollFromSeed(seed, r.n, r.sides);
    if (value !== r.value) problems.push(`event ${r.version}: roll ${r.n} (d${r.sides}, ${brief(r.purpose)}) is ${r.value}, the seed gives ${value}`);
  }
  // Not push(...): a forged log can hold more problems than a call takes arguments.
  for (const p of rollUseProblems(events, rolls)) problems.push(p);
  return { ok: problems.length === 0, rolls: rolls.size, problems };
}

/** The revealed seed, or undefined with the problem: none (a game exported before its end), or not a seed. */
function readSeed(seed: unknown, problems: string[]): string | undefined {
  if (seed === undefined || seed === null) problems.push('the export has no revealed seed (dice.seed): a game exported before its end has none');
  else if (typeof seed !== 'string' || !/^[0-9a-f]{64}$/.test(seed)) problems.push(`dice.seed is not a revealed seed (64 lowercase hex digits): ${shown(seed)}`);
  else return seed;
  return undefined;
}

/** The well-formed events; the versions must run 1, 2, 3, ... and end at the game's version. */
function readEvents(raw: unknown[], game: unknown, problems: string[]): Event[] {
  const events: Event[] = [];
  let numbered = true;
  raw.forEach((e, k) => {
    if (!isObject(e) || !Number.isInteger(e['version']) || typeof e['type'] !== 'string') {
      problems.push(`events[${k}] is not an event (an object with an integer version and a type)`);
      return;
    }
    if (numbered && e['version'] !== k + 1) {
      problems.push(`event versions must run 1, 2, 3, ...: events[${k}] is version ${String(e['version'])}`);
      numbered = false;
    }
    events.push({ version: e['version'] as number, type: e['type'], data: e['data'], source: isObject(e['meta']) ? e['meta']['source'] : undefined });
  });
  const version = isObject(game) ? game['version'] : undefined;
  if (version !== raw.length) {
    problems.push(
      Number.isInteger(version)
        ? `the log ends at version ${raw.length}, but the game is at version ${version as number}: events are missing or added`
        : `the log ends at version ${raw.length}, but game.version is ${shown(version)}, not a version`,
    );
  }
  return events;
}

/** One GameCreated, first; nothing after the first GameEnded but GameEnded and a last SeedRevealed. */
function frameProblems(events: Event[], seed: string | undefined, commitment: unknown, problems: string[]): void {
  const created = events.filter((e) => e.type === 'GameCreated');
  if (created.length !== 1 || created[0]!.version !== 1) problems.push('the log must open with the one GameCreated event (version 1)');
  else if (!isObject(created[0]!.data) || created[0]!.data['seedCommitment'] !== commitment) problems.push('GameCreated published a different commitment');
  const [ended, revealed] = [events.at(-2), events.at(-1)];
  if (ended?.type !== 'GameEnded' || revealed?.type !== 'SeedRevealed' || events.filter((e) => e.type === 'SeedRevealed').length !== 1) {
    problems.push('the log must end with GameEnded and then SeedRevealed, its only SeedRevealed');
  }
  const seedEvent = events.find((e) => e.type === 'SeedRevealed');
  if (seedEvent && seed !== undefined && (!isObject(seedEvent.data) || seedEvent.data['seed'] !== seed)) problems.push(`event ${seedEvent.version} reveals a different seed`);
  const end = events.find((e) => e.type === 'GameEnded');
  for (const e of events) {
    if (end && e.version > end.version && e.type !== 'GameEnded' && e.type !== 'SeedRevealed') problems.push(`event ${e.version} (${brief(e.type)}) comes after the game ended (event ${end.version})`);
  }
}

/** The rolls by version: well-formed, numbered 1, 2, 3, ..., each right after its PhaseSubmitted or another roll. */
function readRolls(events: Event[], problems: string[]): Map<number, LoggedRoll> {
  const rolls = new Map<number, LoggedRoll>();
  let expected = 1;
  events.forEach((e, k) => {
    if (e.type !== 'DiceRolled') return;
    const before = events[k - 1]?.type;
    if (before !== 'PhaseSubmitted' && before !== 'DiceRolled') problems.push(`event ${e.version}: a roll must come right after its PhaseSubmitted or another roll, not after ${before === undefined ? 'nothing' : brief(before)}`);
    const d = isObject(e.data) ? e.data : {};
    const [n, sides, value, purpose] = [d['n'], d['sides'], d['value'], d['purpose']];
    if (!isInt(n, 1) || !isInt(sides, 2) || sides > 2 ** 31 || !isInt(value, -Infinity) || typeof purpose !== 'string') {
      problems.push(`event ${e.version}: a roll needs an integer n >= 1, an integer die size (sides) >= 2, an integer value and a purpose`);
      expected += 1;
      return;
    }
    if (n !== expected) problems.push(`event ${e.version}: roll number ${n}, expected ${expected}`);
    expected = n + 1;
    rolls.set(e.version, { version: e.version, n, sides, value, purpose });
  });
  return rolls;
}

/**
 * The export's scenario is the game's: its id, version and system are those GameCreated recorded,
 * and the scenario data the first rules event carries (the die sizes come from it) hashes to that
 * version, as the server computed it when it loaded the scenario.
 */
function scenarioProblems(scenario: unknown, events: Event[], problems: string[]): void {
  const header = isObject(scenario) ? scenario : {};
  const created = events[0]?.type === 'GameCreated' && isObject(events[0].data) ? events[0].data : undefined;
  if (!created) return;
  const fields: Array<[string, string]> = [['id', 'scenarioId'], ['version', 'scenarioVersion'], ['system', 'systemId']];
  for (const [field, createdField] of fields) {
    if (header[field] !== created[createdField]) problems.push(`scenario.${field} is ${shown(header[field])}, but the game (GameCreated) plays ${shown(created[createdField])}`);
  }
  const first = events.find((e) => e.source === 'rules');
  const data = isObject(first?.data) ? first.data['scenario'] : undefined;
  if (!first || data === undefined) return;
  const name = isObject(data) && isObject(data['manifest']) ? data['manifest']['name'] : undefined;
  if (header['name'] !== name) problems.push(`scenario.name is ${shown(header['name'])}, but the scenario data of event ${first.version} names it ${shown(name)}`);
  let version: string;
  try {
    version = scenarioVersionOf(data);
  } catch {
    problems.push(`event ${first.version} (${brief(first.type)}) carries scenario data nested too deep to check its version`);
    return;
  }
  if (version !== created['scenarioVersion'])
    problems.push(
      `event ${first.version} (${brief(first.type)}) carries scenario data that does not hash to the game's scenario version ${shown(created['scenarioVersion'])} (it hashes to ${version}): the scenario was changed, or its keys reordered (the version hashes the data as exported, keys in their order)`,
    );
}

/**
 * The export's header against its log, which is what the rest checks: the game's id, its result
 * (every GameEnded names one winner, the rules engine's and the application's alike) and who held
 * each side (the last SeatClaimed of each).
 */
function headerProblems(doc: Obj, events: Event[], problems: string[]): void {
  const game = isObject(doc['game']) ? doc['game'] : {};
  const created = events[0]?.type === 'GameCreated' && isObject(events[0].data) ? events[0].data : undefined;
  if (created && game['id'] !== created['id']) problems.push(`game.id is ${shown(game['id'])}, but the log (GameCreated) is of game ${shown(created['id'])}`);
  const winners = events.filter((e) => e.type === 'GameEnded').map((e) => (isObject(e.data) ? e.data['winner'] : undefined));
  if (new Set(winners).size > 1) problems.push(`the GameEnded events name different winners: ${winners.map(shown).join(', ')}`);
  const result = isObject(game['result']) ? game['result'] : {};
  if (winners.length > 0 && result['winner'] !== winners.at(-1)) problems.push(`game.result names winner ${shown(result['winner'])}, but the log's GameEnded names ${shown(winners.at(-1))}`);
  const claimed = new Map<unknown, unknown>();
  for (const e of events) if (e.type === 'SeatClaimed' && isObject(e.data)) claimed.set(e.data['side'], e.data['playerId']);
  const seats = Array.isArray(doc['seats']) ? doc['seats'] : [];
  const sides = created && Array.isArray(created['sides']) ? created['sides'] : [];
  if (seats.length !== sides.length) problems.push(`seats lists ${seats.length} sides, but the game (GameCreated) has ${sides.length}`);
  for (const seat of seats) {
    const side = isObject(seat) ? seat['side'] : undefined;
    const player = isObject(seat) ? seat['playerId'] : undefined;
    if (!sides.includes(side)) problems.push(`seats names side ${shown(side)}, which the game (GameCreated) does not have`);
    else if ((claimed.get(side) ?? null) !== player) problems.push(`seats: side ${shown(side)} is held by ${shown(player)}, but the log (SeatClaimed) gives it to ${shown(claimed.get(side) ?? null)}`);
  }
}

/**
 * The dice the game may roll: every `die` of the scenario's rules (the first rules event carries
 * the scenario), and the d6, the die of every section whose data leaves `die` out (the schemas'
 * default). Undefined (and a problem) when the scenario is missing.
 */
function dieSizes(events: Event[], problems: string[]): number[] | undefined {
  const first = events.find((e) => e.source === 'rules');
  const scenario = isObject(first?.data) ? first.data['scenario'] : undefined;
  const rules = isObject(scenario) ? scenario['rules'] : undefined;
  if (!isObject(rules)) {
    problems.push('the first rules event carries no scenario rules: the die sizes cannot be checked');
    return undefined;
  }
  const sizes = new Set<number>([6]);
  const walk = (x: unknown): void => {
    if (Array.isArray(x)) x.forEach(walk);
    else if (isObject(x)) for (const [k, v] of Object.entries(x)) k === 'die' && isInt(v, 2) ? sizes.add(v) : walk(v);
  };
  try {
    walk(rules);
  } catch {
    // Nested deeper than the stack goes, which no scenario the server loads is.
    problems.push(`event ${first!.version} (${brief(first!.type)}) carries scenario rules nested too deep to check the die sizes`);
    return undefined;
  }
  return [...sizes].sort((a, b) => a - b);
}

function failed(problem: string): DiceReport {
  return { ok: false, rolls: 0, problems: [problem] };
}

function isObject(x: unknown): x is Obj {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

function isInt(x: unknown, min: number): x is number {
  return Number.isInteger(x) && (x as number) >= min;
}
