import type { AddressInfo, Socket } from 'node:net';
import { SMTPServer } from 'smtp-server';
import type { PrismaService } from '../../src/database/prisma.service';
import { IsolatedDatabase, isolatedDatabase } from '../support/isolated-database';
import { intent, player } from './support/fixtures';
import { harness, Harness, notificationsConfig } from './support/harness';
import { eventually } from './support/receivers';

/**
 * A mail server that takes the message, then never finishes its answer: it trickles one more line
 * of a multi-line reply ("250-") every 100 ms, so no idle timeout of the client ever fires.
 */
async function tricklingSmtp() {
  const sockets = new Set<Socket>();
  let messages = 0;
  const server = new SMTPServer({
    logger: false,
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, session) {
      stream.resume();
      stream.on('end', () => {
        messages += 1;
        const socket = [...sockets].find((s) => s.remotePort === session.remotePort);
        const timer = setInterval(() => socket?.write('250-still working on it\r\n'), 100);
        socket?.once('close', () => clearInterval(timer));
      });
    },
  });
  server.server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.once('close', () => sockets.delete(s));
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return {
    port: (server.server.address() as AddressInfo).port,
    messages: () => messages,
    open: () => sockets.size,
    close: () => {
      for (const s of sockets) s.destroy();
      return new Promise<void>((done) => server.close(() => done()));
    },
  };
}

describe('a mail server that trickles its answer forever (real SMTP server on loopback)', () => {
  let db: IsolatedDatabase;
  let prisma: PrismaService;
  let smtp: Awaited<ReturnType<typeof tricklingSmtp>>;
  let h: Harness | undefined;

  beforeAll(async () => {
    db = await isolatedDatabase('trickling_smtp');
    prisma = db.prisma();
    smtp = await tricklingSmtp();
  });
  afterAll(async () => {
    await smtp?.close();
    await h?.close();
    await db?.drop();
  });

  it('gives the send up after NOTIFY_SEND_TIMEOUT_MS: a failed attempt, retried later, its lease no longer renewed, its connection closed', async () => {
    const config = notificationsConfig(db.url, {
      SMTP_HOST: '127.0.0.1',
      SMTP_PORT: String(smtp.port),
      NOTIFY_HTTP_TIMEOUT_MS: '1000',
      NOTIFY_LEASE_MS: '1200',
      NOTIFY_SEND_TIMEOUT_MS: '2500',
      NOTIFY_RETRY_BASE_MS: '60000',
      NOTIFY_RETRY_MAX_DELAY_MS: '60000',
    });
    h = harness(prisma, config);
    const p = await player(prisma);
    await h.enqueue([intent({ playerId: p, gameId: 'g-trickle' })]);

    const started = Date.now();
    const drained = await Promise.race([h.worker.drain(), new Promise((r) => setTimeout(() => r('still sending'), 10_000))]);
    expect(drained).toBe(1);
    expect(Date.now() - started).toBeGreaterThanOrEqual(2500);

    const row = await prisma.notificationDelivery.findFirstOrThrow({ where: { playerId: p } });
    expect(row).toMatchObject({ status: 'pending', attempts: 1, lockedUntil: null });
    expect(row.lastError).toContain('no complete send within 2500 ms (NOTIFY_SEND_TIMEOUT_MS)');
    expect(row.notBefore.getTime()).toBeGreaterThan(Date.now());

    await eventually(() => smtp.open() === 0, 3000, 'the client to close the trickled connection');
    // Longer than a renewal period (a third of the lease) and than the mail library's own resend
    // of a message whose connection closed: neither happens.
    await new Promise((r) => setTimeout(r, 1000));
    expect(await prisma.notificationDelivery.findFirstOrThrow({ where: { playerId: p } })).toMatchObject({ lockedUntil: null, attempts: 1 });
    expect(smtp.messages()).toBe(1);
    expect(smtp.open()).toBe(0);
  }, 30_000);
});
