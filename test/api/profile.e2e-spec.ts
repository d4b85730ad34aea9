import request from 'supertest';
import { PrismaService } from '../../src/database/prisma.service';
import { uniqueId } from '../support/database';
import { apiApp, ApiApp, data, firstError } from './support/api-app';

/** A player's name and time zone were set at sign-up and could never change. */
describe('changing your name and time zone', () => {
  let app: ApiApp;
  beforeAll(async () => {
    app = await apiApp();
  });
  afterAll(() => app.close());

  const me = (token: string) => request(app.http).get('/api/v1/me').set('Authorization', `Bearer ${token}`);

  it('changes either over REST and GraphQL, checked as at sign-up; a refusal changes nothing', async () => {
    const p = await app.player('Ann');
    const rest = await request(app.http).patch('/api/v1/me').set('Authorization', `Bearer ${p.token}`).send({ displayName: '  Ann   Bee ', timeZone: 'Asia/Tokyo' });
    expect(rest.status).toBe(200);
    expect(rest.body).toMatchObject({ id: p.id, displayName: 'Ann Bee', timeZone: 'Asia/Tokyo' });
    const gql = data(await app.gql(p.token, 'mutation { updateProfile(input: { timeZone: "Europe/Berlin" }) { displayName timeZone } }'))['updateProfile'];
    expect(gql).toEqual({ displayName: 'Ann Bee', timeZone: 'Europe/Berlin' });

    const badZone = firstError(await app.gql(p.token, 'mutation { updateProfile(input: { timeZone: "Mars/Olympus", displayName: "Zed" }) { timeZone } }'));
    expect(badZone.extensions).toMatchObject({ errorCode: 'auth/invalid_time_zone', field: 'timeZone' });
    const badName = await request(app.http).patch('/api/v1/me').set('Authorization', `Bearer ${p.token}`).send({ displayName: '   ' });
    expect({ status: badName.status, code: badName.body.code, field: badName.body.field }).toEqual({ status: 400, code: 'auth/invalid_display_name', field: 'displayName' });
    const nothing = await request(app.http).patch('/api/v1/me').set('Authorization', `Bearer ${p.token}`).send({});
    expect({ status: nothing.status, code: nothing.body.code }).toEqual({ status: 400, code: 'request/invalid' });
    expect((await me(p.token)).body).toMatchObject({ displayName: 'Ann Bee', timeZone: 'Europe/Berlin' });
    expect((await request(app.http).patch('/api/v1/me').send({ timeZone: 'UTC' })).status).toBe(401);
  });

  // Intl takes a zone in any case, and the name was kept as typed: GET /me then gave "europe/berlin",
  // which case-sensitive zone libraries of clients (java.time's ZoneId) refuse, and mail showed it so.
  it('keeps a time zone under its IANA name, whatever case it was typed in, over both APIs and at sign-up', async () => {
    const p = await app.player('Cy');
    const rest = await request(app.http).patch('/api/v1/me').set('Authorization', `Bearer ${p.token}`).send({ timeZone: 'europe/berlin' });
    expect({ status: rest.status, timeZone: rest.body.timeZone }).toEqual({ status: 200, timeZone: 'Europe/Berlin' });
    const gql = data(await app.gql(p.token, 'mutation { updateProfile(input: { timeZone: "AMERICA/NEW_YORK" }) { timeZone } }'))['updateProfile'];
    expect(gql).toEqual({ timeZone: 'America/New_York' });
    expect((await me(p.token)).body.timeZone).toBe('America/New_York');
    // A zone's other name stays the one the player chose: Intl calls Europe/Kyiv Europe/Kiev.
    const kyiv = await request(app.http).patch('/api/v1/me').set('Authorization', `Bearer ${p.token}`).send({ timeZone: 'Europe/Kyiv' });
    expect(kyiv.body.timeZone).toBe('Europe/Kyiv');
    // Signing up goes through the same check (PlayersService.findOrCreate).
    const signedUp = await app.player('Dee', 'asia/tokyo');
    expect((await me(signedUp.token)).body.timeZone).toBe('Asia/Tokyo');
  });

  it('moves mail waiting for quiet hours to where the quiet hours fall in the new time zone', async () => {
    const p = await app.player('Bo');
    const prisma = app.running.app.get(PrismaService);
    // The notifications keep the real time: quiet hours from an hour ago to two hours on, in UTC,
    // are over for a player twelve hours ahead.
    const now = new Date();
    const hh = (h: number) => `${String((h + 24) % 24).padStart(2, '0')}:00`;
    const quietEnd = new Date(now);
    quietEnd.setUTCHours(now.getUTCHours() + 2, 0, 0, 0);
    await request(app.http).patch('/api/v1/me').set('Authorization', `Bearer ${p.token}`).send({ timeZone: 'UTC' }).expect(200);
    data(await app.gql(p.token, `mutation { updateNotificationSettings(input: { quietStart: "${hh(now.getUTCHours() - 1)}", quietEnd: "${hh(now.getUTCHours() + 2)}" }) { digest } }`));
    // A turn mail planned during those quiet hours: it waits for their end.
    const notificationId = uniqueId('n');
    const deliveryId = uniqueId('d');
    await prisma.notification.create({ data: { id: notificationId, playerId: p.id, gameId: uniqueId('g'), kind: 'your_turn', content: {} } });
    await prisma.notificationDelivery.create({ data: { id: deliveryId, notificationId, playerId: p.id, channel: 'email', status: 'pending', notBefore: quietEnd } });
    const due = async () => (await prisma.notificationDelivery.findUniqueOrThrow({ where: { id: deliveryId } })).notBefore.getTime();

    await request(app.http).patch('/api/v1/me').set('Authorization', `Bearer ${p.token}`).send({ timeZone: 'Etc/GMT-12' }).expect(200);
    expect(await due()).toBeGreaterThanOrEqual(now.getTime());
    expect(await due()).toBeLessThanOrEqual(Date.now());
    // A name alone leaves the time zone, and so the mail, where they are.
    const released = await due();
    data(await app.gql(p.token, 'mutation { updateProfile(input: { displayName: "Bo B" }) { timeZone } }'));
    expect(await due()).toBe(released);
  });
});
