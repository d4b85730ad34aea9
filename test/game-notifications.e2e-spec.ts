import { createApp, RunningApp } from '../src/bootstrap';
import { loadConfig } from '../src/config/config.schema';
import { CreateGameHandler } from '../src/games/commands/create-game.handler';
import { InvitationsHandler } from '../src/games/commands/invitations.handler';
import { SubmitPhaseHandler } from '../src/games/commands/submit-phase.handler';
import { StaticCatalog } from '../src/games/game-catalog';
import { PrismaService } from '../src/database/prisma.service';
import { EventStore } from '../src/event-store/event-store.service';
import { NotificationEndpointsService } from '../src/notifications/preferences/endpoints.service';
import { kernelTestEntry } from './support/games-harness';
import { setupA, setupB } from './support/kernel-game';
import { IsolatedDatabase, isolatedDatabase } from './support/isolated-database';
import { httpReceiver, HttpReceiver } from './notifications/support/receivers';
import { uniqueId } from './support/database';

interface Payload {
  type: string;
  data: { kind: string; gameId: string; side: string; yourTurn: boolean; phase: string; happened: string[]; whoseTurn: Array<{ side: string }> };
}

/**
 * The whole path of a turn notification: a player's submission commits the events and the
 * outbox rows in one transaction, the worker of the running app delivers them to the other
 * player's signed webhook, and what arrives is only what that player's side may see.
 */
describe('turn notifications through a real game (whole app, loopback webhook)', () => {
  let db: IsolatedDatabase;
  let running: RunningApp;
  let receiverA: HttpReceiver;
  let receiverB: HttpReceiver;

  beforeAll(async () => {
    db = await isolatedDatabase('game_notify');
    receiverA = await httpReceiver();
    receiverB = await httpReceiver();
    running = await createApp(
      loadConfig({
        NODE_ENV: 'test', LOG_LEVEL: 'silent', PORT: '0', DATABASE_URL: db.url, MIGRATE_ON_START: 'false',
        WORKERS_ENABLED: 'true', WORKER_POLL_MS: '25', NOTIFY_ALLOW_PRIVATE_TARGETS: 'true', PUBLIC_URL: 'https://fieldpost.test',
        NOTIFY_TOKEN_SECRET: 'a-test-secret-that-is-long-enough-123',
      }),
      undefined,
      { catalog: new StaticCatalog([kernelTestEntry()]) },
    );
  });
  afterAll(async () => {
    await running?.close();
    await receiverA.close();
    await receiverB.close();
    await db.drop();
  });

  const until = async (what: () => boolean, ms = 15_000) => {
    const end = Date.now() + ms;
    while (!what()) {
      if (Date.now() > end) throw new Error('timed out waiting for notifications');
      await new Promise((r) => setTimeout(r, 25));
    }
  };
  const payloads = (r: HttpReceiver) => [...new Map(r.requests.map((q) => [q.id, JSON.parse(q.body) as Payload])).values()];

  it('tells each player once that it is their turn, with only what their side may see', async () => {
    const app = running.app;
    const prisma = app.get(PrismaService);
    const make = async (name: string) => {
      const id = uniqueId('p');
      await prisma.player.create({ data: { id, email: `${id}@example.test`, displayName: name, timeZone: 'Europe/Berlin' } });
      return id;
    };
    const alice = await make('Alice');
    const bob = await make('Bob');
    const endpoints = app.get(NotificationEndpointsService);
    await endpoints.addWebhook(alice, receiverA.url);
    await endpoints.addWebhook(bob, receiverB.url);

    const { gameId } = await app.get(CreateGameHandler).execute({ scenarioId: 'kernel-test', side: 'A' }, alice);
    const inv = await app.get(InvitationsHandler).invite(gameId, 'B', 'token', alice);
    await app.get(InvitationsHandler).join({ token: inv.token! }, bob);
    await until(() => payloads(receiverA).length >= 1 && payloads(receiverB).length >= 1);
    expect(payloads(receiverA).map((p) => p.data.kind)).toEqual(['game_started']);

    const store = app.get(EventStore);
    const submit = async (player: string, orders: unknown) =>
      app.get(SubmitPhaseHandler).execute({ gameId, expectedVersion: await store.currentVersion(gameId), submission: { kind: 'orders', orders }, idempotencyKey: uniqueId('k') }, player);
    await submit(alice, setupA);
    await submit(bob, setupB());
    // B's setup ends the sealed phase: A must move now and hears it; B does not.
    await until(() => payloads(receiverA).length >= 2);
    const turn = payloads(receiverA)[1]!;
    expect(turn.data).toMatchObject({ kind: 'your_turn', gameId, side: 'A', yourTurn: true, whoseTurn: [{ side: 'A' }] });
    const text = JSON.stringify(turn);
    expect(text).toContain('0504');
    expect(text).not.toMatch(/b-inf-1|b-inf-2/);
    await new Promise((r) => setTimeout(r, 300));
    expect(payloads(receiverB).map((p) => p.data.kind)).toEqual(['game_started']);
    // Every request arrived signed, and no notification arrived twice.
    for (const r of [...receiverA.requests, ...receiverB.requests]) expect(r.headers['webhook-signature']).toMatch(/^v1,/);
    expect(receiverA.requests.length).toBe(receiverA.distinct().size);
  });
});
