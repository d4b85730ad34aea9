/**
 * 1,000 turn notifications through the outbox and two worker instances to a local webhook
 * receiver, beside 1,000 plain HTTP POSTs to the same receiver in the same run. Reports the
 * time until the last one arrives, and duplicates before and after the receiver dedupes on
 * webhook-id. Target: at most 10 s, zero duplicates after dedupe (none missing either).
 * Run: npm run bench:notifications
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadConfig } from '../src/config/config.schema';
import { PrismaService } from '../src/database/prisma.service';
import { configureLogger } from '../src/logging/logger';
import { ChannelRegistry } from '../src/notifications/channels/channel-registry';
import { systemClock } from '../src/notifications/clock';
import type { NotificationIntent } from '../src/notifications/notification-intent';
import { PostgresNotificationOutbox } from '../src/notifications/outbox/outbox.service';
import { UnsubscribeTokens } from '../src/notifications/unsubscribe/unsubscribe-tokens';
import { DeliveryProcessor } from '../src/notifications/worker/delivery-processor';
import { DeliveryRepository } from '../src/notifications/worker/delivery.repository';
import { NotificationWorker } from '../src/notifications/worker/notification-worker';
import { benchDatabase } from './support';

const N = Number(process.env.BENCH_NOTIFICATIONS ?? 1000);
const PLAYERS = 100;
const CONCURRENCY = 32;

type Mode = { failFirst: number; hangFirst: number };

/** Counts arrivals per webhook-id; a share of first attempts fail (503) or hang past the timeout. */
function receiver(mode: Mode) {
  const seen = new Map<string, number>();
  /** The notification each kept (deduped) message carries: a changing webhook-id would show here. */
  const carried = new Set<string>();
  /** Ids answered 2xx: the sender's attempt arrived and was taken. */
  const accepted = new Set<string>();
  let requests = 0;
  let lastAccepted = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      requests += 1;
      const id = String(req.headers['webhook-id'] ?? `plain-${requests}`);
      const n = seen.get(id) ?? 0;
      seen.set(id, n + 1);
      if (n === 0) carried.add(String((JSON.parse(Buffer.concat(chunks).toString('utf8')) as { data?: { notificationId?: string } }).data?.notificationId));
      const r = (hash(id) % 1000) / 1000;
      if (n === 0 && r < mode.hangFirst) return; // never answers: the sender times out and retries
      if (n === 0 && r < mode.hangFirst + mode.failFirst) {
        res.writeHead(503).end();
        return;
      }
      if (!accepted.has(id)) {
        accepted.add(id);
        lastAccepted = Date.now();
      }
      res.writeHead(200).end();
    });
  });
  server.keepAliveTimeout = 30_000;
  return {
    server,
    stats: () => ({ requests, distinct: seen.size, notifications: carried.size, accepted: accepted.size, lastAccepted }),
    reset: () => {
      seen.clear();
      carried.clear();
      accepted.clear();
      requests = 0;
      lastAccepted = 0;
    },
  };
}

function hash(s: string): number {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619) >>> 0;
  return h;
}

async function baseline(url: string, body: string): Promise<number> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const t0 = Date.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < N) {
        next += 1;
        await new Promise<void>((done, fail) => {
          const req = http.request(url, { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
            res.resume();
            res.on('end', done);
          });
          req.on('error', fail);
          req.end(body);
        });
      }
    }),
  );
  agent.destroy();
  return Date.now() - t0;
}

function intents(players: string[], round: number): NotificationIntent[] {
  return players.map((playerId) => ({
    id: `bench-${round}:${playerId}:your_turn`,
    kind: 'your_turn',
    gameId: `bench-game-${playerId}`,
    playerId,
    side: 'blue',
    gameVersion: round,
    content: {
      gameTitle: 'Bench at the Bridge',
      scenarioName: 'Gators! Q-GT-05',
      turn: round,
      phase: 'P1 Movement',
      whoseTurn: [{ side: 'blue', sideName: 'Blue', playerName: 'Alice' }],
      yourTurn: true,
      deadlineAt: '2026-12-04T17:00:00.000Z',
      happened: ['Red moved 2 units.', 'Red attacked 0507: D1.'],
      links: { game: 'https://fieldpost.test/games/g', act: 'https://fieldpost.test/games/g/act' },
    },
  }));
}

/**
 * `overlapped`: the workers run while the 1,000 are enqueued (timed from the first enqueue);
 * otherwise the outbox is filled first and the clock starts when the workers do.
 */
async function run(label: string, url: string, recv: ReturnType<typeof receiver>, hookUrl: string, overlapped: boolean): Promise<void> {
  const config = loadConfig({
    NODE_ENV: 'production',
    LOG_LEVEL: 'silent',
    DATABASE_URL: url,
    WORKER_POLL_MS: '50',
    NOTIFY_ALLOW_PRIVATE_TARGETS: 'true',
    NOTIFY_CONCURRENCY: String(CONCURRENCY),
    NOTIFY_HTTP_TIMEOUT_MS: '1000',
    NOTIFY_LEASE_MS: '10000',
    NOTIFY_RETRY_BASE_MS: '100',
    NOTIFY_RETRY_MAX_DELAY_MS: '1000',
    NOTIFY_TOKEN_SECRET: 'bench-token-secret-bench-token-secret',
  });
  const instances = [0, 1].map(() => {
    const prisma = new PrismaService({ kind: 'postgres', url, poolMax: 8, close: async () => undefined });
    const outbox = new PostgresNotificationOutbox(config, systemClock, prisma);
    const repo = new DeliveryRepository(prisma);
    const channels = ChannelRegistry.fromConfig(config.notifications, systemClock);
    const processor = new DeliveryProcessor(config, repo, outbox, channels, new UnsubscribeTokens(config.notifications.tokenSecret!, config), systemClock, Math.random);
    return { prisma, outbox, channels, worker: new NotificationWorker(config, repo, processor, systemClock) };
  });
  const writer = instances[0]!;
  await writer.prisma.$executeRawUnsafe('TRUNCATE notification_deliveries, notifications, notification_endpoints, players CASCADE');
  const players = Array.from({ length: PLAYERS }, (_, i) => `bench-p${i}`);
  await writer.prisma.player.createMany({ data: players.map((id) => ({ id, email: `${id}@bench.test`, displayName: id, timeZone: 'UTC' })) });
  await writer.prisma.notificationEndpoint.createMany({
    data: players.map((id) => ({ id: `ep-${id}`, playerId: id, kind: 'webhook', url: hookUrl, secret: 'whsec_' + Buffer.alloc(32, 3).toString('base64') })),
  });
  recv.reset();

  const enqueueAll = async () => {
    const t = Date.now();
    // Ten intents per transaction, as a game's turn commits them with its events.
    for (let round = 1; round <= N / PLAYERS; round++) {
      for (let k = 0; k < PLAYERS; k += 10) {
        await writer.prisma.$transaction((tx) => writer.outbox.enqueue(tx, intents(players.slice(k, k + 10), round)));
      }
    }
    return Date.now() - t;
  };
  const enqueuedFirst = overlapped ? 0 : await enqueueAll();
  const t0 = Date.now();
  for (const i of instances) i.worker.start();
  const enqueued = overlapped ? await enqueueAll() : enqueuedFirst;
  const deadline = Date.now() + 60_000;
  const delivered = () => writer.prisma.notificationDelivery.count({ where: { status: 'delivered' } });
  while (recv.stats().accepted < N && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
  const last = recv.stats().lastAccepted - t0;
  while ((await delivered()) < N && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  const settled = Date.now() - t0;
  await new Promise((r) => setTimeout(r, 300));
  for (const i of instances) await i.worker.stop();
  const s = recv.stats();
  console.log(`${label}`);
  console.log(`  last of ${N} arrived after ${last} ms (all rows marked delivered after ${settled} ms; enqueue in ${N / 10} transactions took ${enqueued} ms)  target <= 10000 ms`);
  console.log(`  requests ${s.requests}: duplicates before dedupe ${s.requests - s.distinct}, after dedupe on webhook-id ${s.distinct - s.notifications}; notifications received ${s.notifications}/${N}, rows delivered ${await delivered()}\n`);
  for (const i of instances) {
    await i.channels.onModuleDestroy();
    await i.prisma.onModuleDestroy();
  }
}

async function main(): Promise<void> {
  configureLogger('silent');
  const url = await benchDatabase('fieldpost_bench_notifications');
  const clean = receiver({ failFirst: 0, hangFirst: 0 });
  const flaky = receiver({ failFirst: 0.1, hangFirst: 0.01 });
  for (const r of [clean, flaky]) await new Promise<void>((done) => r.server.listen(0, '127.0.0.1', done));
  const hook = (r: ReturnType<typeof receiver>) => `http://127.0.0.1:${(r.server.address() as AddressInfo).port}/hook`;

  const body = JSON.stringify({ type: 'fieldpost.your_turn', timestamp: new Date().toISOString(), data: intents(['x'], 1)[0] });
  console.log(`Notification delivery: ${N} turn notifications to a local webhook receiver, ${CONCURRENCY} sends in flight per worker\n`);
  console.log(`Baseline: ${N} plain HTTP POSTs (${CONCURRENCY} concurrent, keep-alive), last arrived after ${await baseline(hook(clean), body)} ms\n`);
  clean.reset();
  await run('Outbox filled, then 2 worker instances deliver (signed webhooks)', url, clean, hook(clean), false);
  await run('2 worker instances running while the 1,000 are enqueued (timed from the first enqueue)', url, clean, hook(clean), true);
  await run('Same, the receiver fails 10% of first attempts (503) and hangs on 1% past the 1 s timeout', url, flaky, hook(flaky), true);
  for (const r of [clean, flaky]) {
    r.server.closeAllConnections();
    r.server.close();
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
