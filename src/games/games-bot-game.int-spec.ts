import { SeededDice } from '../rules/dice/seeded-dice';
import { gators } from '../rules/systems/gators';
import type { GState } from '../rules/systems/gators/ext';
import { verifyDice } from './dice/verify-dice';
import { replayExport } from './replay/replay-export';
import { SYSTEMS } from '../rules/systems';
import { FakeClock, gamesHarness, GamesHarness, workerDatabase } from '../../test/support/games-harness';
import { gatorsEntry, seatedGatorsGame } from '../../test/support/gators-game';
import { acceptedBotPhase, botAnswer, botStanding } from '../../test/support/options-bot';
import { uniqueId } from '../../test/support/database';

/**
 * A whole Gators! game of two bots through the service layer (real Postgres, the notifications
 * module writing its outbox rows, the server's seeded dice): each phase built from the units'
 * options after the draft (test/support/options-bot.ts; aggressive bots, for fights: an attack when
 * offered, else the move nearest the enemy) and submitted as a player would; a reaction
 * window (the bots ask for their retreats and stack defenders) is answered as one of the side's
 * possible standing orders would, or runs out on the server's clock (the deadline worker).
 * The rules-level bot games (bot-games.spec.ts) wander far; this one carries what they find into
 * the service: the per-side history of every step, the notifications planned from each commit,
 * the deadlines, and at the end the export, whose every die the verifier re-derives from the seed.
 */
const UNITS_PER_PHASE = 80;

describe('a whole Gators! game of two bots through the service layer (real Postgres)', () => {
  let h: GamesHarness;
  let db: Awaited<ReturnType<typeof workerDatabase>>;
  const clock = new FakeClock('2027-02-01T08:00:00.000Z');
  beforeAll(async () => {
    db = await workerDatabase('bot-game');
    h = await gamesHarness({ entries: [gatorsEntry()], clock, databaseUrl: db.url, notifications: true });
  });
  afterAll(async () => {
    await h.close();
    await db.drop();
  });

  it('plays to the end: every phase, answer and expiry accepted, every history readable, every die verified', async () => {
    const g = await seatedGatorsGame(h, { reactionHours: 6 });
    const rng = new SeededDice(Number(process.env.BOT_SEED ?? 20261206));
    const problems: string[] = [];
    const seen = { submitted: 0, answered: 0, expired: 0, events: 0 };
    // Owner choices asked, not left to the engine, so that windows open for the bots to answer or let run out.
    for (const side of ['P1', 'P2']) {
      const orders = { ...botStanding(rng, side), retreat: 'ask', 'stack-defender': 'ask' };
      const expectedVersion = await h.store.currentVersion(g.gameId);
      await h.submit.execute({ gameId: g.gameId, expectedVersion, submission: { kind: 'standing-orders', orders }, idempotencyKey: uniqueId('standing') }, g.by(side));
    }
    for (let step = 0; step < 600; step++) {
      const summary = await h.queries.summary(g.gameId, g.us);
      if (summary.status === 'finished') break;
      const version = await h.store.currentVersion(g.gameId);
      const state = (await h.loader.load(g.gameId)).state.rules as GState;
      const ph = gators.phase(state);
      const at = `step ${step}, turn ${ph.turn} ${ph.phase} (${ph.mode})`;
      if (ph.mode === 'reaction') {
        const request = state.pending!.request!;
        if (rng.roll(2) === 1) {
          clock.advance(7 * 3_600_000);
          while ((await h.worker.tick()) > 0);
          seen.expired++;
        } else {
          const answer = botAnswer(state, request, rng);
          await h.submit.execute({ gameId: g.gameId, expectedVersion: version, submission: { kind: 'reaction', orders: answer }, idempotencyKey: uniqueId('answer') }, g.by(request.side));
          seen.answered++;
        }
      } else {
        const side = ph.acting[0]!;
        const found: string[] = [];
        const chosen = acceptedBotPhase(state, side, rng, { units: UNITS_PER_PHASE, combine: true, aggressive: true }, found);
        problems.push(...found.map((p) => `${at}: ${p}`));
        if (chosen === null) {
          problems.push(`${at}: no phase the bot built was accepted`);
          break;
        }
        await h.submit.execute({ gameId: g.gameId, expectedVersion: version, submission: { kind: 'orders', orders: chosen.orders }, idempotencyKey: uniqueId('phase') }, g.by(side));
        seen.submitted++;
      }
      const now = await h.store.currentVersion(g.gameId);
      if (now <= version) problems.push(`${at}: nothing was written`);
      // What each side reads of this step, as a client would page through it.
      for (const player of [g.us, g.island]) seen.events += (await h.queries.history(g.gameId, player, version + 1, 5000)).events.length;
      clock.advance(60_000);
      if (problems.length > 0) break;
    }
    expect(problems).toEqual([]);
    const end = await h.queries.summary(g.gameId, g.island);
    expect(end).toMatchObject({ status: 'finished', result: { reason: expect.any(String) } });
    expect(seen.submitted).toBeGreaterThan(150);
    expect(seen.answered + seen.expired).toBeGreaterThan(0);
    expect(seen.events).toBeGreaterThan(1000);
    const outbox = await h.prisma.pool.query<{ n: string }>('SELECT count(*) AS n FROM notifications WHERE game_id = $1', [g.gameId]);
    expect(Number(outbox.rows[0]!.n)).toBeGreaterThan(100);
    const exported = await h.queries.export(g.gameId, g.us);
    const report = verifyDice(exported);
    expect(report.problems).toEqual([]);
    // Every submission, answer, pass and expired window decided again by the rules gives the log.
    const replay = replayExport(exported, SYSTEMS);
    expect(replay.mismatches).toEqual([]);
    expect(replay.decisions).toBeGreaterThan(150);
    // The game's dice seed is drawn at creation, so the bots' game differs from run to run: 99 rolls was seen once.
    expect(report.rolls).toBeGreaterThan(50);
    // About 30 s alone and 35 s in CI beside the other suites; other seeds up to a minute.
  }, 300_000);
});
