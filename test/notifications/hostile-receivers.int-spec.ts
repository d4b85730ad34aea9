import http from 'node:http';
import net, { AddressInfo } from 'node:net';
import type { PrismaService } from '../../src/database/prisma.service';
import { discordEndpoint, intent, player, statuses, webhookEndpoint } from './support/fixtures';
import { Harness, notificationsConfig } from './support/harness';
import { receiverSuite } from './support/receiver-suite';

describe('receivers that answer with bytes the database cannot store (real HTTP receivers on loopback)', () => {
  const suite = receiverSuite('hostile');
  const { receiver } = suite;
  let prisma: PrismaService;
  let h: Harness;
  beforeAll(() => ({ prisma, h } = suite));

  it('dead-letters a webhook refused with a NUL byte in the answer at once, with the error readable', async () => {
    const r = await receiver(() => ({ status: 400, body: 'bad\u0000request' }));
    const p = await player(prisma);
    await webhookEndpoint(prisma, p, r.url);
    await h.enqueue([intent({ playerId: p, gameId: 'g-nul' })]);
    await h.worker.drain();

    expect(r.requests).toHaveLength(1);
    expect(await statuses(prisma, p, 'webhook')).toEqual({ dead: 1 });
    const [row] = await prisma.notificationDelivery.findMany({ where: { playerId: p, channel: 'webhook' } });
    expect(row).toMatchObject({ lastStatus: 400, lastError: 'HTTP 400: bad\ufffdrequest', lockedUntil: null });
  });

  it('does the same for a Discord message', async () => {
    const r = await receiver(() => ({ status: 400, headers: { 'content-type': 'application/json' }, body: '{"message":"\u0000Invalid Form Body"}' }), () => 'discord');
    const p = await player(prisma);
    await discordEndpoint(prisma, p, r.url);
    await h.enqueue([intent({ playerId: p, gameId: 'g-nul-discord' })]);
    await h.worker.drain();

    expect(r.requests).toHaveLength(1);
    expect(await statuses(prisma, p, 'discord')).toEqual({ dead: 1 });
  });
});

/** A receiver that accepts (2xx) and then never finishes its answer, or breaks it off. */
async function acceptingReceiver(rest: 'endless' | 'cut'): Promise<{ url: string; requests: () => number; close: () => Promise<void> }> {
  let requests = 0;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      requests += 1;
      res.writeHead(200, { 'content-type': 'text/plain' });
      if (rest === 'cut') {
        res.write('accepted, and then');
        setTimeout(() => res.socket?.destroy(), 50);
        return;
      }
      const more = setInterval(() => (res.destroyed ? clearInterval(more) : res.write('x'.repeat(4096))), 5);
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    requests: () => requests,
    close: () =>
      new Promise((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

describe('receivers that accept a webhook and then do not finish their answer (loopback)', () => {
  const suite = receiverSuite('hostile_bodies');
  const { other, env } = suite;
  let prisma: PrismaService;
  beforeAll(() => ({ prisma } = suite));

  for (const rest of ['endless', 'cut'] as const) {
    it(`takes the 2xx as delivered, once, when the body after it is ${rest === 'endless' ? 'never-ending' : 'cut off'}`, async () => {
      const r = await acceptingReceiver(rest);
      try {
        const h = other(notificationsConfig(suite.db.url, { ...env(), NOTIFY_HTTP_TIMEOUT_MS: '1000', NOTIFY_LEASE_MS: '5000' }));
        const p = await player(prisma);
        await webhookEndpoint(prisma, p, r.url);
        await h.enqueue([intent({ playerId: p, gameId: `g-${rest}` })]);
        await h.worker.drain();
        await new Promise((done) => setTimeout(done, 200));
        await h.worker.drain();

        expect(r.requests()).toBe(1);
        expect(await statuses(prisma, p, 'webhook')).toEqual({ delivered: 1 });
        const [row] = await prisma.notificationDelivery.findMany({ where: { playerId: p, channel: 'webhook' } });
        expect(row).toMatchObject({ attempts: 1, lastStatus: 200 });
      } finally {
        await r.close();
      }
    });
  }
});

describe('a receiver that switches protocols (101) on a plain POST (raw socket on loopback)', () => {
  const suite = receiverSuite('hostile_upgrade');
  const { other } = suite;
  let prisma: PrismaService;
  beforeAll(() => ({ prisma } = suite));

  it('ends the attempt within the timeout and retries: the worker neither hangs on it nor loses the slot', async () => {
    let requests = 0;
    const sockets = new Set<net.Socket>();
    const server = net.createServer((socket) => {
      sockets.add(socket);
      socket.on('error', () => undefined);
      socket.once('data', () => {
        requests += 1;
        socket.write('HTTP/1.1 101 Switching Protocols\r\nUpgrade: x\r\nConnection: upgrade\r\n\r\n');
      });
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    try {
      const h = other(notificationsConfig(suite.db.url, { NOTIFY_HTTP_TIMEOUT_MS: '1000', NOTIFY_LEASE_MS: '5000' }));
      const p = await player(prisma);
      await webhookEndpoint(prisma, p, `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`);
      await h.enqueue([intent({ playerId: p, gameId: 'g-101' })]);
      let timer: NodeJS.Timeout | undefined;
      const drained = await Promise.race([h.worker.drain().then(() => 'drained'), new Promise((done) => (timer = setTimeout(() => done('still sending'), 5000)))]);
      clearTimeout(timer);

      expect(drained).toBe('drained');
      expect(requests).toBeGreaterThanOrEqual(1);
      const [row] = await prisma.notificationDelivery.findMany({ where: { playerId: p, channel: 'webhook' } });
      expect(row!.status).toBe('pending');
      expect(row!.lockedUntil).toBeNull();
      expect(row!.lastError).toMatch(/101/);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((done) => server.close(done));
    }
  });
});
