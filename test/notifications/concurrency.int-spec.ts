import type { PrismaService } from '../../src/database/prisma.service';
import { IsolatedDatabase, isolatedDatabase } from '../support/isolated-database';
import { intent, player, statuses, webhookEndpoint } from './support/fixtures';
import { itemFromIntent } from '../../src/notifications/outbox/outbox-item';
import { pgRunner } from '../../src/notifications/outbox/sql-runner';
import { FakeClock, harness, Harness, notificationsConfig } from './support/harness';
import { eventually, httpReceiver, HttpReceiver } from './support/receivers';

describe('two worker instances over one outbox', () => {
  let db: IsolatedDatabase;
  let receiver: HttpReceiver;
  const workers: Harness[] = [];

  beforeAll(async () => {
    db = await isolatedDatabase('twoworkers');
    // Answer after a random few ms, so the two workers' claims and sends interleave.
    receiver = await httpReceiver(() => new Promise((done) => setTimeout(() => done({ status: 200 }), Math.random() * 8)));
  });
  afterAll(async () => {
    for (const w of workers) await w.close();
    await receiver?.close();
    await db?.drop();
  });

  it('never send the same delivery twice: 200 rows, 200 requests', async () => {
    const config = notificationsConfig(db.url, { NOTIFY_CONCURRENCY: '8', WORKER_POLL_MS: '10' });
    const prismas: PrismaService[] = [db.prisma(5), db.prisma(5)];
    const claimedBy = [0, 0];
    for (const [i, prisma] of prismas.entries()) {
      const h = harness(prisma, config);
      const claim = h.repo.claim.bind(h.repo);
      h.repo.claim = async (...args) => {
        const rows = await claim(...args);
        claimedBy[i]! += rows.length;
        return rows;
      };
      workers.push(h);
    }
    const writer = workers[0]!;
    const players: string[] = [];
    for (let i = 0; i < 20; i++) {
      const p = await player(prismas[0]!);
      await webhookEndpoint(prismas[0]!, p, receiver.url);
      players.push(p);
    }
    // Workers first, then the rows arrive in 20 transactions while both are polling.
    for (const w of workers) w.worker.start();
    for (let v = 1; v <= 10; v++) {
      await writer.enqueue(players.map((p) => intent({ playerId: p, gameId: 'g-race', version: v })));
    }
    await eventually(() => receiver.distinct().size === 200, 20_000, '200 distinct deliveries');
    await eventually(async () => (await statuses(prismas[0]!, undefined, 'webhook')).delivered === 200, 5_000, '200 rows marked delivered');
    await new Promise((r) => setTimeout(r, 200));

    expect(receiver.requests).toHaveLength(200);
    expect(claimedBy[0]! + claimedBy[1]!).toBe(200);
    expect(claimedBy[0]).toBeGreaterThan(0);
    expect(claimedBy[1]).toBeGreaterThan(0);
    const attempts = await prismas[0]!.notificationDelivery.aggregate({ _max: { attempts: true } });
    expect(attempts._max.attempts).toBe(1);
  });
});

describe('two commits that open the same two players\' digests at once', () => {
  let db: IsolatedDatabase;
  beforeAll(async () => {
    db = await isolatedDatabase('digestorder');
  });
  afterAll(async () => {
    await db?.drop();
  });

  it('both commit, in whichever order their games list the players (no deadlock)', async () => {
    const prisma = db.prisma(4);
    const h = harness(prisma, notificationsConfig(db.url, { SMTP_HOST: '127.0.0.1', SMTP_PORT: '9', NOTIFY_DIGEST_HOUR: '18' }), { clock: new FakeClock(Date.parse('2026-12-01T09:00:00Z')) });
    try {
      const [p, q] = [await player(prisma), await player(prisma)];
      for (const x of [p, q]) await h.preferences.setPreferences(x, { digest: true });
      // Each digest row a statement writes takes a moment (a loaded server), so the two
      // statements' inserts interleave instead of one finishing before the other starts.
      await prisma.pool.query(`CREATE FUNCTION slow_digest() RETURNS trigger LANGUAGE plpgsql AS 'BEGIN IF NEW.notification_id LIKE ''digest:%'' THEN PERFORM pg_sleep(0.3); END IF; RETURN NEW; END'`);
      await prisma.pool.query('CREATE TRIGGER slow_digest BEFORE INSERT ON notification_deliveries FOR EACH ROW EXECUTE FUNCTION slow_digest()');
      // Two games of the same two players, with their seats the other way round: each commit
      // tells both players, in its game's seat order.
      const written = await Promise.allSettled([
        h.outbox.write(pgRunner(prisma.pool), [p, q].map((playerId) => itemFromIntent(intent({ playerId, gameId: 'g-one' })))),
        h.outbox.write(pgRunner(prisma.pool), [q, p].map((playerId) => itemFromIntent(intent({ playerId, gameId: 'g-two' })))),
      ]);
      expect(written.map((w) => (w.status === 'rejected' ? String((w.reason as Error).message) : w.status))).toEqual(['fulfilled', 'fulfilled']);
      // Each mail is in its player's digest, or (the other commit opened that digest after this
      // one's snapshot) due to go alone: none is lost or held with no digest to carry it.
      const mails = await prisma.notificationDelivery.findMany({ where: { playerId: { in: [p, q] }, channel: 'email', notification: { kind: 'your_turn' } } });
      const fates = mails.map((d) => (d.status === 'held' && d.digestId ? 'in digest' : d.status === 'pending' && !d.digestId ? 'alone' : d.status));
      expect(fates).toHaveLength(4);
      expect(fates.filter((f) => f !== 'in digest' && f !== 'alone')).toEqual([]);
      expect(await prisma.notification.count({ where: { playerId: { in: [p, q] }, kind: 'digest' } })).toBe(2);
    } finally {
      await h.close();
    }
  });
});
