import type { PrismaService } from '../../src/database/prisma.service';
import { IsolatedDatabase, isolatedDatabase } from '../support/isolated-database';
import { intent, player, statuses, webhookEndpoint } from './support/fixtures';
import { harness, Harness, notificationsConfig } from './support/harness';
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
