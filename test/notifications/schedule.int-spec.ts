import type { PrismaService } from '../../src/database/prisma.service';
import { IsolatedDatabase, isolatedDatabase } from '../support/isolated-database';
import { intent, player, statuses, webhookEndpoint } from './support/fixtures';
import { FakeClock, harness, Harness, notificationsConfig } from './support/harness';
import { httpReceiver, HttpReceiver, smtpReceiver, SmtpReceiver } from './support/receivers';

describe('quiet hours and the daily digest (fake clock, real SMTP)', () => {
  let db: IsolatedDatabase;
  let prisma: PrismaService;
  let smtp: SmtpReceiver;
  let hook: HttpReceiver;
  let clock: FakeClock;
  let h: Harness;
  const mailsTo = (address: string) => smtp.mails.filter((m) => m.envelopeTo.includes(address));

  beforeAll(async () => {
    db = await isolatedDatabase('schedule');
    prisma = db.prisma();
    smtp = await smtpReceiver();
    hook = await httpReceiver();
    clock = new FakeClock(0);
    h = harness(prisma, notificationsConfig(db.url, { SMTP_HOST: '127.0.0.1', SMTP_PORT: String(smtp.port), NOTIFY_DIGEST_HOUR: '18' }), { clock });
  });
  afterAll(async () => {
    await h?.close();
    await hook?.close();
    await smtp?.close();
    await db?.drop();
  });

  it('holds a mail until quiet hours end in the player time zone; webhooks are not held', async () => {
    clock.set('2026-12-01T22:30:00Z'); // 23:30 in Berlin
    const email = 'night-owl@players.test';
    const p = await player(prisma, { email, timeZone: 'Europe/Berlin' });
    await webhookEndpoint(prisma, p, hook.url);
    await h.preferences.setPreferences(p, { quietHours: { start: '22:00', end: '07:00' } });
    await h.enqueue([intent({ playerId: p, gameId: 'g-quiet' })]);
    await h.worker.drain();
    expect(mailsTo(email)).toHaveLength(0);
    expect(hook.requests).toHaveLength(1);
    const [pending] = await prisma.notificationDelivery.findMany({ where: { playerId: p, channel: 'email' } });
    expect(pending).toMatchObject({ status: 'pending', notBefore: new Date('2026-12-02T06:00:00Z') });

    clock.set('2026-12-02T05:59:00Z');
    await h.worker.drain();
    expect(mailsTo(email)).toHaveLength(0);
    clock.set('2026-12-02T06:00:00Z'); // 07:00 in Berlin
    await h.worker.drain();
    expect(mailsTo(email)).toHaveLength(1);
  });

  it('does not hold a reminder past the deadline it is about', async () => {
    clock.set('2026-12-01T23:00:00Z');
    const email = 'late@players.test';
    const p = await player(prisma, { email, timeZone: 'Europe/Berlin' });
    await h.preferences.setPreferences(p, { quietHours: { start: '22:00', end: '08:00' } });
    await h.enqueue([intent({ playerId: p, gameId: 'g-quiet', kind: 'deadline_reminder', content: { deadlineAt: '2026-12-02T05:00:00.000Z' } })]);
    await h.worker.drain();
    expect(mailsTo(email).map((m) => m.mail.subject)).toEqual(['[Fieldpost] Gators at the Bridge: turn 2, P1 Movement — deadline soon']);
  });

  it('groups a day of turns into one digest mail at the local digest hour; reminders still go at once', async () => {
    clock.set('2026-12-01T09:00:00Z'); // 04:00 in New York; the digest is at 18:00 there = 23:00Z
    const email = 'digest@players.test';
    const p = await player(prisma, { email, timeZone: 'America/New_York' });
    await h.preferences.setPreferences(p, { digest: true });
    await h.enqueue([intent({ playerId: p, gameId: 'g-d1', version: 1, content: { turn: 1, gameTitle: 'First Game' } })]);
    clock.set('2026-12-01T12:00:00Z');
    await h.enqueue([intent({ playerId: p, gameId: 'g-d2', version: 1, content: { turn: 1, gameTitle: 'Second Game', happened: ['Red dug in.'] } })]);
    clock.set('2026-12-01T15:00:00Z');
    await h.enqueue([intent({ playerId: p, gameId: 'g-d1', version: 2, content: { turn: 2, gameTitle: 'First Game' } })]);
    await h.enqueue([intent({ playerId: p, gameId: 'g-d1', version: 3, kind: 'deadline_reminder', content: { turn: 2, gameTitle: 'First Game' } })]);
    await h.worker.drain();
    expect(mailsTo(email).map((m) => m.mail.subject)).toEqual(['[Fieldpost] First Game: turn 2, P1 Movement — deadline soon']);
    expect(await statuses(prisma, p, 'email')).toEqual({ held: 3, pending: 1, delivered: 1 });

    clock.set('2026-12-01T23:00:00Z');
    await h.worker.drain();
    const mails = mailsTo(email);
    expect(mails).toHaveLength(2);
    const digest = mails[1]!.mail;
    expect(digest.subject).toBe('[Fieldpost] Your daily digest for 2026-12-01: 3 updates');
    expect(digest.text).toContain('First Game: turn 2, P1 Movement');
    expect(digest.text).toContain('  * Turn 1, P1 Movement: It is your turn.');
    expect(digest.text).toContain('  * Turn 2, P1 Movement: It is your turn.');
    expect(digest.text).toContain('Second Game: turn 1, P1 Movement');
    expect(digest.text).toContain('      - Red dug in.');
    expect(digest.text).toContain('Act now: https://fieldpost.test/games/g-d2/act');
    expect(digest.html).toContain('<h3>Second Game: turn 1, P1 Movement</h3>');
    expect(await statuses(prisma, p, 'email')).toEqual({ delivered: 5 });

    // The next turn waits for the next day's digest.
    await h.enqueue([intent({ playerId: p, gameId: 'g-d1', version: 4, content: { turn: 3, gameTitle: 'First Game' } })]);
    const [next] = await prisma.notificationDelivery.findMany({ where: { playerId: p, status: 'held' } });
    expect(next!.notBefore).toEqual(new Date('2026-12-02T23:00:00Z'));

    // Turning the digest off lets held mail go now, one by one.
    await h.preferences.setPreferences(p, { digest: false });
    await h.worker.drain();
    expect(mailsTo(email).map((m) => m.mail.subject).slice(2)).toEqual(['[Fieldpost] First Game: turn 3, P1 Movement — your turn']);
  });

  it('sends a mail alone when its digest is already on its way (a worker whose clock is a little ahead took it)', async () => {
    clock.set('2026-12-05T10:00:00Z');
    const email = 'race@players.test';
    const p = await player(prisma, { email, timeZone: 'UTC' });
    await h.preferences.setPreferences(p, { digest: true });
    // A deadline after the digest hour (mail about one due sooner goes at once, plan.spec.ts).
    const later = { deadlineAt: '2026-12-08T17:00:00.000Z' };
    await h.enqueue([intent({ playerId: p, gameId: 'g-race', version: 1, content: later })]);
    const claimed = await h.repo.claim(10, new Date('2026-12-05T18:00:00Z'), 60_000, 'other-worker');
    expect(claimed.filter((c) => c.playerId === p).map((c) => c.notification.kind)).toEqual(['digest']);
    clock.set('2026-12-05T17:59:59Z');
    await h.enqueue([intent({ playerId: p, gameId: 'g-race', version: 2, content: later })]);
    const late = await prisma.notificationDelivery.findFirstOrThrow({ where: { notificationId: `g-race:2:your_turn:${p}` } });
    expect(late).toMatchObject({ status: 'pending', digestId: null });
  });
});
