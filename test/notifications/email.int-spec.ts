import { renderEmail } from '../../src/notifications/templates/email.template';
import type { PrismaService } from '../../src/database/prisma.service';
import { deliveryId } from '../../src/notifications/outbox/delivery-id';
import { IsolatedDatabase, isolatedDatabase } from '../support/isolated-database';
import { intent, player, statuses } from './support/fixtures';
import { harness, Harness, notificationsConfig } from './support/harness';
import { eventually, smtpReceiver, SmtpReceiver } from './support/receivers';

describe('email over SMTP (smtp-server on loopback, STARTTLS and AUTH)', () => {
  let db: IsolatedDatabase;
  let prisma: PrismaService;
  let smtp: SmtpReceiver;
  let h: Harness;

  beforeAll(async () => {
    db = await isolatedDatabase('email');
    prisma = db.prisma();
    smtp = await smtpReceiver({ user: 'fieldpost', password: 'mail-secret', starttls: true, refuse: (a) => (a.startsWith('gone-') ? { code: 550, message: 'No such user here' } : null) });
    h = harness(
      prisma,
      notificationsConfig(db.url, {
        SMTP_HOST: '127.0.0.1',
        SMTP_PORT: String(smtp.port),
        SMTP_USER: 'fieldpost',
        SMTP_PASSWORD: 'mail-secret',
        SMTP_REQUIRE_TLS: 'true',
        SMTP_TLS_REJECT_UNAUTHORIZED: 'false',
        MAIL_FROM: 'Fieldpost <turns@fieldpost.test>',
      }),
    );
  });
  afterAll(async () => {
    await h?.close();
    await smtp?.close();
    await db?.drop();
  });

  it('delivers exactly the mail it rendered: subject, both bodies, headers and links', async () => {
    const alice = await player(prisma, { email: 'alice@players.test', displayName: 'Alice', timeZone: 'Europe/Berlin' });
    const i = intent({ playerId: alice, gameId: 'g-email' });
    await h.enqueue([i]);
    await h.enqueue([i]); // the same trigger again: a no-op
    await h.worker.drain();

    expect(smtp.mails).toHaveLength(1);
    const got = smtp.mails[0]!;
    expect(got.secure).toBe(true);
    expect(got.user).toBe('fieldpost');
    expect(got.envelopeTo).toEqual(['alice@players.test']);

    const id = deliveryId(i.id, 'email', null);
    const row = await prisma.notification.findUniqueOrThrow({ where: { id: i.id } });
    const expected = renderEmail(
      { kind: 'your_turn', notificationId: i.id, gameId: i.gameId, side: i.side, gameVersion: i.gameVersion, createdAt: row.createdAt.toISOString(), content: i.content },
      { playerId: alice, email: 'alice@players.test', displayName: 'Alice', timeZone: 'Europe/Berlin' },
      { deliveryId: id, messageIdDomain: 'fieldpost.test', unsubscribe: { game: h.tokens.url({ playerId: alice, gameId: 'g-email' }), all: h.tokens.url({ playerId: alice, gameId: null }) } },
    );
    const mail = got.mail;
    expect(mail.subject).toBe('[Fieldpost] Gators at the Bridge: turn 2, P1 Movement — your turn');
    expect(mail.subject).toBe(expected.subject);
    expect(mail.text).toBe(expected.text);
    expect(mail.html).toBe(expected.html);
    expect(mail.from?.value).toEqual([{ name: 'Fieldpost', address: 'turns@fieldpost.test' }]);
    expect(mail.messageId).toBe(`<${id}@fieldpost.test>`);

    expect(mail.text).toContain('It is your turn.');
    expect(mail.text).toContain('  - Red moved 2 units.');
    expect(mail.text).toContain('Whose turn: Blue (Alice): you.');
    expect(mail.text).toContain('Deadline: Friday, 4 December 2026 at 18:00 CET (Europe/Berlin)');
    expect(mail.text).toContain('Act now: https://fieldpost.test/games/g-email/act');
    expect(mail.html).toContain('<a href="https://fieldpost.test/games/g-email/act">Act now</a>');

    const headers = got.raw.split(/\r?\n\r?\n/)[0]!.replace(/\r?\n[ \t]+/g, ' ');
    expect(headers).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click$/m);
    const listUnsubscribe = /^List-Unsubscribe: <([^>]+)>$/m.exec(headers)?.[1] ?? '';
    expect(listUnsubscribe).toMatch(/^https:\/\/fieldpost\.test\/api\/v1\/notifications\/unsubscribe\?token=/);
    expect(h.tokens.read(new URL(listUnsubscribe).searchParams.get('token')!)).toEqual({ playerId: alice, gameId: 'g-email' });
    expect(mail.text).toContain(`Stop mail about this game: ${listUnsubscribe}`);
    expect(mail.headers.get('auto-submitted')).toBe('auto-generated');
    expect(mail.headers.get('x-fieldpost-notification-id')).toBe(i.id);
    expect(await statuses(prisma, alice)).toEqual({ delivered: 1 });
  });

  it('dead-letters a mail the server refuses for good (5xx), and the player can see it', async () => {
    const bob = await player(prisma, { email: 'gone-bob@players.test' });
    await h.enqueue([intent({ playerId: bob, gameId: 'g-email' })]);
    await h.worker.drain();
    const { items } = await h.deliveries.listDeliveries(bob, { status: ['dead'] });
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ channel: 'email', status: 'dead', attempts: 1, lastStatus: 550, kind: 'your_turn', gameId: 'g-email' });
    expect(items[0]!.lastError).toMatch(/No such user here/);
  });

  it('retries, and does not dead-letter, mail that failed because the server refused Fieldpost\'s own login (535)', async () => {
    const config = {
      SMTP_HOST: '127.0.0.1',
      SMTP_PORT: String(smtp.port),
      SMTP_USER: 'fieldpost',
      SMTP_REQUIRE_TLS: 'true',
      SMTP_TLS_REJECT_UNAUTHORIZED: 'false',
    };
    // A password being rotated: nothing is wrong with the mail, and every mail would fail alike.
    const wrong = harness(prisma, notificationsConfig(db.url, { ...config, SMTP_PASSWORD: 'old-secret' }));
    const erin = await player(prisma);
    await wrong.enqueue([intent({ playerId: erin, gameId: 'g-email-auth' })]);
    await wrong.worker.drain();
    await wrong.close();
    const [row] = await prisma.notificationDelivery.findMany({ where: { playerId: erin } });
    expect(row).toMatchObject({ status: 'pending', lastStatus: 535 });
    expect(row!.lastError).toMatch(/^EAUTH: /);

    const before = smtp.mails.length;
    const fixed = harness(prisma, notificationsConfig(db.url, { ...config, SMTP_PASSWORD: 'mail-secret' }));
    await eventually(async () => (await fixed.worker.drain()) > 0, 5000, 'the retry');
    await fixed.close();
    expect(await statuses(prisma, erin)).toEqual({ delivered: 1 });
    expect(smtp.mails).toHaveLength(before + 1);
  });

  it('has no email channel without SMTP_HOST: nothing is queued for it', async () => {
    const off = harness(prisma, notificationsConfig(db.url));
    const carol = await player(prisma);
    await off.enqueue([intent({ playerId: carol, gameId: 'g-email' })]);
    expect(await prisma.notification.count({ where: { playerId: carol } })).toBe(1);
    expect(await statuses(prisma, carol)).toEqual({});
    await off.close();
  });

  it('sends with the worker loop running, promptly', async () => {
    const dan = await player(prisma);
    h.worker.start();
    const before = smtp.mails.length;
    const t0 = Date.now();
    await h.enqueue([intent({ playerId: dan, gameId: 'g-email-loop' })]);
    await eventually(() => smtp.mails.length === before + 1, 5000, 'the mail');
    expect(Date.now() - t0).toBeLessThan(4000);
    await h.worker.stop();
  });
});
