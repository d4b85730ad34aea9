import type { PrismaService } from '../database/prisma.service';
import { FakeClock, gamesHarness, GamesHarness, refusalCode, workerDatabase } from '../../test/support/games-harness';
import { uniqueId } from '../../test/support/database';
import { land, play, setupA, setupB, startedGame, toLandingTurn } from '../../test/support/kernel-game';

/**
 * Lifecycle actions that interleave on one game: two server instances (each its own loader,
 * committer and deadline worker) on one database and one clock, and players acting through
 * either. The log's version check decides every race; these tests look at what else must agree
 * with its outcome (the jobs, the outbox).
 */
const HOUR = 3_600_000;

const jobsOf = async (prisma: PrismaService, gameId: string) =>
  (await prisma.scheduledJob.findMany({ where: { gameId }, orderBy: [{ dueAt: 'asc' }, { id: 'asc' }] })).map((j) => `${j.kind}@${j.gameVersion}:${j.status}`);

describe('two instances and a player on one game', () => {
  const clock = new FakeClock('2026-12-10T09:00:00.000Z');
  let db: { url: string | undefined; drop(): Promise<void> };
  let one: GamesHarness;
  let two: GamesHarness;
  beforeAll(async () => {
    db = await workerDatabase('hc_races');
    one = await gamesHarness({ clock, databaseUrl: db.url });
    two = await gamesHarness({ clock, databaseUrl: db.url });
  });
  afterAll(async () => {
    await one?.close();
    await two?.close();
    await db.drop();
  });

  it('a deadline job that loses its race to a resignation stays cancelled: no job is left pending after the end', async () => {
    const g = await startedGame(one, { deadlineHours: 2 });
    await play(one, g.gameId, g.alice, setupA);
    await play(one, g.gameId, g.bob, setupB());
    clock.advance(3 * HOUR); // A's move is overdue
    // Instance one's worker reads the game, then instance two commits Bob's resignation before
    // the worker writes the miss it decided on.
    const load = one.loader.load.bind(one.loader);
    let resigned: Promise<unknown> | undefined;
    const spy = jest.spyOn(one.loader, 'load').mockImplementation(async (...args) => {
      const game = await load(...args);
      resigned ??= two.actions.resign(g.gameId, game.version, g.bob);
      await resigned;
      return game;
    });
    try {
      expect(await one.worker.tick()).toBe(1);
    } finally {
      spy.mockRestore();
    }
    const types = (await one.store.readStream(g.gameId)).map((e) => e.type);
    expect(types.slice(-3)).toEqual(['Resigned', 'GameEnded', 'SeedRevealed']);
    expect(types).not.toContain('DeadlineMissed');
    expect((await jobsOf(one.prisma, g.gameId)).filter((j) => j.endsWith(':pending'))).toEqual([]);
  });

  describe('a reaction answered as its window expires: exactly one of the two applies', () => {
    const openWindow = async () => {
      const g = await startedGame(one, { reactionHours: 1, deadlineHours: 24 });
      await toLandingTurn(one, g);
      const landed = await land(one, g);
      expect(landed.phase.mode).toBe('reaction');
      const windowJob = `deadline@${(await one.loader.load(g.gameId)).state.deadline!.id}`;
      const answer = (h: GamesHarness) =>
        h.submit.execute({ gameId: g.gameId, expectedVersion: landed.version, submission: { kind: 'reaction', orders: { attackers: ['b-m48'] } }, idempotencyKey: uniqueId('k') }, g.bob);
      return { g, windowJob, answer };
    };
    const answers = async (gameId: string) =>
      (await one.store.readStream(gameId)).filter((e) => e.type === 'ReactionAnswered' || (e.type === 'DeadlineMissed' && (e.data as { window?: string }).window === 'reaction')).map((e) => `${e.type}:${(e.data as { by?: string }).by ?? ''}`);

    // An answer sent after its side's deadline is refused (game/deadline_passed), so each race has
    // the answer checked just before the deadline (the clock set back for it) and the worker run
    // just after: the instants where both can be under way.
    const beforeDeadline = async <T>(fn: () => Promise<T>): Promise<T> => {
      clock.advance(-2 * HOUR);
      try {
        return await fn();
      } finally {
        clock.advance(2 * HOUR);
      }
    };

    it('the answer commits between the worker reading the game and writing the expiry', async () => {
      const { g, windowJob, answer } = await openWindow();
      clock.advance(2 * HOUR); // the window is over; no worker has run yet
      const load = one.loader.load.bind(one.loader);
      let answered: Promise<unknown> | undefined;
      const spy = jest.spyOn(one.loader, 'load').mockImplementation(async (...args) => {
        const game = await load(...args);
        answered ??= beforeDeadline(() => answer(two));
        await answered;
        return game;
      });
      try {
        await one.worker.tick();
      } finally {
        spy.mockRestore();
      }
      clock.advance(1000);
      while ((await one.worker.tick()) > 0);
      expect(await answers(g.gameId)).toEqual(['ReactionAnswered:side']);
      expect(await jobsOf(one.prisma, g.gameId)).toContain(`${windowJob}:cancelled`);
    });

    it('the expiry commits between the answer reading the game and writing it: the answer is a typed conflict', async () => {
      const { g, windowJob, answer } = await openWindow();
      // The answer reads the game for its player (loadFor), as every command from a player does.
      const load = two.loader.loadFor.bind(two.loader);
      const spy = jest.spyOn(two.loader, 'loadFor').mockImplementation(async (...args) => {
        const game = await load(...args);
        if (spy.mock.calls.length === 1) {
          clock.advance(2 * HOUR); // the window is over while the answer is under way
          try {
            expect(await one.worker.tick()).toBe(1);
          } finally {
            clock.advance(-2 * HOUR);
          }
        }
        return game;
      });
      try {
        expect(await refusalCode(answer(two))).toBe('game/version_conflict');
      } finally {
        spy.mockRestore();
      }
      expect(await answers(g.gameId)).toEqual(['DeadlineMissed:', 'ReactionAnswered:expiry']);
      expect(await jobsOf(one.prisma, g.gameId)).toContain(`${windowJob}:done`);
    });
  });
});
