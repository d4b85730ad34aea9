import { BadInputError, NotFoundError } from '../../src/common/errors';
import type { PrismaService } from '../../src/database/prisma.service';
import { IsolatedDatabase, isolatedDatabase } from '../support/isolated-database';
import { discordEndpoint, intent, player, statuses, webhookEndpoint } from './support/fixtures';
import { FakeClock, harness, Harness, notificationsConfig } from './support/harness';

describe('notification preferences', () => {
  let db: IsolatedDatabase;
  let prisma: PrismaService;
  let h: Harness;
  const clock = new FakeClock(Date.parse('2026-12-01T23:00:00Z'));

  beforeAll(async () => {
    db = await isolatedDatabase('prefs');
    prisma = db.prisma();
    h = harness(prisma, notificationsConfig(db.url, { SMTP_HOST: '127.0.0.1', SMTP_PORT: '9', NOTIFY_REMINDER_MINUTES: '600' }), { clock });
  });
  afterAll(async () => {
    await h?.close();
    await db?.drop();
  });

  it('has defaults, player settings and per-game overrides, and says how early to remind', async () => {
    const p = await player(prisma);
    expect(await h.preferences.getPreferences(p)).toEqual({ channels: { email: true, webhook: true, discord: true }, quietHours: null, reminderLeadMinutes: 600, digest: false });
    await h.preferences.setPreferences(p, { reminderLeadMinutes: 120, quietHours: { start: '23:00', end: '06:30' } });
    await h.preferences.setPreferences(p, { reminderLeadMinutes: 30, channels: { webhook: false }, quietHours: null }, 'g-fast');
    expect(await h.preferences.getPreferences(p, 'g-fast')).toEqual({ channels: { email: true, webhook: false, discord: true }, quietHours: null, reminderLeadMinutes: 30, digest: false });
    expect(await h.preferences.getPreferences(p, 'g-other')).toMatchObject({ quietHours: { start: '23:00', end: '06:30' }, reminderLeadMinutes: 120 });
    // What a commit reads to schedule reminders and word notifications: the lead for each game, and
    // the name, for the players asked only.
    const other = await player(prisma, { displayName: 'Other' });
    const fast = await h.outbox.settingsFor('g-fast', [p, other]);
    expect([fast.reminderLeadMinutes(p), fast.reminderLeadMinutes(other), fast.displayName(other)]).toEqual([30, 600, 'Other']);
    const elsewhere = await h.outbox.settingsFor('g-other', [p]);
    expect([elsewhere.reminderLeadMinutes(p), elsewhere.displayName(p), elsewhere.reminderLeadMinutes(other)]).toEqual([120, `Player ${p}`, undefined]);

    await h.preferences.setPreferences(p, { reminderLeadMinutes: null, quietHours: 'inherit' }, 'g-fast');
    expect(await h.preferences.getPreferences(p, 'g-fast')).toMatchObject({ reminderLeadMinutes: 120, quietHours: { start: '23:00', end: '06:30' }, channels: { webhook: false } });
    await h.preferences.clearGamePreferences(p, 'g-fast');
    expect(await h.preferences.getPreferences(p, 'g-fast')).toEqual(await h.preferences.getPreferences(p));
  });

  it('refuses bad settings and unknown players', async () => {
    const p = await player(prisma);
    await expect(h.preferences.setPreferences(p, { quietHours: { start: '25:00', end: '07:00' } })).rejects.toBeInstanceOf(BadInputError);
    await expect(h.preferences.setPreferences(p, { quietHours: { start: '07:00', end: '07:00' } })).rejects.toBeInstanceOf(BadInputError);
    await expect(h.preferences.setPreferences(p, { reminderLeadMinutes: -5 })).rejects.toBeInstanceOf(BadInputError);
    await expect(h.preferences.setPreferences(p, { reminderLeadMinutes: 1.5 })).rejects.toBeInstanceOf(BadInputError);
    await expect(h.preferences.getPreferences('nobody')).rejects.toBeInstanceOf(NotFoundError);
  });

  it('fans out to the channels enabled for that game, and cancels what waits on a channel turned off', async () => {
    const p = await player(prisma, { timeZone: 'UTC' });
    await webhookEndpoint(prisma, p, 'http://127.0.0.1:9/hook');
    await h.preferences.setPreferences(p, { quietHours: { start: '22:00', end: '07:00' } });
    await h.preferences.setPreferences(p, { channels: { webhook: false } }, 'g-mailonly');
    await h.enqueue([intent({ playerId: p, gameId: 'g-mailonly' }), intent({ playerId: p, gameId: 'g-both' })]);
    const rows = await prisma.notificationDelivery.findMany({ where: { playerId: p }, include: { notification: true }, orderBy: { channel: 'asc' } });
    expect(rows.map((r) => [r.notification.gameId, r.channel]).sort()).toEqual([['g-both', 'email'], ['g-both', 'webhook'], ['g-mailonly', 'email']]);

    // Mail waits for the end of quiet hours; unsubscribing from one game cancels that game's.
    await h.preferences.unsubscribe({ playerId: p, gameId: 'g-mailonly' });
    expect(await statuses(prisma, p, 'email')).toEqual({ cancelled: 1, pending: 1 });
    await h.preferences.unsubscribe({ playerId: p, gameId: null });
    expect(await statuses(prisma, p, 'email')).toEqual({ cancelled: 2 });
    expect(await h.preferences.getPreferences(p)).toMatchObject({ channels: { email: false } });
  });

  it('stops all mail in one transaction: if the default cannot be saved, the games\' own mail settings stay as they were', async () => {
    const p = await player(prisma);
    await h.preferences.setPreferences(p, { channels: { email: true } }, 'g-loud-mail');
    // A real failure of the second write: the database refuses to turn this player's default mail off.
    await prisma.pool.query(`CREATE FUNCTION refuse_default_off() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN IF NEW.player_id = '${p}' AND NEW.game_id = '' AND NEW.email_enabled = false THEN RAISE EXCEPTION 'refused'; END IF; RETURN NEW; END $$`);
    await prisma.pool.query('CREATE TRIGGER refuse_default_off BEFORE INSERT OR UPDATE ON notification_preferences FOR EACH ROW EXECUTE FUNCTION refuse_default_off()');
    try {
      await expect(h.preferences.unsubscribe({ playerId: p, gameId: null })).rejects.toThrow();
      // The game's own "mail on" must survive: cleared alone, it would follow a default turned off later.
      const own = await prisma.notificationPreference.findUnique({ where: { playerId_gameId: { playerId: p, gameId: 'g-loud-mail' } } });
      expect(own?.emailEnabled).toBe(true);
    } finally {
      await prisma.pool.query('DROP TRIGGER refuse_default_off ON notification_preferences');
      await prisma.pool.query('DROP FUNCTION refuse_default_off()');
    }
    await h.preferences.unsubscribe({ playerId: p, gameId: null });
    expect(await h.preferences.getPreferences(p, 'g-loud-mail')).toMatchObject({ channels: { email: false } });
  });

  it('honours each per-game field over the player\'s defaults on its own, in what it plans and in what already waits', async () => {
    // The clock is 23:00 UTC: inside the default quiet hours (22:00-07:00).
    const p = await player(prisma, { timeZone: 'UTC' });
    await webhookEndpoint(prisma, p, 'http://127.0.0.1:9/hook');
    await discordEndpoint(prisma, p, 'http://127.0.0.1:9/api/webhooks/1/x');
    await h.preferences.setPreferences(p, { quietHours: { start: '22:00', end: '07:00' }, reminderLeadMinutes: 120, digest: false });
    await h.preferences.setPreferences(p, { channels: { email: false } }, 'g-nomail');
    await h.preferences.setPreferences(p, { channels: { webhook: false, discord: false }, reminderLeadMinutes: 30 }, 'g-mailonly');
    await h.preferences.setPreferences(p, { quietHours: null, digest: true }, 'g-loud');
    await h.preferences.setPreferences(p, { quietHours: { start: '23:30', end: '06:00' } }, 'g-late');
    await h.enqueue(['g-plain', 'g-nomail', 'g-mailonly', 'g-loud', 'g-late'].map((gameId) => intent({ playerId: p, gameId })));

    const rows = await prisma.notificationDelivery.findMany({ where: { playerId: p }, include: { notification: true } });
    const planned = Object.fromEntries(
      ['g-plain', 'g-nomail', 'g-mailonly', 'g-loud', 'g-late'].map((g) => [
        g,
        rows
          .filter((r) => r.notification.gameId === g)
          .map((r) => `${r.channel} ${r.status} ${r.notBefore.toISOString().slice(11, 16)}`)
          .sort(),
      ]),
    );
    expect(planned).toEqual({
      'g-plain': ['discord pending 07:00', 'email pending 07:00', 'webhook pending 23:00'],
      // Only mail is off; quiet hours still come from the defaults.
      'g-nomail': ['discord pending 07:00', 'webhook pending 23:00'],
      'g-mailonly': ['email pending 07:00'],
      // No quiet hours in this game, and its mail waits for the digest (at 18:00 the next day).
      'g-loud': ['discord pending 23:00', 'email held 18:00', 'webhook pending 23:00'],
      // This game's quiet hours, not the defaults: 23:00 is not quiet yet.
      'g-late': ['discord pending 23:00', 'email pending 23:00', 'webhook pending 23:00'],
    });
    expect(await Promise.all(['g-plain', 'g-mailonly', 'g-loud'].map((g) => h.outbox.settingsFor(g, [p]).then((s) => s.reminderLeadMinutes(p))))).toEqual([120, 30, 120]);

    // Changing one game's field later reaches what waits for that game only.
    await h.preferences.setPreferences(p, { digest: null }, 'g-loud');
    const loudMail = await prisma.notificationDelivery.findFirstOrThrow({ where: { playerId: p, channel: 'email', notification: { gameId: 'g-loud' } } });
    expect(loudMail).toMatchObject({ status: 'pending', digestId: null });
    await h.preferences.setPreferences(p, { channels: { discord: false } }, 'g-nomail');
    expect(await statuses(prisma, p, 'discord')).toEqual({ pending: 3, cancelled: 1 });
  });

  it('sends mail held for a digest turned off when it would have gone without one: after quiet hours, unless its deadline comes first', async () => {
    // The clock is 23:00 UTC: inside these quiet hours (22:00-07:00).
    const p = await player(prisma, { timeZone: 'UTC' });
    await h.preferences.setPreferences(p, { quietHours: { start: '22:00', end: '07:00' }, digest: true });
    await h.enqueue([
      intent({ playerId: p, gameId: 'g-calm', content: { deadlineAt: '2026-12-04T17:00:00.000Z' } }),
      intent({ playerId: p, gameId: 'g-urgent', content: { deadlineAt: '2026-12-02T05:00:00.000Z' } }),
      intent({ playerId: p, gameId: 'g-theirs', content: { yourTurn: false, deadlineAt: '2026-12-02T05:00:00.000Z' } }),
    ]);
    const mail = async () =>
      Object.fromEntries(
        (await prisma.notificationDelivery.findMany({ where: { playerId: p, channel: 'email', notification: { gameId: { not: null } } }, include: { notification: true } })).map((d) => [d.notification.gameId, `${d.status} ${d.notBefore.toISOString()}`]),
      );
    // The urgent one's deadline comes before the digest: it was never held.
    expect(await mail()).toEqual({ 'g-calm': 'held 2026-12-02T18:00:00.000Z', 'g-urgent': 'pending 2026-12-01T23:00:00.000Z', 'g-theirs': 'held 2026-12-02T18:00:00.000Z' });
    await h.preferences.setPreferences(p, { digest: false });
    // Out of the digest, mail waits for the end of the quiet hours, as it would have without one;
    // a deadline that binds only the other side does not hurry it.
    expect(await mail()).toEqual({ 'g-calm': 'pending 2026-12-02T07:00:00.000Z', 'g-urgent': 'pending 2026-12-01T23:00:00.000Z', 'g-theirs': 'pending 2026-12-02T07:00:00.000Z' });
  });

  it('moves mail and Discord messages waiting only for quiet hours when the quiet hours change, per game or for all', async () => {
    // The clock is 23:00 UTC: inside these quiet hours (22:00-07:00).
    const p = await player(prisma, { timeZone: 'UTC' });
    await webhookEndpoint(prisma, p, 'http://127.0.0.1:9/hook');
    await discordEndpoint(prisma, p, 'http://127.0.0.1:9/api/webhooks/1/x');
    await h.preferences.setPreferences(p, { quietHours: { start: '22:00', end: '07:00' } });
    await h.enqueue(['g-a', 'g-b', 'g-c'].map((gameId) => intent({ playerId: p, gameId })));
    // One mail already tried and waiting for a retry keeps its backoff time.
    const retried = await prisma.notificationDelivery.findFirstOrThrow({ where: { playerId: p, channel: 'email', notification: { gameId: 'g-c' } } });
    await prisma.notificationDelivery.update({ where: { id: retried.id }, data: { attempts: 1, notBefore: new Date('2026-12-02T03:00:00Z') } });
    const waiting = async () =>
      (await prisma.notificationDelivery.findMany({ where: { playerId: p }, include: { notification: true } }))
        .map((d) => `${d.notification.gameId} ${d.channel} ${d.status} ${d.notBefore.toISOString().slice(11, 16)}`)
        .sort();

    await h.preferences.setPreferences(p, { quietHours: null }, 'g-a');
    await h.preferences.setPreferences(p, { quietHours: { start: '21:00', end: '09:30' } }, 'g-b');
    expect(await waiting()).toEqual([
      'g-a discord pending 23:00',
      'g-a email pending 23:00',
      'g-a webhook pending 23:00',
      'g-b discord pending 09:30',
      'g-b email pending 09:30',
      'g-b webhook pending 23:00',
      'g-c discord pending 07:00',
      'g-c email pending 03:00',
      'g-c webhook pending 23:00',
    ]);
    // No quiet hours at all any more: what waited for them goes now, the retry still waits its turn.
    await h.preferences.clearGamePreferences(p, 'g-b');
    await h.preferences.setPreferences(p, { quietHours: null });
    expect((await waiting()).filter((d) => !d.endsWith('23:00'))).toEqual(['g-c email pending 03:00']);
  });

  it('moves a digest already queued when the quiet hours or the time zone change; one being retried keeps its backoff', async () => {
    // The clock is 23:00 UTC; the digest hour is 18:00 local, so tomorrow's digest is queued.
    const p = await player(prisma, { timeZone: 'UTC' });
    await h.preferences.setPreferences(p, { digest: true });
    await h.enqueue([intent({ playerId: p, gameId: 'g-digest', content: { deadlineAt: '2026-12-05T17:00:00.000Z' } })]);
    const digest = async () => {
      const d = await prisma.notificationDelivery.findFirstOrThrow({ where: { playerId: p, notification: { kind: 'digest' } } });
      return `${d.status} ${d.notBefore.toISOString()}`;
    };
    expect(await digest()).toBe('pending 2026-12-02T18:00:00.000Z');
    // Quiet hours now cover the digest hour: it goes when they end, as a new digest would.
    await h.preferences.setPreferences(p, { quietHours: { start: '17:00', end: '19:30' } });
    expect(await digest()).toBe('pending 2026-12-02T19:30:00.000Z');
    await h.preferences.setPreferences(p, { quietHours: null });
    expect(await digest()).toBe('pending 2026-12-02T18:00:00.000Z');
    // 18:00 of the same local day, in New York.
    await prisma.player.update({ where: { id: p }, data: { timeZone: 'America/New_York' } });
    await h.preferences.timeZoneChanged(p);
    expect(await digest()).toBe('pending 2026-12-02T23:00:00.000Z');
    // Tried once and failed: its retry waits for its backoff, whatever the quiet hours.
    await prisma.notificationDelivery.updateMany({ where: { playerId: p, notification: { kind: 'digest' } }, data: { attempts: 1, notBefore: new Date('2026-12-02T23:05:00Z') } });
    await h.preferences.setPreferences(p, { quietHours: { start: '17:00', end: '19:30' } });
    expect(await digest()).toBe('pending 2026-12-02T23:05:00.000Z');
  });

  it('sends mail held for a digest on its own when the digest moves past the deadline the mail is about', async () => {
    // The clock is 23:00 UTC; tomorrow's digest (18:00) comes before the 20:00 deadline: held.
    const p = await player(prisma, { timeZone: 'UTC' });
    await h.preferences.setPreferences(p, { digest: true });
    await h.enqueue([
      intent({ playerId: p, gameId: 'g-soon', content: { deadlineAt: '2026-12-02T20:00:00.000Z' } }),
      intent({ playerId: p, gameId: 'g-later', content: { deadlineAt: '2026-12-05T20:00:00.000Z' } }),
    ]);
    const mail = async () =>
      Object.fromEntries(
        (await prisma.notificationDelivery.findMany({ where: { playerId: p }, include: { notification: true } })).map((d) => [d.notification.gameId ?? d.notification.kind, `${d.status} ${d.notBefore.toISOString()}`]),
      );
    expect(await mail()).toEqual({ 'g-soon': 'held 2026-12-02T18:00:00.000Z', 'g-later': 'held 2026-12-02T18:00:00.000Z', digest: 'pending 2026-12-02T18:00:00.000Z' });
    // Quiet until 21:00 moves the digest past 20:00: that mail goes now, as it would have been
    // planned; the other stays held and goes with the digest.
    await h.preferences.setPreferences(p, { quietHours: { start: '17:00', end: '21:00' } });
    expect(await mail()).toEqual({ 'g-soon': 'pending 2026-12-01T23:00:00.000Z', 'g-later': 'held 2026-12-02T21:00:00.000Z', digest: 'pending 2026-12-02T21:00:00.000Z' });
  });

  it('lists deliveries page by page, newest first', async () => {
    const p = await player(prisma);
    await h.enqueue([1, 2, 3, 4, 5].map((v) => intent({ playerId: p, gameId: 'g-list', version: v })));
    const first = await h.deliveries.listDeliveries(p, { limit: 2 });
    expect(first.items).toHaveLength(2);
    const rest = await h.deliveries.listDeliveries(p, { limit: 10, after: first.nextCursor! });
    expect(rest.items).toHaveLength(3);
    expect(rest.nextCursor).toBeNull();
    expect(new Set([...first.items, ...rest.items].map((d) => d.id)).size).toBe(5);
    expect((await h.deliveries.listDeliveries(p, { status: ['dead'] })).items).toEqual([]);
  });
});
