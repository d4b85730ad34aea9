import { BadInputError, NotFoundError } from '../../src/common/errors';
import type { PrismaService } from '../../src/database/prisma.service';
import { describeOnServer, IsolatedDatabase, isolatedDatabase } from '../support/isolated-database';
import { intent, player, statuses, webhookEndpoint } from './support/fixtures';
import { FakeClock, harness, Harness, notificationsConfig } from './support/harness';

describeOnServer('notification preferences', () => {
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
    expect(await h.preferences.reminderLeadMinutes(p, 'g-fast')).toBe(30);
    expect(await h.preferences.reminderLeadMinutes(p, 'g-other')).toBe(120);

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
