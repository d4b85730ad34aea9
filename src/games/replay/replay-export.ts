import type { GameSystem, RulesEvent, SideId } from '../../rules/engine/types';
import type { JsonObject } from '../../rules/model/json';
import { DomainError } from '../../common/errors';
import { decideSubmission } from '../commands/check-submission';
import { diceDrafts } from '../commands/dice-drafts';
import { RecordingDice } from '../dice/server-dice';
import { brief, shown } from '../dice/roll-uses';
import { AppEvent, GameEnvelope } from '../game-envelope';
import { foldGame } from '../game-fold';
import { missedDeadlineEvents } from '../scheduler/missed-deadline';
import { withStandingOrders } from '../standing-overlay';
import { Comparable, differences, normal } from './replay-diff';
import { Divergence, isObj, Logged, loggedAnswers, loggedSource, readLog, segmentEnd, standingOf } from './replay-log';

export interface ReplayReport {
  /** False when the export's game system is not one this verifier plays, or its log does not open a game: nothing was replayed. */
  replayed: boolean;
  /** Decisions made again: the game's start and every submission (a pass or an expired window included). */
  decisions: number;
  /** Each place where the log does not follow from the orders, the scenario and the rolls. */
  mismatches: string[];
  /** What the replay took from the log as it stands, unable to derive it from the export. */
  trusted: string[];
}

/**
 * Plays an exported game again with the server's own decisions (README "Verifiable dice"): the
 * start of the game from the scenario its first rules event carries; each submission checked and
 * resolved from the orders its PhaseSubmitted recorded (decideSubmission); each pass and expired
 * reaction window of a missed deadline (missedDeadlineEvents). The rolls are the log's (the dice
 * verifier checks them against the seed) and must be the ones the rules ask for, in turn; every
 * rules event and roll of the decision must be the one the rules give. The log is folded as
 * logged, so each decision is checked on the game the log says it was made on, and every
 * mismatch is reported, not only the first. Anything malformed is a mismatch, never an exception.
 */
export function replayExport(exported: unknown, systems: readonly GameSystem[]): ReplayReport {
  const report: ReplayReport = { replayed: false, decisions: 0, mismatches: [], trusted: [] };
  try {
    return replayInto(report, exported, systems);
  } catch (err) {
    // Only a value the stack cannot follow (JSON nested deeper than any game's) gets here.
    report.mismatches.push(`cannot replay the rest of the log: ${brief(err instanceof Error ? err.message : String(err))}`);
    return report;
  }
}

function replayInto(report: ReplayReport, exported: unknown, systems: readonly GameSystem[]): ReplayReport {
  const doc = isObj(exported) ? exported : {};
  const events = readLog(doc['events']);
  const created = events?.[0]?.type === AppEvent.GameCreated && isObj(events[0].data) ? events[0].data : undefined;
  if (!events || !created) {
    report.trusted.push('nothing replayed: the log is not a list of events opened by GameCreated');
    return report;
  }
  const system = systems.find((s) => s.id === created['systemId']);
  if (!system) {
    report.trusted.push(`nothing replayed: this verifier does not have the rules of game system ${shown(created['systemId'])}`);
    return report;
  }
  report.replayed = true;
  const standing = standingOf(doc['standingOrders']);
  const answeredBy: number[] = [];
  const unlogged: number[] = [];
  const withoutLast: string[] = [];
  let state: GameEnvelope | undefined;
  for (let k = 0; k < events.length; ) {
    const end = segmentEnd(events, k);
    const seg = events.slice(k, end);
    const first = seg[0]!;
    if (first.type === AppEvent.GameCreated || first.type === AppEvent.PhaseSubmitted) {
      report.decisions += 1;
      decide(system, state, seg, created, standing, { report, answeredBy, unlogged, withoutLast });
    } else {
      for (const e of seg) if (e.meta.source === 'rules') report.mismatches.push(`event ${e.version} (${brief(e.type)}): a rules event that no submission produced (it follows event ${first.version}, ${brief(first.type)})`);
    }
    try {
      for (const e of seg) state = foldGame(system, state, { type: e.type, data: e.data, version: e.version, meta: { source: e.meta.source, time: e.meta.time, reveals: e.meta.reveals } });
    } catch (err) {
      report.mismatches.push(`cannot replay beyond event ${first.version}: the log's events do not fold (${brief((err as Error).message)})`);
      return report;
    }
    k = end;
  }
  if (unlogged.length) report.trusted.push(`taken as logged, not replayed: the rules events of the submissions at event(s) ${unlogged.join(', ')}, whose PhaseSubmitted holds no orders (logged before orders were recorded)`);
  if (answeredBy.length) report.trusted.push(`taken as logged: the answers standing orders gave at event(s) ${answeredBy.join(', ')} (standing orders are kept beside the log, not in it)`);
  if (Object.keys(standing).length) {
    const others = withoutLast.length ? `; the decision(s) at event(s) ${withoutLast.join(', ')} follow from the log without those sides' last ones (set later, as the log cannot tell)` : '';
    report.trusted.push(`standing orders: the export holds only each side's last ones (standingOrders), with which the replay decides${others}`);
  }
  return report;
}

interface Tally {
  report: ReplayReport;
  answeredBy: number[];
  unlogged: number[];
  /** The decisions that follow from the log only without some side's last standing orders: "version (sides)". */
  withoutLast: string[];
}

/**
 * Makes the decision that opens `seg` again and compares what it comes to with the log. The
 * standing orders then in force are not in the export, only each side's last ones: the decision
 * is made with those, and, should the log not follow, with a side's left out (as before it set
 * any). The log passes if it follows from one of them: any standing orders were the side's to
 * give. Else the differences with its last ones are reported.
 */
function decide(system: GameSystem, state: GameEnvelope | undefined, seg: Logged[], created: Record<string, unknown>, standing: Record<string, JsonObject>, t: Tally): void {
  const sides = Object.keys(standing);
  let firstTry: Attempt | undefined;
  for (let dropped = 0; dropped < 2 ** sides.length; dropped++) {
    const used = Object.fromEntries(Object.entries(standing).filter((_, i) => !(dropped & (1 << i))));
    const tried = attempt(system, state, seg, created, used);
    firstTry ??= tried;
    if (tried.unlogged) t.unlogged.push(seg[0]!.version);
    if (tried.mismatches.length === 0 || tried.unlogged) {
      t.answeredBy.push(...tried.answered);
      const without = sides.filter((_, i) => dropped & (1 << i));
      if (without.length) t.withoutLast.push(`${seg[0]!.version} (${without.join(', ')})`);
      return;
    }
  }
  t.answeredBy.push(...firstTry!.answered);
  t.report.mismatches.push(...firstTry!.mismatches);
}

interface Attempt {
  mismatches: string[];
  /** The ReactionAnswered events whose standing orders' answers it took from the log. */
  answered: number[];
  /** The submission's orders are not in the log: nothing was decided. */
  unlogged?: true;
}

function attempt(system: GameSystem, state: GameEnvelope | undefined, seg: Logged[], created: Record<string, unknown>, standing: Record<string, JsonObject>): Attempt {
  const first = seg[0]!;
  const d = isObj(first.data) ? first.data : {};
  const out: Attempt = { mismatches: [], answered: [] };
  const label = first.type === AppEvent.GameCreated ? 'of the start of the game' : `of ${String(d['side'])}'s ${d['auto'] ? 'missed deadline' : String(d['kind'])} (event ${first.version})`;
  const rolls = seg.filter((e) => e.type === AppEvent.DiceRolled);
  const rules = seg.filter((e) => e.meta.source === 'rules');
  const dice = new RecordingDice(state?.diceCounter ?? 0, loggedSource(rolls));
  let derived: RulesEvent[];
  try {
    if (first.type === AppEvent.GameCreated) {
      const scenario = isObj(rules[0]?.data) ? rules[0].data['scenario'] : undefined;
      derived = system.start(scenario, { sides: Array.isArray(created['sides']) ? (created['sides'] as SideId[]) : [] });
    } else {
      if (!state || state.rules === undefined) throw new Error('a submission before the game started');
      const side = String(d['side']);
      const answers = loggedAnswers(rules, out.answered);
      const game = { state: { ...state, rules: withStandingOrders(system, state.rules, standing) }, version: first.version - 1, system };
      if (d['auto']) {
        const phase = system.phase(game.state.rules);
        if (!phase.acting.includes(side) || (phase.mode === 'reaction') !== (d['kind'] === 'reaction')) throw new Error(`no ${String(d['kind'])} of side ${side} is due (${phase.mode}, acting: ${phase.acting.join(', ') || 'none'})`);
        const events = missedDeadlineEvents(system, game.state.rules, side, phase.mode, dice, answers);
        if (!events) throw new Error(`the rules refuse side ${side} a pass`);
        derived = events;
      } else if (!('orders' in d)) {
        return { ...out, unlogged: true };
      } else {
        const kind = d['kind'] as 'orders' | 'reaction' | 'standing-orders';
        derived = decideSubmission(game, side, first.version - 1, { kind, orders: d['orders'] }, new Date(first.meta.time ?? NaN), dice, answers);
      }
    }
  } catch (err) {
    const why = err instanceof DomainError ? `the service refuses it (${err.code}): ${err.message}` : err instanceof Divergence ? err.message : `the rules cannot replay it: ${err instanceof Error ? err.message : String(err)}`;
    out.mismatches.push(`event ${first.version} (${brief(first.type)}), ${label.replace(/ \(event \d+\)$/, '')}: ${brief(why)}`);
    return out;
  }
  compare(`rolls ${label}`, rolls, diceDrafts(dice.rolls).map((r) => ({ type: r.type, data: r.data, visibility: r.visibility, reveals: false })), out.mismatches);
  compare(label, rules, derived.map((e) => ({ type: e.type, data: e.data, visibility: e.visibility, reveals: e.reveals === true })), out.mismatches);
  return out;
}

/** How many differing events of one decision are reported one by one; the rest are counted. */
const LISTED = 5;

/**
 * The logged events against those the rules give, in order, each difference reported field by
 * field: the first few of a decision, then a count (a changed result changes what follows it).
 */
function compare(label: string, logged: Logged[], derived: Comparable[], mismatches: string[]): void {
  let listed = 0;
  let more = 0;
  for (let i = 0; i < Math.max(logged.length, derived.length); i++) {
    const l = logged[i];
    const d = derived[i];
    let problem: string | null = null;
    if (!l) problem = `after event ${logged.at(-1)?.version ?? '?'}, ${label}: the rules give ${derived.length - logged.length} more event(s) than the log has: ${derived.slice(logged.length).map((e) => e.type).join(', ')}`;
    else if (!d) problem = `event ${l.version} (${brief(l.type)}), ${label}: not what the rules give (they give ${derived.length} event(s) here, the log has ${logged.length})`;
    else {
      const [a, b] = [normal(comparable(l)), normal(d)];
      if (JSON.stringify(a) !== JSON.stringify(b)) problem = `event ${l.version} (${brief(l.type)}), ${label}: ${differences(a, b).join('; ')}`;
    }
    if (problem === null) continue;
    if (listed < LISTED) {
      mismatches.push(problem);
      listed += 1;
    } else more += 1;
    if (!l || !d) break;
  }
  if (more) mismatches.push(`${label}: ${more} later event(s) differ too`);
}

function comparable(e: Logged): Comparable {
  return { type: e.type, data: e.data, visibility: e.meta.visibility, reveals: e.meta.reveals === true };
}

