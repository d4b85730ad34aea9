import { createHash } from 'node:crypto';
import { DeadlineWorker } from '../../src/games/scheduler/deadline-worker';
import { GameLoader } from '../../src/games/game-loader';
import type { GameEnvelope } from '../../src/games/game-envelope';
import { campaign, CampaignEventExpect, CampaignStep } from '../../src/rules/systems/gators/examples';
import type { GState } from '../../src/rules/systems/gators/ext';
import { SECRETS_APPLIED, SecretsApplied } from '../../src/rules/engine/events';
import { matches } from '../../src/rules/testing/case-runner';
import { FakeClock } from '../support/games-harness';
import { gatorsEntry } from '../support/gators-game';
import { IsolatedDatabase, isolatedDatabase, onPostgresServer } from '../support/isolated-database';
import { uniqueId } from '../support/database';
import { apiApp, ApiApp, TestPlayer } from './support/api-app';
import { ApiEvent, CampaignTransport, graphqlTransport, restTransport, ScriptedDice, StepOutcome } from './support/campaign-client';
import { GameClient, GameState, GraphqlClient, RestClient } from './support/game-client';

const HOUR = 3_600_000;
const REACTION_HOURS = 6;
/** Strings that would give away P2's breakdown roll or its result (GT-4.8, GT-4.9). */
const BREAKDOWN_SECRETS = ['BreakdownDetermined', 'breakdownChoice', '"broken"', 'serviceable', 'breakdown roll'];

const TRANSPORTS: Array<[string, CampaignTransport, (app: ApiApp, p: TestPlayer) => GameClient]> = [
  ['GraphQL', graphqlTransport, (app, p) => new GraphqlClient(app, p)],
  ['REST', restTransport, (app, p) => new RestClient(app, p)],
];

interface PlayedStep {
  index: number;
  step: CampaignStep;
  before: GameState;
  /** The acting side's outcome; null for a window left to expire. */
  outcome: StepOutcome | null;
  /** The versions the step wrote (an expiry's included). */
  from: number;
  to: number;
  /** P2's units under camouflage right after the step, from the server's own state. */
  hidden: string[];
  /** The game as each player read it right after the step. */
  us: GameState;
  island: GameState;
  /** After a step of the island player's (or the clock's): the new events as the US player read them. */
  usEvents: ApiEvent[] | null;
}

function eventMatches(e: ApiEvent, want: CampaignEventExpect): boolean {
  if (typeof want === 'string') return e.type === want;
  return e.type === want.type && (want.data === undefined || matches(e.data, want.data));
}

/** What does not hold of a step's expected events (in order) and absent events, in `logged` (a sealed setup's secrets opened up). */
function unmetEvents(p: PlayedStep, logged: ApiEvent[]): string[] {
  const events = logged.flatMap((e) => (e.type === SECRETS_APPLIED ? (e.data as SecretsApplied).events.map((x) => ({ ...e, type: x.type, data: x.data })) : [e]));
  const out: string[] = [];
  const where = `step ${p.index} (turn ${p.step.turn} ${p.step.phase})`;
  let from = 0;
  for (const want of p.step.expect.events ?? []) {
    const i = events.findIndex((e, j) => j >= from && eventMatches(e, want));
    if (i < 0) {
      out.push(`${where}: no ${JSON.stringify(want)} in ${JSON.stringify(events.slice(from).map((e) => ({ type: e.type, data: e.data })))}`);
      break;
    }
    from = i + 1;
  }
  for (const t of p.step.expect.absent ?? []) if (events.some((e) => e.type === t)) out.push(`${where}: ${t} should not occur`);
  return out;
}

const ofType = (events: ApiEvent[], type: string) => events.filter((e) => e.type === type).map((e) => e.data as Record<string, unknown>);

/**
 * The scripted Gators! campaign (src/rules/systems/gators/examples/campaign.json) replayed
 * through the API by two clients, the US player (P1) and the island player (P2), each with
 * their own token: the sealed setups, eight turns with anti-landing fire answered, left to
 * expire on the server's clock and decided by standing orders, bombardment, air strikes,
 * guerrillas, the airfield, and P1's victory. The app's dice hand out each step's rolls in
 * order; an expiring window is run by the deadline worker after the app's clock passes it.
 *
 * Each transport plays in its own database (on a Postgres server): the deadline worker claims
 * every due job of its database, and this file's clock runs days ahead.
 */
describe.each(TRANSPORTS)('the Gators! campaign through %s, as the US and the island player', (name, transport, clientFor) => {
  const steps = campaign().steps;
  const dice = new ScriptedDice();
  const clock = new FakeClock('2027-02-01T08:00:00.000Z');
  let db: IsolatedDatabase | null = null;
  let app: ApiApp;
  let played: PlayedStep[] = [];
  let gameId: string;
  let us: GameClient;
  let island: GameClient;
  /** Every answer the US player got while the game ran, with the step it came in. */
  const usSaw: Array<{ index: number; text: string }> = [];
  /** The island player's board right after its setup: the check below must be able to find what it looks for. */
  let islandBoardAtSetup = '';

  beforeAll(async () => {
    if (onPostgresServer) db = await isolatedDatabase(`campaign_${name}`);
    app = await apiApp(db ? { DATABASE_URL: db.url } : {}, { entries: [gatorsEntry()], clock, dice: dice.factory });
  });
  afterAll(async () => {
    await app?.close();
    await db?.drop();
  });

  const hiddenNow = async (): Promise<string[]> => {
    const { state } = await app.running.app.get(GameLoader).load(gameId);
    const rules = (state as GameEnvelope).rules as GState;
    return Object.values(rules.units).filter((u) => u.side === 'P2' && u.hidden !== undefined).map((u) => u.id);
  };

  it('replays every step with its dice, the expiry on the server\'s clock, to P1\'s victory', async () => {
    us = clientFor(app, await app.player('Uma', 'America/New_York'));
    island = clientFor(app, await app.player('Ivo'));
    const players = { P1: us, P2: island } as Record<string, GameClient>;
    const created = await us.createGame('gators-unnarstan', 'P1', { reactionHours: REACTION_HOURS });
    gameId = created.id;
    await island.join(await us.invite(gameId, 'P2'));

    for (const [index, step] of steps.entries()) {
      const actor = players[step.side]!;
      const before = await actor.game(gameId);
      expect([index, before.status, before.turn, before.phase, before.acting.includes(step.side)]).toEqual([index, 'active', step.turn, step.phase, true]);
      dice.load(step.dice);
      let outcome: StepOutcome | null = null;
      if (step.expire) {
        // Only the island player is asked; nobody answers, and the window runs out.
        expect(before).toMatchObject({ mode: 'reaction', reaction: { side: 'P2' } });
        clock.advance((REACTION_HOURS + 1) * HOUR);
        const worker = app.running.app.get(DeadlineWorker);
        while ((await worker.tick()) > 0);
      } else {
        outcome = await transport.submit(app, actor.player, gameId, before.version, step.submission, uniqueId(`campaign-${index}`));
        if (step.side === 'P1') usSaw.push({ index, text: outcome.raw });
      }
      expect([index, 'forced dice left', dice.remaining]).toEqual([index, 'forced dice left', 0]);
      const usNow = await us.game(gameId);
      const islandNow = await island.game(gameId);
      // Standing orders are kept beside the log: setting them moves no version.
      if (step.submission?.kind === 'standing-orders') expect([index, usNow.version]).toEqual([index, before.version]);
      else expect(usNow.version).toBeGreaterThan(before.version);
      const ph = step.expect.phase ?? {};
      for (const key of ['turn', 'phase', 'mode', 'acting'] as const) if (key in ph) expect([index, key, usNow[key]]).toEqual([index, key, ph[key]]);
      let usEvents: ApiEvent[] | null = null;
      if (usNow.status !== 'finished') {
        usSaw.push({ index, text: JSON.stringify(usNow) }, { index, text: JSON.stringify((await us.view(gameId)).raw) });
        // The US player's own reads of the log, whenever the island player has just acted or the clock did.
        if (step.side === 'P2') {
          const read = await transport.eventsSince(app, us.player, gameId, before.version + 1);
          usSaw.push({ index, text: read.raw });
          usEvents = read.events;
        }
      }
      if (index === 1) islandBoardAtSetup = JSON.stringify((await island.view(gameId)).raw);
      played.push({ index, step, before, outcome, from: before.version + 1, to: usNow.version, hidden: await hiddenNow(), us: usNow, island: islandNow, usEvents });
    }
    expect(dice.fromSeed).toBe(0);

    const final = await us.game(gameId);
    expect(final).toMatchObject({ status: 'finished', phase: 'ended', result: { winner: 'P1' } });
    expect(final.seed).toMatch(/^[0-9a-f]{64}$/);
    expect(createHash('sha256').update(Buffer.from(final.seed!, 'hex')).digest('hex')).toBe(final.seedCommitment);
    expect(await island.game(gameId)).toMatchObject({ status: 'finished', result: { winner: 'P1' }, seed: final.seed });
  }, 300_000);

  const labelled = (label: string): PlayedStep => {
    const p = played.find((x) => x.step.labels.includes(label));
    if (!p) throw new Error(`the campaign was not played (or has no step "${label}")`);
    return p;
  };
  const after = (p: PlayedStep): PlayedStep => played[p.index + 1]!;
  const history = (c: GameClient) => c.history(gameId);
  const between = (events: ApiEvent[], p: PlayedStep) => events.filter((e) => e.version >= p.from && e.version <= p.to);

  it('meets every step\'s expected events, read from the whole log once the game is over', async () => {
    expect(played).toHaveLength(steps.length);
    const all = (await history(us)).events as ApiEvent[];
    // The engine's StandingOrdersSet (the rules-level campaign checks it) is kept out of the log.
    const logged = played.filter((p) => p.step.submission?.kind !== 'standing-orders');
    expect(logged.length).toBeLessThan(played.length);
    expect(logged.flatMap((p) => unmetEvents(p, between(all, p)))).toEqual([]);
  });

  it('asks the island player alone to react to a landing, and P1\'s move waits for the answer', async () => {
    const asked = labelled('landing-answered');
    // The US player's answer, and the game as each player reads it: only the island player is
    // asked, which both read (as their histories tell it).
    expect(asked.outcome!.phase).toMatchObject({ mode: 'reaction', acting: ['P2'], reaction: { side: 'P2', kind: 'anti-landing' } });
    expect(asked.us).toMatchObject({ mode: 'reaction', acting: ['P2'], reaction: { side: 'P2', kind: 'anti-landing' } });
    expect(asked.island).toMatchObject({ mode: 'reaction', acting: ['P2'], reaction: { side: 'P2', kind: 'anti-landing' } });
    const answer = after(asked);
    expect(answer.before.reaction).toMatchObject({ side: 'P2', kind: 'anti-landing' });
    // Which of the island's units may fire is the island player's to know.
    for (const s of usSaw.filter((x) => x.index === asked.index)) expect(s.text).not.toMatch(/eligible|p2-dragon-1"\]/);
    // The answer resumes P1's orders: the fire is resolved, then the squads land and merge.
    expect(answer.outcome!.phase).toMatchObject({ turn: 2, phase: 'p1-combat', mode: 'sequential', acting: ['P1'], reaction: null });
    expect(ofType(answer.outcome!.events, 'AttackResolved')).toEqual([expect.objectContaining({ cause: 'anti-landing', defender: 'p1-aav-1', roll: 4, result: 'n/r' })]);
    expect(answer.outcome!.events.map((e) => e.type)).toEqual(expect.arrayContaining(['ReactionAnswered', 'UnitUnloaded', 'SquadsMerged']));
    // The second window too is the island player's alone.
    const second = labelled('landing-expired');
    expect(second.island.reaction).toMatchObject({ side: 'P2', kind: 'anti-landing' });
    expect(second.us.reaction).toMatchObject({ side: 'P2', kind: 'anti-landing' });
    expect(second.outcome!.phase.reaction).toMatchObject({ side: 'P2', kind: 'anti-landing' });
  });

  it('lets a window expire on the server\'s clock: "no reaction" applies and P1\'s move goes on', async () => {
    const expired = after(labelled('landing-expired'));
    expect(expired.step.expire).toBe(true);
    for (const side of [island, us]) {
      const events = between((await history(side)).events as ApiEvent[], expired);
      expect(events.map((e) => e.type)).toContain('ReactionAnswered');
      expect(ofType(events, 'AttackResolved')).toEqual([]);
      expect(ofType(events, 'AirfieldCaptured')).toEqual([{ airfield: 'af-llanos', side: 'P1', by: 'p1-rp-lsd-1' }]);
    }
    const islandEvents = between((await history(island)).events as ApiEvent[], expired);
    expect(ofType(islandEvents, 'ReactionAnswered')).toEqual([expect.objectContaining({ answer: { attackers: [] }, by: 'expiry' })]);
    expect(after(expired).before).toMatchObject({ turn: 3, phase: 'p1-combat', mode: 'sequential', acting: ['P1'], reaction: null });
  });

  it('decides a window by standing orders without a pause, and the US player never reads the standing orders', async () => {
    const set = labelled('standing-set');
    // Kept beside the log: setting them appends nothing, so the US player cannot tell it happened.
    expect(set.outcome!.events).toEqual([]);
    expect(set.to).toBe(set.from - 1);
    const standing = labelled('landing-standing');
    const o = standing.outcome!;
    expect(o.events.map((e) => e.type)).not.toContain('ReactionRequested');
    expect(ofType(o.events, 'ReactionAnswered')).toEqual([expect.objectContaining({ by: 'standing-orders' })]);
    expect(ofType(o.events, 'AttackResolved')).toEqual([expect.objectContaining({ cause: 'anti-landing', defender: 'p1-aav-3', roll: 5, result: 'D R1' })]);
    expect(o.phase).toMatchObject({ turn: 4, phase: 'p1-combat', mode: 'sequential', acting: ['P1'], reaction: null });
    // One submission, no window: the next step is P1's own, at once.
    expect(after(standing).before).toMatchObject({ phase: 'p1-combat', acting: ['P1'], reaction: null });
    for (const s of usSaw.filter((x) => x.index >= set.index && x.index < standing.index)) expect(s.text).not.toContain('"anti-landing":"all"');
  });

  it('brings combat results to the acting player in the outcome events', () => {
    const bombardment = labelled('bombardment').outcome!;
    expect(ofType(bombardment.events, 'AttackResolved')).toEqual([expect.objectContaining({ target: '1218', roll: 4, result: 'D X', attackerResultIgnoredFor: ['p1-how155-1'] })]);
    expect(ofType(bombardment.events, 'UnitEliminated')).toEqual([expect.objectContaining({ unit: 'p2-dragon-1' })]);
    const strike = labelled('strike-1').outcome!;
    expect(ofType(strike.events, 'AirAttackMarkersUsed')).toEqual([expect.objectContaining({ unit: 'p1-av8b-1', count: 1, mustReturn: true })]);
    expect(ofType(strike.events, 'AttackResolved')).toEqual([expect.objectContaining({ cause: 'air-strike', defender: 'p2-inf-1', roll: 6, result: 'D X' })]);
    expect(ofType(strike.events, 'AttackCancelled')).toEqual([expect.objectContaining({ target: '1114', reason: 'pre_roll_failed', roll: 3 })]);
    const second = labelled('strike-2').outcome!;
    expect(ofType(second.events, 'AttackResolved')).toEqual([expect.objectContaining({ cause: 'air-strike', defender: 'p2-dragon-2', roll: 4, result: 'D X' })]);
    expect(ofType(labelled('guerrillas-raised').outcome!.events, 'GuerrillasRaised')).toEqual([expect.objectContaining({ unit: 'p2-guerrillas-1', hex: '1114', roll: 4 })]);
    expect(ofType(labelled('airfield-activated').outcome!.events, 'AirfieldActivated')).toEqual([{ airfield: 'af-llanos', side: 'P1', by: 'p1-ch53-1' }]);
    // The rules' end (with its rule) and the application's (the game's result).
    const ended = ofType(labelled('victory').outcome!.events, 'GameEnded');
    expect(ended).toContainEqual(expect.objectContaining({ winner: 'P1', ruleId: 'GT-8.1' }));
    expect(ended.every((e) => e['winner'] === 'P1')).toBe(true);
  });

  it('never shows the US player a camouflaged unit\'s identity or the breakdown roll while the game runs', async () => {
    expect(usSaw.length).toBeGreaterThan(steps.length * 2);
    // The camouflage the island player set up: a "?" in the jungle (revealed in turn 1) and nine units in the east all game.
    expect(played[1]!.hidden).toContain('p2-inf-1');
    expect(played[played.length - 1]!.hidden).toContain('p2-hawk-2');
    for (const id of played[1]!.hidden) expect(islandBoardAtSetup).toContain(`"${id}"`);
    expect(islandBoardAtSetup).toContain('"broken"');
    for (const s of usSaw) {
      const hidden = played[s.index]!.hidden;
      for (const id of hidden) expect([s.index, id, s.text.includes(`"${id}"`)]).toEqual([s.index, id, false]);
      for (const secret of BREAKDOWN_SECRETS) expect([s.index, secret, s.text.includes(secret)]).toEqual([s.index, secret, false]);
    }
    // The island player's breakdown roll was made and logged: the US player learns only that it was.
    const setup = played[1]!;
    const usRolls = ofType(setup.usEvents!, 'DiceRolled');
    const islandRolls = ofType(setup.outcome!.events, 'DiceRolled');
    expect(islandRolls).toEqual([expect.objectContaining({ value: 2 })]);
    expect(usRolls).toHaveLength(1);
    expect(usRolls[0]).not.toHaveProperty('value');
    // Once the game is over, everything is revealed: the US player can now read what was hidden.
    const usAfter = JSON.stringify((await history(us)).events);
    expect(usAfter).toContain('"p2-hawk-2"');
  });
});
