import { PrismaService } from '../../src/database/prisma.service';
import { CreateGameHandler } from '../../src/games/commands/create-game.handler';
import { InvitationsHandler } from '../../src/games/commands/invitations.handler';
import { PlayerActionsHandler } from '../../src/games/commands/player-actions.handler';
import { SubmitPhaseHandler } from '../../src/games/commands/submit-phase.handler';
import { EventStore } from '../../src/event-store/event-store.service';
import { DeadlineWorker } from '../../src/games/scheduler/deadline-worker';
import { apiApp, ApiApp } from '../api/support/api-app';
import { FakeClock } from '../support/games-harness';
import { uniqueId } from '../support/database';
import { setupA, setupB } from '../support/kernel-game';

/** Each player hears of a turn once: a vacation's paused or restarted clock is no new turn; a resignation says so. */
describe('turn notices', () => {
  let app: ApiApp;
  beforeAll(async () => {
    app = await apiApp();
  });
  afterAll(async () => {
    await app.close();
  });

  it('does not tell a player "it is your turn" again when they go on vacation', async () => {
    const a = app.running.app;
    const alice = (await app.player('Alice')).id;
    const bob = (await app.player('Bob')).id;
    const { gameId } = await a.get(CreateGameHandler).execute({ scenarioId: 'kernel-test', side: 'A', options: { vacationDays: 3 } }, alice);
    const inv = await a.get(InvitationsHandler).invite(gameId, 'B', 'token', alice);
    await a.get(InvitationsHandler).join({ token: inv.token! }, bob);
    const store = a.get(EventStore);
    const submit = async (p: string, orders: unknown) =>
      a.get(SubmitPhaseHandler).execute({ gameId, expectedVersion: await store.currentVersion(gameId), submission: { kind: 'orders', orders }, idempotencyKey: uniqueId('k') }, p);
    await submit(alice, setupA);
    await submit(bob, setupB());
    const prisma = a.get(PrismaService);
    const rows = () => prisma.notification.findMany({ where: { gameId, playerId: alice }, orderBy: { gameVersion: 'asc' } });
    const before = (await rows()).map((n) => n.kind);
    expect(before).toEqual(['game_started', 'your_turn']); // told once that it is A's move

    // Alice, whose turn it is, pauses her clock.
    await a.get(PlayerActionsHandler).startVacation(gameId, await store.currentVersion(gameId), alice);
    const after = await rows();
    // She is told nothing new about whose turn it is...
    expect(after.map((n) => n.kind)).toEqual(before);
  });

  it('does not tell the side that already set up "your turn" when the other goes on vacation', async () => {
    const a = app.running.app;
    const alice = (await app.player('Alice')).id;
    const bob = (await app.player('Bob')).id;
    const { gameId } = await a.get(CreateGameHandler).execute({ scenarioId: 'kernel-test', side: 'A', options: { vacationDays: 3 } }, alice);
    const inv = await a.get(InvitationsHandler).invite(gameId, 'B', 'token', alice);
    await a.get(InvitationsHandler).join({ token: inv.token! }, bob);
    const store = a.get(EventStore);
    await a.get(SubmitPhaseHandler).execute({ gameId, expectedVersion: await store.currentVersion(gameId), submission: { kind: 'orders', orders: setupB() }, idempotencyKey: uniqueId('k') }, bob);
    const prisma = a.get(PrismaService);
    const bobs = () => prisma.notification.findMany({ where: { gameId, playerId: bob }, orderBy: { gameVersion: 'asc' } });
    expect((await bobs()).map((n) => n.kind)).toEqual(['game_started']);
    await a.get(PlayerActionsHandler).startVacation(gameId, await store.currentVersion(gameId), alice);
    const rows = await bobs();
    expect(rows.map((n) => [n.kind, (n.content as { yourTurn: boolean; deadlineAt: string | null }).yourTurn])).toEqual([['game_started', true]]);
  });

  it('tells the opponent of a resignation with an opponent_resigned notification', async () => {
    const a = app.running.app;
    const alice = (await app.player('Alice')).id;
    const bob = (await app.player('Bob')).id;
    const { gameId } = await a.get(CreateGameHandler).execute({ scenarioId: 'kernel-test', side: 'A' }, alice);
    const inv = await a.get(InvitationsHandler).invite(gameId, 'B', 'token', alice);
    await a.get(InvitationsHandler).join({ token: inv.token! }, bob);
    const store = a.get(EventStore);
    await a.get(PlayerActionsHandler).resign(gameId, await store.currentVersion(gameId), alice);
    const prisma = a.get(PrismaService);
    const last = await prisma.notification.findFirst({ where: { gameId, playerId: bob }, orderBy: { gameVersion: 'desc' } });
    expect(last!.kind).toBe('opponent_resigned');
  });
});

describe('turn notices after a missed deadline', () => {
  it('the side whose turn it now is hears "your turn"; the side that missed hears of its miss', async () => {
    const clock = new FakeClock('2026-12-10T09:00:00.000Z');
    const app = await apiApp({}, { clock });
    try {
      const a = app.running.app;
      const alice = (await app.player('Alice')).id;
      const bob = (await app.player('Bob')).id;
      const { gameId } = await a.get(CreateGameHandler).execute({ scenarioId: 'kernel-test', side: 'A', options: { deadlineHours: 2 } }, alice);
      const inv = await a.get(InvitationsHandler).invite(gameId, 'B', 'token', alice);
      await a.get(InvitationsHandler).join({ token: inv.token! }, bob);
      const store = a.get(EventStore);
      const submit = async (p: string, orders: unknown) =>
        a.get(SubmitPhaseHandler).execute({ gameId, expectedVersion: await store.currentVersion(gameId), submission: { kind: 'orders', orders }, idempotencyKey: uniqueId('k') }, p);
      await submit(alice, setupA);
      await submit(bob, setupB());
      await submit(alice, [{ kind: 'move', unit: 'a-ship', path: ['0204'] }]); // A's attack phase is next
      clock.advance(3 * 3_600_000);
      const worker = a.get(DeadlineWorker);
      while ((await worker.tick()) > 0);
      const missed = (await store.readStream(gameId)).find((e) => e.type === 'DeadlineMissed')!;
      expect(missed.data).toEqual({ side: 'A' });
      const last = (player: string) => a.get(PrismaService).notification.findFirst({ where: { gameId, playerId: player, gameVersion: { gte: missed.version } } });
      expect(await last(bob)).toMatchObject({ kind: 'your_turn', content: expect.objectContaining({ yourTurn: true }) });
      expect(await last(alice)).toMatchObject({ kind: 'deadline_missed' });
    } finally {
      await app.close();
    }
  });
});
