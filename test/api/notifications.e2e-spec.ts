import request from 'supertest';
import { PrismaService } from '../../src/database/prisma.service';
import { uniqueId } from '../support/database';
import { setupA, setupB } from '../support/kernel-game';
import { apiApp, ApiApp, data, firstError } from './support/api-app';
import { serviceGame } from './support/service-game';

describe('notification settings and dead letters through the API', () => {
  let app: ApiApp;
  beforeAll(async () => {
    app = await apiApp();
  });
  afterAll(async () => {
    await app.close();
  });

  it('reads and changes the defaults and one game\'s settings', async () => {
    const p = await app.player('Nia');
    const game = data(await app.gql(p.token, 'mutation { createGame(input: { scenarioId: "kernel-test", side: "A" }) { id } }'))['createGame'].id;
    const defaults = data(await app.gql(p.token, '{ me { notificationSettings { gameId channels { email webhook discord } quietHours { start end } reminderLeadMinutes digest } } }'))['me'].notificationSettings;
    expect(defaults).toMatchObject({ gameId: null, channels: { email: true }, quietHours: null, digest: false });
    const changed = data(await app.gql(p.token, 'mutation { updateNotificationSettings(input: { digest: true, quietStart: "22:00", quietEnd: "07:30" }) { quietHours { start end } digest } }'))['updateNotificationSettings'];
    expect(changed).toEqual({ quietHours: { start: '22:00', end: '07:30' }, digest: true });
    const perGame = data(await app.gql(p.token, 'mutation($g: ID!) { updateNotificationSettings(gameId: $g, input: { email: false }) { gameId channels { email } digest } }', { g: game }))['updateNotificationSettings'];
    expect(perGame).toEqual({ gameId: game, channels: { email: false }, digest: true });
    const rest = await request(app.http).get(`/api/v1/me/notifications?gameId=${game}`).set('Authorization', `Bearer ${p.token}`);
    expect(rest.body).toMatchObject({ gameId: game, channels: { email: false } });
    const cleared = data(await app.gql(p.token, 'mutation($g: ID!) { clearGameNotificationSettings(gameId: $g) { channels { email } } }', { g: game }))['clearGameNotificationSettings'];
    expect(cleared.channels.email).toBe(true);
    const bad = await app.gql(p.token, 'mutation { updateNotificationSettings(input: { quietStart: "25:00", quietEnd: "07:00" }) { digest } }');
    expect(firstError(bad).extensions).toMatchObject({ code: 'BAD_USER_INPUT', errorCode: 'notifications/invalid_quiet_hours' });
  });

  // Quiet hours are a window or none: noQuietHours: false alone named no window, so it was taken
  // and changed nothing, and the client was not told.
  it('refuses noQuietHours: false without a window, naming the field, over REST and GraphQL; with quietStart and quietEnd it sets them', async () => {
    const p = await app.player('Quin');
    const auth = { Authorization: `Bearer ${p.token}` };
    data(await app.gql(p.token, 'mutation { updateNotificationSettings(input: { quietStart: "22:00", quietEnd: "07:30" }) { digest } }'));
    const rest = await request(app.http).patch('/api/v1/me/notifications').set(auth).send({ noQuietHours: false });
    expect({ status: rest.status, code: rest.body.code, field: rest.body.field }).toEqual({ status: 400, code: 'notifications/invalid_quiet_hours', field: 'noQuietHours' });
    expect(rest.body.detail).toContain('noQuietHours');
    const gql = firstError(await app.gql(p.token, 'mutation { updateNotificationSettings(input: { noQuietHours: false }) { digest } }'));
    expect(gql.extensions).toMatchObject({ code: 'BAD_USER_INPUT', errorCode: 'notifications/invalid_quiet_hours', field: 'noQuietHours' });
    expect(gql.message).toBe(rest.body.detail);
    expect((await request(app.http).get('/api/v1/me/notifications').set(auth)).body.quietHours).toEqual({ start: '22:00', end: '07:30' });
    const withWindow = await request(app.http).patch('/api/v1/me/notifications').set(auth).send({ noQuietHours: false, quietStart: '23:00', quietEnd: '06:00' });
    expect({ status: withWindow.status, quietHours: withWindow.body.quietHours }).toEqual({ status: 200, quietHours: { start: '23:00', end: '06:00' } });
    const none = data(await app.gql(p.token, 'mutation { updateNotificationSettings(input: { noQuietHours: true }) { quietHours { start } } }'))['updateNotificationSettings'];
    expect(none.quietHours).toBeNull();
  });

  it('schedules each game\'s deadline reminder with the lead set for that game, else the player\'s default, and moves it when the lead changes', async () => {
    const alice = await app.player('Rae');
    const bob = await app.player('Sol');
    const prisma = app.running.app.get(PrismaService);
    const setLead = async (lead: number, game?: string) => {
      const set = game
        ? data(await app.gql(alice.token, `mutation($g: ID!) { updateNotificationSettings(gameId: $g, input: { reminderLeadMinutes: ${lead}, digest: true }) { reminderLeadMinutes digest } }`, { g: game }))
        : data(await app.gql(alice.token, `mutation { updateNotificationSettings(input: { reminderLeadMinutes: ${lead} }) { reminderLeadMinutes } }`));
      expect(set['updateNotificationSettings']).toMatchObject({ reminderLeadMinutes: lead });
    };
    // Minutes from each pending reminder to the deadline, by side.
    const leads = async (game: string) => {
      const { deadlineAt } = await prisma.game.findUniqueOrThrow({ where: { id: game } });
      const jobs = await prisma.scheduledJob.findMany({ where: { gameId: game, kind: 'reminder', status: 'pending' } });
      return Object.fromEntries(jobs.map((j) => [j.side, Math.round((deadlineAt!.getTime() - j.dueAt.getTime()) / 60_000)]));
    };
    await setLead(180);
    const start = async (lead: number | null) => {
      const game = data(await app.gql(alice.token, 'mutation { createGame(input: { scenarioId: "kernel-test", side: "A" }) { id } }'))['createGame'].id as string;
      if (lead !== null) await setLead(lead, game);
      const token = data(await app.gql(alice.token, 'mutation($g: ID!) { invite(input: { gameId: $g, side: "B" }) { token } }', { g: game }))['invite'].token;
      data(await app.gql(bob.token, 'mutation($t: String) { joinGame(token: $t) { started } }', { t: token }));
      return game;
    };
    // Bob has no settings: the server's NOTIFY_REMINDER_MINUTES (720).
    const own = await start(60);
    expect(await leads(own)).toEqual({ A: 60, B: 720 });
    const inherits = await start(null);
    expect(await leads(inherits)).toEqual({ A: 180, B: 720 });

    // A change moves the reminder of the deadline already running: for one game, or wherever the default applies.
    await setLead(90, own);
    expect(await leads(own)).toEqual({ A: 90, B: 720 });
    await setLead(240);
    expect([await leads(own), await leads(inherits)]).toEqual([{ A: 90, B: 720 }, { A: 240, B: 720 }]);
    data(await app.gql(alice.token, 'mutation($g: ID!) { clearGameNotificationSettings(gameId: $g) { reminderLeadMinutes } }', { g: own }));
    expect(await leads(own)).toEqual({ A: 240, B: 720 });

    // A lead longer than the time left makes the reminder due now; one reminder per deadline and side, always.
    const before = Date.now();
    await setLead(30 * 24 * 60, own);
    const due = (await prisma.scheduledJob.findMany({ where: { gameId: own, kind: 'reminder', status: 'pending', side: 'A' } })).map((j) => j.dueAt.getTime());
    expect(due).toHaveLength(1);
    expect(due[0]!).toBeGreaterThanOrEqual(before - 1000);
    expect(due[0]!).toBeLessThanOrEqual(Date.now());
    await setLead(45, own);
    expect(await leads(own)).toEqual({ A: 45, B: 720 });
    expect(await prisma.scheduledJob.count({ where: { gameId: own, kind: 'reminder' } })).toBe(2);

    // A reminder left out when the deadline was set (its time had passed) comes once a shorter lead puts it ahead.
    await setLead(30 * 24 * 60);
    const late = await start(null);
    expect(await leads(late)).toEqual({ B: 720 });
    await setLead(120, late);
    await setLead(120, late);
    expect(await leads(late)).toEqual({ A: 120, B: 720 });
    expect(await prisma.scheduledJob.count({ where: { gameId: late, kind: 'reminder' } })).toBe(2);
  });

  it('lists dead-lettered deliveries and sends one again', async () => {
    const p = await app.player('Ola');
    const prisma = app.running.app.get(PrismaService);
    const notificationId = uniqueId('n');
    const deliveryId = uniqueId('d');
    await prisma.notification.create({ data: { id: notificationId, playerId: p.id, kind: 'your_turn', content: {} } });
    await prisma.notificationDelivery.create({ data: { id: deliveryId, notificationId, playerId: p.id, channel: 'email', status: 'dead', attempts: 9, notBefore: new Date(), lastError: 'SMTP: 550 no such mailbox', finishedAt: new Date() } });
    const dead = data(await app.gql(p.token, '{ me { notificationDeliveries(status: [DEAD]) { nodes { id notificationId kind channel endpointId status attempts lastError } } } }'))['me'].notificationDeliveries.nodes;
    expect(dead).toEqual([{ id: deliveryId, notificationId, kind: 'your_turn', channel: 'email', endpointId: null, status: 'DEAD', attempts: 9, lastError: 'SMTP: 550 no such mailbox' }]);
    const rest = await request(app.http).get('/api/v1/me/notifications/deliveries?status=dead').set('Authorization', `Bearer ${p.token}`);
    expect(rest.body.items.map((d: { id: string }) => d.id)).toEqual([deliveryId]);
    const other = await app.player('Pat');
    expect(firstError(await app.gql(other.token, `mutation { redeliverNotification(id: "${deliveryId}") { id } }`)).extensions).toMatchObject({ code: 'NOT_FOUND' });
    const again = data(await app.gql(p.token, `mutation { redeliverNotification(id: "${deliveryId}") { status attempts } }`))['redeliverNotification'];
    expect(again).toEqual({ status: 'PENDING', attempts: 0 });
  });

  it('refuses to send again a call to a turn the game has gone past, saying why, and keeps it dead', async () => {
    const g = await serviceGame(app);
    const prisma = app.running.app.get(PrismaService);
    await g.submit(g.alice, setupA);
    await g.submit(g.bob, setupB());
    // Both sides were called to set up; now A moves and B waits.
    const deadLetter = async (playerId: string, kind: string) => {
      const n = await prisma.notification.findFirstOrThrow({ where: { gameId: g.gameId, playerId, kind }, orderBy: { gameVersion: 'desc' } });
      const id = uniqueId('d');
      await prisma.notificationDelivery.create({ data: { id, notificationId: n.id, playerId, channel: 'email', status: 'dead', attempts: 9, notBefore: new Date(), lastError: 'SMTP: 451 try later', finishedAt: new Date() } });
      return id;
    };
    const token = (playerId: string) => (playerId === g.alice ? g.players.alice.token : g.players.bob.token);
    const redeliver = (playerId: string, id: string) => app.gql(token(playerId), `mutation { redeliverNotification(id: "${id}") { status } }`);
    for (const [playerId, why] of [
      [g.bob, 'that side no longer acts'],
      [g.alice, 'a later notice tells the player of their turn'],
    ] as const) {
      const id = await deadLetter(playerId, 'game_started');
      const refused = firstError(await redeliver(playerId, id));
      expect(refused.extensions).toMatchObject({ code: 'CONFLICT', errorCode: 'notifications/outdated' });
      expect(refused.message).toContain(why);
      expect((await prisma.notificationDelivery.findUniqueOrThrow({ where: { id } })).status).toBe('dead');
      const rest = await request(app.http).post(`/api/v1/me/notifications/deliveries/${id}/redeliver`).set('Authorization', `Bearer ${token(playerId)}`);
      expect({ status: rest.status, code: rest.body.code }).toEqual({ status: 409, code: 'notifications/outdated' });
    }
    // A's call to move is still current: it goes again.
    const current = await deadLetter(g.alice, 'your_turn');
    expect(data(await redeliver(g.alice, current))['redeliverNotification']).toEqual({ status: 'PENDING' });
  });
});
