import { FakeClock, gamesHarness, kernelTestEntry, refusalCode, workerDatabase } from '../../test/support/games-harness';
import { movedKernelEntry, redrawnKernelEntry } from '../../test/support/edited-scenario';
import { play, setupA, setupB, startedGame } from '../../test/support/kernel-game';
import type { CatalogEntry } from './game-catalog';

const HOUR = 3_600_000;
const recordedName = 'Kernel test island';

/**
 * A game carries the scenario it was created with; the catalog (the scenario folders read at
 * start) only offers scenarios for new games. Each test starts a game, then runs the games module
 * again ("restarts the server") with a catalog that changed under it.
 */
describe('a game keeps its own scenario whatever the catalog offers later', () => {
  let db: Awaited<ReturnType<typeof workerDatabase>>;
  const harness = (entries: CatalogEntry[], clock?: FakeClock) => gamesHarness({ databaseUrl: db.url, entries, notifications: true, ...(clock ? { clock } : {}) });
  beforeAll(async () => {
    db = await workerDatabase('own-scenario');
  });
  afterAll(async () => {
    await db.drop();
  });

  /** A game started and set up by A on the catalog of today; the harness is closed after. */
  async function gameOnTodaysCatalog(clock?: FakeClock) {
    const h = await harness([kernelTestEntry()], clock);
    try {
      const g = await startedGame(h);
      await play(h, g.gameId, g.alice, setupA);
      return g;
    } finally {
      await h.close();
    }
  }

  it('names its scenario and sides, in its reads and notices, as it recorded them after the scenario was edited', async () => {
    const g = await gameOnTodaysCatalog();
    const h = await harness([redrawnKernelEntry()]);
    try {
      const summary = await h.queries.summary(g.gameId, g.alice);
      expect(summary.scenarioName).toBe(recordedName);
      expect(summary.seats.map((s) => s.sideName)).toEqual(['Blue (lands from the sea)', 'Red (defends the island)']);
      const from = await h.store.currentVersion(g.gameId);
      await play(h, g.gameId, g.bob, setupB());
      const notices = await h.prisma.notification.findMany({ where: { gameId: g.gameId, gameVersion: { gt: from } }, select: { content: true } });
      expect(notices.length).toBeGreaterThan(0);
      for (const n of notices) expect(n.content).toMatchObject({ scenarioName: recordedName });
    } finally {
      await h.close();
    }
  });

  it('is read, played, timed out, ended and exported once no scenario on offer has its id, as long as its system is there', async () => {
    const clock = new FakeClock('2026-12-10T09:00:00.000Z');
    const g = await gameOnTodaysCatalog(clock);
    const h = await harness([movedKernelEntry()], clock);
    try {
      expect(await h.queries.summary(g.gameId, g.bob)).toMatchObject({ scenarioId: 'kernel-test', scenarioName: recordedName, status: 'active' });
      expect((await h.queries.myGames(g.bob, 'active', 50)).items.map((r) => r.gameId)).toContain(g.gameId);
      const revealed = await play(h, g.gameId, g.bob, setupB());
      expect(revealed.phase).toMatchObject({ turn: 1, phase: 'a-move', acting: ['A'] });
      expect((await h.queries.options(g.gameId, g.alice, 'a-ship')).options.moves.length).toBeGreaterThan(0);

      // A's deadline passes: the worker's job loads the game as every command does.
      clock.advance(73 * HOUR);
      while ((await h.worker.tick()) > 0);
      const history = await h.queries.history(g.gameId, g.alice);
      expect(history.events.map((e) => e.type)).toContain('DeadlineMissed');

      const version = await h.store.currentVersion(g.gameId);
      await h.actions.resign(g.gameId, version, g.alice);
      const doc = await h.queries.export(g.gameId, g.bob);
      expect(doc.scenario).toEqual({ id: 'kernel-test', version: kernelTestEntry().version, system: 'kernel-test', name: recordedName });
      const replay = await h.queries.view(g.gameId, g.alice, revealed.version);
      expect(replay.game).toMatchObject({ scenarioName: recordedName, version: revealed.version });
    } finally {
      await h.close();
    }
  });

  it('is refused as unavailable, not as a missing scenario or a crash, while the server lacks its system', async () => {
    const g = await gameOnTodaysCatalog();
    const h = await harness([]);
    try {
      const err = await h.queries.summary(g.gameId, g.alice).catch((e: unknown) => e);
      expect(err).toMatchObject({ kind: 'unavailable', code: 'game/system_unavailable', details: { systemId: 'kernel-test' } });
      expect(await refusalCode(play(h, g.gameId, g.bob, setupB()))).toBe('game/system_unavailable');
    } finally {
      await h.close();
    }
  });

  it('tells a player who may not see the game, read from its snapshot and the events after it, that it is not there', async () => {
    const today = await harness([kernelTestEntry()]);
    let g: Awaited<ReturnType<typeof startedGame>>;
    try {
      g = await startedGame(today, { snapshotInterval: 10 });
      await play(today, g.gameId, g.alice, setupA);
      await play(today, g.gameId, g.bob, setupB());
      for (let turn = 0; turn < 2; turn++) for (const p of [g.alice, g.alice, g.bob, g.bob]) await play(today, g.gameId, p, []);
      expect(await today.prisma.snapshot.count({ where: { gameId: g.gameId } })).toBeGreaterThan(0);
    } finally {
      await today.close();
    }
    const h = await harness([]);
    try {
      const eve = await h.player('Eve');
      const refusal = async (gameId: string, playerId: string) => {
        const e = (await h.queries.summary(gameId, playerId).catch((err: unknown) => err)) as { kind: string; code: string; message: string; details: unknown };
        return { kind: e.kind, code: e.code, message: e.message.replace(gameId, '<gameId>'), details: e.details };
      };
      expect(await refusal(g.gameId, eve)).toEqual(await refusal(`${g.gameId}x`, eve));
      expect(await refusal(g.gameId, eve)).toMatchObject({ kind: 'not_found', code: 'game/not_found' });
      expect(await refusalCode(play(h, g.gameId, eve, []))).toBe('game/not_found');
      expect(await refusal(g.gameId, g.bob)).toMatchObject({ kind: 'unavailable', code: 'game/system_unavailable' });
    } finally {
      await h.close();
    }
  });
});
