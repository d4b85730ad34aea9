import type http from 'node:http';
import type { PrismaService } from '../../../src/database/prisma.service';
import { IsolatedDatabase, isolatedDatabase } from '../../support/isolated-database';
import { harness, Harness, notificationsConfig } from './harness';
import { httpReceiver, HttpReceiver, Reply, ReceivedRequest, smtpReceiver, SmtpReceiver } from './receivers';

export interface ReceiverSuite {
  db: IsolatedDatabase;
  prisma: PrismaService;
  smtp: SmtpReceiver;
  /** The notifications module with the suite's SMTP receiver as its mail server. */
  h: Harness;
  /** Settings that point mail at the suite's SMTP receiver. */
  env(): Record<string, string>;
  /** A harness with other settings, closed after each test even when the test fails. */
  other(config: ReturnType<typeof notificationsConfig>, opts?: Parameters<typeof harness>[2]): Harness;
  /** A loopback HTTP receiver, closed after the suite; `idOf` tells repeats apart. */
  receiver(reply?: (req: ReceivedRequest, seen: number) => Reply | Promise<Reply>, idOf?: (headers: http.IncomingHttpHeaders, body: string) => string): Promise<HttpReceiver>;
}

/**
 * The fixture of the notification suites that deliver to real receivers: a database of their
 * own, an SMTP receiver, the module, and receivers and extra harnesses that are closed however
 * the tests end. Its fields are set in its beforeAll.
 */
export function receiverSuite(label: string): ReceiverSuite {
  const receivers: HttpReceiver[] = [];
  const extra: Harness[] = [];
  const s: ReceiverSuite = {
    db: undefined as unknown as IsolatedDatabase,
    prisma: undefined as unknown as PrismaService,
    smtp: undefined as unknown as SmtpReceiver,
    h: undefined as unknown as Harness,
    env: () => ({ SMTP_HOST: '127.0.0.1', SMTP_PORT: String(s.smtp.port) }),
    other: (config, opts = {}) => {
      const x = harness(s.prisma, config, opts);
      extra.push(x);
      return x;
    },
    receiver: async (reply, idOf) => {
      const r = await httpReceiver(reply, idOf);
      receivers.push(r);
      return r;
    },
  };
  beforeAll(async () => {
    s.db = await isolatedDatabase(label);
    s.prisma = s.db.prisma();
    s.smtp = await smtpReceiver();
    s.h = harness(s.prisma, notificationsConfig(s.db.url, s.env()));
  });
  afterEach(async () => {
    await s.h.worker.stop();
    for (const x of extra.splice(0)) await x.close();
  });
  afterAll(async () => {
    await s.h?.close();
    for (const r of receivers) await r.close();
    await s.smtp?.close();
    await s.db?.drop();
  });
  return s;
}
