import { join } from 'node:path';
import { loadScenario } from '../../../scenarios/load-scenario';
import { boardOf } from '../../engine/board';
import { SeededDice } from '../../dice/seeded-dice';
import { RawSubmission, RulesEvent } from '../../engine/types';
import { concealedFrom, eventAsSeenBy } from '../../engine/visibility';
import { GState } from './ext';
import { gators } from './index';
import { startCampaign } from './examples/replay';
import { acceptedBotPhase, botAnswer, botStanding, violationKeys } from '../../../../test/support/options-bot';

/**
 * Whole games of Unnarstan, from the sealed setups to the end, played by two bots that know
 * nothing of the rules but what the options tell them (test/support/options-bot.ts: each order
 * one the unit's options offer after the orders chosen before it; now and then a unit joins an
 * attack of the draft; with odd seeds, or BOT_AGGRESSIVE=1, half the time an attack when one is
 * offered, else the move nearest the enemy), with seeded dice. Each bot sets random standing
 * orders now and then; a reaction window they leave open runs out half the time, and is otherwise
 * answered as one of the side's possible standing orders would answer it. The scripted campaign and the rule cases visit
 * the positions their authors thought of; these games wander into the others.
 *
 * What must hold: every phase a bot builds is accepted (or, where it left out a unit the rules
 * say must move, as a craft launched off the map, the phase it builds giving every unit a chance
 * is), and so are its standing orders and answers; the draft stays valid order by order; nothing
 * throws (the server would answer 500); no event names, as either side reads it, a unit hidden
 * from that side all along (as the leak tests ask of each probe, here of every event); every
 * unit stands somewhere that exists (a cell of the board, a carrier or towers still in play); both
 * sides' and a spectator's views can be written; and the game ends, at its last turn or earlier.
 * BOT_SEEDS plays other games (e.g. BOT_SEEDS=1,2,3,4,5,6,7,8).
 */
const scenario = loadScenario(join(__dirname, '../../../scenarios/gators-unnarstan'));
const grid = boardOf(scenario).grid;
/** Far more than a game's steps (about 220 for 30 turns): a game that stops ending is a finding. */
const MAX_STEPS = 600;
/** Units given a chance in a phase of play (a setup gives every unit one): enough for crowded hexes and fights, few enough to stay quick. */
const UNITS_PER_PHASE = 80;

/** What the games did, in all: so that a run that never answers or combines does not pass. */
const seen = { answered: 0, expired: 0, standing: 0, attacks: 0, combined: 0 };

/** A submission the rules must accept, carried out: its events, or why it was refused. */
function carriedOut(state: GState, side: string, raw: RawSubmission, dice: SeededDice): RulesEvent[] | string {
  const p = gators.parse(state, side, raw);
  const v = p.ok ? gators.validate(state, side, p.value) : p.violations;
  if (!p.ok || v.length > 0) return v.map((x) => `${x.ruleId} ${x.code}: ${x.message}`).join(' | ');
  return gators.resolve(state, side, p.value, dice);
}

/**
 * A reaction window: half the time it runs out; otherwise the side answers what one of its
 * possible standing orders would have (or "no reaction", where they would not decide), which the
 * rules must accept.
 */
function react(state: GState, rng: SeededDice, dice: SeededDice): RulesEvent[] | string {
  const request = state.pending?.request;
  if (request === null || request === undefined) return 'a reaction phase with no request';
  if (rng.roll(2) === 1) {
    seen.expired++;
    return gators.expireReaction(state, dice);
  }
  seen.answered++;
  const answer = botAnswer(state, request, rng);
  const out = carriedOut(state, request.side, { kind: 'reaction', orders: answer }, dice);
  return typeof out === 'string' ? `the answer ${JSON.stringify(answer)} to ${request.kind} was refused: ${out}` : out;
}

interface Played {
  readonly seed: number;
  readonly steps: number;
  readonly orders: number;
  readonly kinds: ReadonlySet<string>;
  readonly end: GState['phase'];
  readonly problems: string[];
}

/** Where a unit stands that does not exist: a cell not on the board, a carrier or tower out of play. */
function misplaced(state: GState): string[] {
  const inPlay = (id: string) => state.units[id] !== undefined && state.units[id]!.loc.at !== 'eliminated';
  return Object.values(state.units).flatMap((u) => {
    const l = u.loc;
    if (l.at === 'hex' && grid.indexOf(l.hex) < 0) return [`${u.id} stands in ${l.hex}, not a cell of the board`];
    if (l.at === 'carried' && !inPlay(l.by)) return [`${u.id} is carried by ${l.by}, which is not in play`];
    if (l.at === 'towed' && !l.by.every(inPlay)) return [`${u.id} is towed by ${l.by.join(', ')}, not all in play`];
    return [];
  });
}

/**
 * The units a side reads of in the event, as that side reads it, while hidden from it all along:
 * at the start of the step, and before and after the event. (A unit seen during the step, as a
 * helicopter recovered aboard its ship, is known to the side by its id; what it reads of it then
 * is the view's and the leak tests' business.)
 */
function namedWhileHidden(states: readonly GState[], e: RulesEvent): string[] {
  return ['P1', 'P2'].flatMap((side) => {
    const read = JSON.stringify(eventAsSeenBy(e, side));
    if (read === 'null') return [];
    const hidden = (s: GState, id: string) => s.units[id] !== undefined && concealedFrom(s, s.units[id]!).includes(side);
    return Object.keys(states[0]!.units)
      .filter((id) => states.every((s) => hidden(s, id)) && read.includes(JSON.stringify(id)))
      .map((id) => `${side} reads of ${id}, hidden from it, in ${read.slice(0, 300)}`);
  });
}

function playGame(seed: number): Played {
  // Odd seeds play aggressive bots (an attack when offered, else toward the enemy): more fights.
  const aggressive = process.env.BOT_AGGRESSIVE === '1' || seed % 2 === 1;
  const rng = new SeededDice(seed);
  const dice = new SeededDice(seed * 7919 + 1);
  let state = startCampaign(scenario);
  const problems: string[] = [];
  const kinds = new Set<string>();
  let orders = 0;
  let steps = 0;
  for (; steps < MAX_STEPS && problems.length === 0; steps++) {
    const ph = gators.phase(state);
    if (ph.mode === 'ended') break;
    const at = `turn ${ph.turn} ${ph.phase} ${ph.acting[0]}`;
    try {
      let events: RulesEvent[] | string;
      if (ph.mode === 'reaction') events = react(state, rng, dice);
      else {
        const side = ph.acting[0]!;
        // Now and then (and before its first orders) the side changes its standing orders.
        if (steps < 2 || rng.roll(8) === 1) {
          const standing = botStanding(rng, side);
          const set = carriedOut(state, side, { kind: 'standing-orders', orders: standing }, dice);
          if (typeof set === 'string') problems.push(`${at}: standing orders ${JSON.stringify(standing)} refused: ${set}`);
          else {
            seen.standing++;
            state = set.reduce((s, e) => gators.evolve(s, e), state);
          }
        }
        const found: string[] = [];
        const chosen = acceptedBotPhase(state, side, rng, { units: UNITS_PER_PHASE, combine: true, aggressive }, found);
        problems.push(...found.map((p) => `${at}: ${p}`));
        if (chosen === null) problems.push(`${at}: the rules refuse every phase the bot built from the options: ${violationKeys(state, side, []).slice(0, 5).join(' | ')}`);
        if (chosen === null || problems.length > 0) break;
        orders += chosen.orders.length;
        const attacks = chosen.orders.filter((o) => o['kind'] === 'attack');
        seen.attacks += attacks.length;
        seen.combined += attacks.filter((o) => (o['attackers'] as unknown[]).length > 1).length;
        chosen.kinds.forEach((k) => kinds.add(k));
        events = carriedOut(state, side, { kind: 'orders', orders: chosen.orders }, dice);
      }
      if (typeof events === 'string') {
        problems.push(`${at}: ${events}`);
        break;
      }
      const start = state;
      for (const e of events) {
        const after = gators.evolve(state, e);
        problems.push(...namedWhileHidden([start, state, after], e).map((m) => `${at}: ${m}`));
        state = after;
      }
      problems.push(...misplaced(state).map((m) => `${at}: ${m}`));
      for (const viewer of [{ kind: 'side', side: 'P1' }, { kind: 'side', side: 'P2' }, { kind: 'spectator' }] as const) JSON.stringify(gators.view(state, viewer));
    } catch (e) {
      problems.push(`${at}: threw ${(e as Error).stack?.split('\n').slice(0, 8).join(' / ')}`);
    }
  }
  if (problems.length === 0 && state.phase.mode !== 'ended') problems.push(`not over after ${steps} steps: turn ${state.phase.turn}`);
  return { seed, steps, orders, kinds, end: state.phase, problems };
}

describe('Gators! whole games played by bots from the options', () => {
  const seeds = (process.env.BOT_SEEDS ?? '20261206,7').split(',').map(Number);
  const games = seeds.map(playGame);

  it('every game ends, with a result, and nothing on the way goes wrong', () => {
    expect(games.map((g) => [g.seed, g.problems])).toEqual(games.map((g) => [g.seed, []]));
    for (const g of games) expect(g.end).toMatchObject({ mode: 'ended', result: { reason: expect.any(String) } });
  });

  it('answers reaction windows and lets them run out, changes standing orders, and combines attacks', () => {
    expect(seen.answered).toBeGreaterThan(0);
    expect(seen.expired).toBeGreaterThan(5);
    expect(seen.standing).toBeGreaterThan(10);
    expect(seen.attacks).toBeGreaterThan(150);
    expect(seen.combined).toBeGreaterThan(10);
  });

  it('plays long games of many orders of many kinds', () => {
    for (const g of games) {
      expect(g.steps).toBeGreaterThan(50);
      expect(g.orders).toBeGreaterThan(500);
      expect(g.kinds.size).toBeGreaterThanOrEqual(12);
    }
  });
});
