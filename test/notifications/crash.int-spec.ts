import { ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { PrismaService } from '../../src/database/prisma.service';
import { IsolatedDatabase, isolatedDatabase } from '../support/isolated-database';
import { intent, player, statuses, webhookEndpoint } from './support/fixtures';
import { harness, Harness, notificationsConfig, TOKEN_SECRET } from './support/harness';
import { eventually, httpReceiver, HttpReceiver } from './support/receivers';

/** The separate worker process, as built by `npm test` (tsc -p tsconfig.build.json). */
const WORKER = resolve(__dirname, '../../dist/src/notifications/worker/worker.main.js');

describe('a worker killed in the middle of sending (SIGKILL, real child process)', () => {
  let db: IsolatedDatabase;
  let prisma: PrismaService;
  let receiver: HttpReceiver;
  let child: ChildProcess | null = null;
  let h: Harness | null = null;

  beforeAll(async () => {
    db = await isolatedDatabase('crash');
    prisma = db.prisma();
    // The first request for each id is held open: the child is killed while it waits for the answer.
    receiver = await httpReceiver((_req, seen) => (seen === 0 ? 'hang' : { status: 200 }));
  });
  afterAll(async () => {
    child?.kill('SIGKILL');
    await h?.close();
    await receiver?.close();
    await db?.drop();
  });

  it('loses nothing: after the lease runs out another worker sends every notification, receivers dedupe on the id', async () => {
    expect(existsSync(WORKER)).toBe(true);
    const players: string[] = [];
    for (let i = 0; i < 4; i++) {
      const p = await player(prisma);
      await webhookEndpoint(prisma, p, receiver.url);
      players.push(p);
    }
    const writer = harness(prisma, notificationsConfig(db.url));
    await writer.enqueue(players.flatMap((p) => [1, 2, 3, 4, 5].map((v) => intent({ playerId: p, gameId: 'g-crash', version: v }))));
    await writer.close();

    const env = {
      ...process.env,
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      DATABASE_URL: db.url,
      DATABASE_POOL_MAX: '3',
      MIGRATE_ON_START: 'false',
      WORKER_POLL_MS: '20',
      NOTIFY_ALLOW_PRIVATE_TARGETS: 'true',
      NOTIFY_HTTP_TIMEOUT_MS: '5000',
      NOTIFY_LEASE_MS: '6000',
      NOTIFY_TOKEN_SECRET: TOKEN_SECRET,
    };
    child = spawn(process.execPath, [WORKER], { env, stdio: 'ignore' });
    await eventually(() => receiver.distinct().size === 20, 20_000, 'the child to send all 20');
    child.kill('SIGKILL');
    await new Promise((done) => child!.once('exit', done));
    expect(await statuses(prisma, undefined, 'webhook')).toEqual({ pending: 20 });

    h = harness(prisma, notificationsConfig(db.url));
    h.worker.start();
    await eventually(async () => (await statuses(prisma, undefined, 'webhook')).delivered === 20, 20_000, 'all 20 delivered');
    expect(receiver.requests).toHaveLength(40);
    expect(receiver.distinct().size).toBe(20);
    // Not before the dead worker's lease (6 s from its claim) ran out.
    const firstTry = Math.min(...receiver.requests.slice(0, 20).map((r) => r.at));
    const retry = Math.min(...receiver.requests.slice(20).map((r) => r.at));
    expect(retry - firstTry).toBeGreaterThanOrEqual(5500);
    const rows = await prisma.notificationDelivery.findMany();
    expect(rows.every((r) => r.attempts === 2)).toBe(true);
  });
});
