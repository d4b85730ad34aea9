import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import type { PrismaService } from '../../src/database/prisma.service';
import { IsolatedDatabase, isolatedDatabase } from '../support/isolated-database';
import { intent, player, statuses } from './support/fixtures';
import { harness, Harness, notificationsConfig } from './support/harness';

/**
 * A mail server that answers every step, but slowly (tarpitting): each wait is inside the
 * SMTP idle timeouts, and the whole exchange is longer than a worker's lease.
 */
async function slowSmtp(stepMs: number): Promise<{ port: number; received: () => number; close: () => Promise<void> }> {
  let received = 0;
  const later = (done: () => void) => setTimeout(done, stepMs);
  const server = new SMTPServer({
    logger: false,
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onConnect: (_session, callback) => later(() => callback()),
    onMailFrom: (_address, _session, callback) => later(() => callback()),
    onRcptTo: (_address, _session, callback) => later(() => callback()),
    onData(stream, _session, callback) {
      stream.resume();
      stream.on('end', () =>
        later(() => {
          received += 1;
          callback();
        }),
      );
    },
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return { port: (server.server.address() as AddressInfo).port, received: () => received, close: () => new Promise((done) => server.close(() => done())) };
}

describe('a mail server slower than the lease, though never idle past its timeouts (real SMTP server on loopback)', () => {
  let db: IsolatedDatabase;
  let prisma: PrismaService;
  let smtp: Awaited<ReturnType<typeof slowSmtp>>;
  const workers: Harness[] = [];

  beforeAll(async () => {
    db = await isolatedDatabase('slow_smtp');
    prisma = db.prisma();
    smtp = await slowSmtp(400);
  });
  afterAll(async () => {
    for (const w of workers) await w.close();
    await smtp?.close();
    await db?.drop();
  });

  it('keeps the delivery to the worker still sending it: a second worker does not send the same mail meanwhile', async () => {
    const config = notificationsConfig(db.url, { SMTP_HOST: '127.0.0.1', SMTP_PORT: String(smtp.port), NOTIFY_HTTP_TIMEOUT_MS: '1000', NOTIFY_LEASE_MS: '1200' });
    const [a, b] = [harness(prisma, config), harness(prisma, config)];
    workers.push(a!, b!);
    const p = await player(prisma);
    await a!.enqueue([intent({ playerId: p, gameId: 'g-slow' })]);

    const first = a!.worker.drain();
    const tries: number[] = [];
    // Well past the lease, while the first worker's mail is still on its way.
    for (let t = 0; t < 12; t += 1) {
      await new Promise((r) => setTimeout(r, 150));
      tries.push(await b!.worker.drain());
    }
    expect(await first).toBe(1);
    await b!.worker.drain();

    expect(smtp.received()).toBe(1);
    expect(tries.every((n) => n === 0)).toBe(true);
    expect(await statuses(prisma, p, 'email')).toEqual({ delivered: 1 });
  });
});
