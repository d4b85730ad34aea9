import request from 'supertest';
import { PrismaService } from '../../src/database/prisma.service';
import { uniqueId } from '../support/database';
import { apiApp, ApiApp, data, firstError } from './support/api-app';

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

  it('schedules each game\'s deadline reminder with the lead set for that game, else the player\'s default', async () => {
    const alice = await app.player('Rae');
    const bob = await app.player('Sol');
    const prisma = app.running.app.get(PrismaService);
    data(await app.gql(alice.token, 'mutation { updateNotificationSettings(input: { reminderLeadMinutes: 180 }) { reminderLeadMinutes } }'));
    const start = async (lead: number | null) => {
      const game = data(await app.gql(alice.token, 'mutation { createGame(input: { scenarioId: "kernel-test", side: "A" }) { id } }'))['createGame'].id as string;
      if (lead !== null) {
        const set = data(await app.gql(alice.token, `mutation($g: ID!) { updateNotificationSettings(gameId: $g, input: { reminderLeadMinutes: ${lead}, digest: true }) { reminderLeadMinutes digest } }`, { g: game }));
        expect(set['updateNotificationSettings']).toEqual({ reminderLeadMinutes: lead, digest: true });
      }
      const token = data(await app.gql(alice.token, 'mutation($g: ID!) { invite(input: { gameId: $g, side: "B" }) { token } }', { g: game }))['invite'].token;
      data(await app.gql(bob.token, 'mutation($t: String) { joinGame(token: $t) { started } }', { t: token }));
      const { deadlineAt } = await prisma.game.findUniqueOrThrow({ where: { id: game } });
      const jobs = await prisma.scheduledJob.findMany({ where: { gameId: game, kind: 'reminder', status: 'pending' } });
      const leads = Object.fromEntries(jobs.map((j) => [j.side, (deadlineAt!.getTime() - j.dueAt.getTime()) / 60_000]));
      return leads;
    };
    // Bob has no settings: the server's NOTIFY_REMINDER_MINUTES (720).
    expect(await start(60)).toEqual({ A: 60, B: 720 });
    expect(await start(null)).toEqual({ A: 180, B: 720 });
  });

  it('lists dead-lettered deliveries and sends one again', async () => {
    const p = await app.player('Ola');
    const prisma = app.running.app.get(PrismaService);
    const notificationId = uniqueId('n');
    const deliveryId = uniqueId('d');
    await prisma.notification.create({ data: { id: notificationId, playerId: p.id, kind: 'your_turn', content: {} } });
    await prisma.notificationDelivery.create({ data: { id: deliveryId, notificationId, playerId: p.id, channel: 'email', status: 'dead', attempts: 9, notBefore: new Date(), lastError: 'SMTP: 550 no such mailbox', finishedAt: new Date() } });
    const dead = data(await app.gql(p.token, '{ me { notificationDeliveries(status: [DEAD]) { nodes { id kind channel status attempts lastError } } } }'))['me'].notificationDeliveries.nodes;
    expect(dead).toEqual([{ id: deliveryId, kind: 'your_turn', channel: 'email', status: 'DEAD', attempts: 9, lastError: 'SMTP: 550 no such mailbox' }]);
    const rest = await request(app.http).get('/api/v1/me/notifications/deliveries?status=dead').set('Authorization', `Bearer ${p.token}`);
    expect(rest.body.items.map((d: { id: string }) => d.id)).toEqual([deliveryId]);
    const other = await app.player('Pat');
    expect(firstError(await app.gql(other.token, `mutation { redeliverNotification(id: "${deliveryId}") { id } }`)).extensions).toMatchObject({ code: 'NOT_FOUND' });
    const again = data(await app.gql(p.token, `mutation { redeliverNotification(id: "${deliveryId}") { status attempts } }`))['redeliverNotification'];
    expect(again).toEqual({ status: 'PENDING', attempts: 0 });
  });
});
