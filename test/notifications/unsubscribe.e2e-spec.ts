import { DynamicModule, INestApplication, Module } from '@nestjs/common';
import { APP_FILTER, NestFactory } from '@nestjs/core';
import request from 'supertest';
import { ProblemFilter } from '../../src/common/problem.filter';
import { ConfigModule } from '../../src/config/config.module';
import type { AppConfig } from '../../src/config/config.schema';
import { DatabaseModule } from '../../src/database/database.module';
import { PrismaService } from '../../src/database/prisma.service';
import { configureLogger } from '../../src/logging/logger';
import { JsonNestLogger } from '../../src/logging/nest-logger';
import { NOTIFICATION_OUTBOX, NotificationOutbox } from '../../src/notifications/notification-intent';
import { NotificationsModule } from '../../src/notifications/notifications.module';
import { NotificationsService } from '../../src/notifications/preferences/notifications.service';
import { IsolatedDatabase, isolatedDatabase } from '../support/isolated-database';
import { intent, player } from './support/fixtures';
import { notificationsConfig } from './support/harness';
import { eventually, smtpReceiver, SmtpReceiver } from './support/receivers';

@Module({})
class NotificationsTestApp {
  static register(config: AppConfig, url: string): DynamicModule {
    return {
      module: NotificationsTestApp,
      imports: [ConfigModule.forRoot(config), DatabaseModule.forRoot({ kind: 'postgres', url, poolMax: 5, close: async () => undefined }), NotificationsModule],
      providers: [{ provide: APP_FILTER, useClass: ProblemFilter }],
    };
  }
}

describe('the notifications module in Nest: outbox token, worker lifecycle, one-click unsubscribe', () => {
  let db: IsolatedDatabase;
  let smtp: SmtpReceiver;
  let app: INestApplication;

  beforeAll(async () => {
    db = await isolatedDatabase('unsub');
    smtp = await smtpReceiver();
    const config = notificationsConfig(db.url, { SMTP_HOST: '127.0.0.1', SMTP_PORT: String(smtp.port), WORKERS_ENABLED: 'true' });
    configureLogger(config.logLevel);
    app = await NestFactory.create(NotificationsTestApp.register(config, db.url), { logger: new JsonNestLogger() });
    await app.init();
  });
  afterAll(async () => {
    await app?.close();
    await smtp?.close();
    await db?.drop();
  });

  it('sends what the games module enqueues through NOTIFICATION_OUTBOX, then unsubscribes with one click', async () => {
    const prisma = app.get(PrismaService);
    const outbox = app.get<NotificationOutbox>(NOTIFICATION_OUTBOX);
    const p = await player(prisma, { email: 'clicker@players.test' });
    await prisma.$transaction((tx) => outbox.enqueue(tx, [intent({ playerId: p, gameId: 'g-unsub' })]));
    await eventually(() => smtp.mails.length === 1, 5000, 'the mail from the module worker');

    const raw = smtp.mails[0]!.raw.replace(/\r?\n[ \t]+/g, ' ');
    const link = new URL(/^List-Unsubscribe: <([^>]+)>/m.exec(raw)![1]!);
    const path = link.pathname + link.search;

    // Opening the link (a mail scanner does) changes nothing.
    const page = await request(app.getHttpServer()).get(path).expect(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    // Its button must not be framed by another site and clicked through.
    expect([page.headers['x-frame-options'], page.headers['content-security-policy']]).toEqual(['DENY', "frame-ancestors 'none'"]);
    expect(page.text).toContain('<form method="post"');
    expect(page.text).toContain('Stop mail about this game?');
    const preferences = app.get(NotificationsService);
    expect((await preferences.getPreferences(p, 'g-unsub')).channels.email).toBe(true);

    // RFC 8058 one-click: the mail client POSTs List-Unsubscribe=One-Click to the link.
    const res = await request(app.getHttpServer()).post(path).type('form').send('List-Unsubscribe=One-Click').expect(200);
    expect(res.text).toBe('You will get no more mail about this game.\n');
    expect((await preferences.getPreferences(p, 'g-unsub')).channels.email).toBe(false);
    expect((await preferences.getPreferences(p)).channels.email).toBe(true);

    await prisma.$transaction((tx) => outbox.enqueue(tx, [intent({ playerId: p, gameId: 'g-unsub', version: 2 }), intent({ playerId: p, gameId: 'g-other' })]));
    await eventually(() => smtp.mails.length === 2, 5000, 'the mail about the other game');
    await new Promise((r) => setTimeout(r, 100));
    expect(smtp.mails.map((m) => m.mail.headers.get('x-fieldpost-game-id'))).toEqual(['g-unsub', 'g-other']);
  });

  it('stops all mail with the footer "all" link, also about a game whose mail the player had turned on', async () => {
    const prisma = app.get(PrismaService);
    const outbox = app.get<NotificationOutbox>(NOTIFICATION_OUTBOX);
    const preferences = app.get(NotificationsService);
    const p = await player(prisma, { email: 'everything-off@players.test' });
    await preferences.setPreferences(p, { channels: { email: true } }, 'g-kept-on');
    const before = smtp.mails.length;
    await prisma.$transaction((tx) => outbox.enqueue(tx, [intent({ playerId: p, gameId: 'g-kept-on' })]));
    await eventually(() => smtp.mails.length === before + 1, 5000, 'the mail about the game');

    const text = String(smtp.mails[before]!.mail.text);
    const link = new URL(/^Stop all mail from Fieldpost: (\S+)$/m.exec(text)![1]!);
    const res = await request(app.getHttpServer()).post(link.pathname + link.search).type('form').send('List-Unsubscribe=One-Click').expect(200);
    expect(res.text).toBe('You will get no more mail from Fieldpost.\n');
    expect((await preferences.getPreferences(p)).channels.email).toBe(false);
    expect((await preferences.getPreferences(p, 'g-kept-on')).channels.email).toBe(false);
    await prisma.$transaction((tx) => outbox.enqueue(tx, [intent({ playerId: p, gameId: 'g-kept-on', version: 2 })]));
    expect(await prisma.notificationDelivery.count({ where: { playerId: p, channel: 'email' } })).toBe(1);
  });

  it('answers a forged or missing token with a 400 problem', async () => {
    const bad = await request(app.getHttpServer()).post('/api/v1/notifications/unsubscribe?token=eyJ4Ijp9.forged').expect(400);
    expect(bad.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(bad.body).toMatchObject({ status: 400, code: 'notifications/invalid_unsubscribe_token', field: 'token' });
    const missing = await request(app.getHttpServer()).get('/api/v1/notifications/unsubscribe').expect(400);
    expect(missing.body).toMatchObject({ code: 'notifications/invalid_unsubscribe_token', field: 'token' });
    // A query parameter that takes one value, given twice, is refused naming it (README, errors).
    const twice = await request(app.getHttpServer()).post('/api/v1/notifications/unsubscribe?token=a&token=b').expect(400);
    expect(twice.body).toMatchObject({ code: 'notifications/invalid_unsubscribe_token', field: 'token', detail: 'token was given more than once: send it once.' });
  });

  it('exports the reminder lead time for the games module', async () => {
    const outbox = app.get<NotificationOutbox>(NOTIFICATION_OUTBOX);
    const p = await player(app.get(PrismaService));
    expect((await outbox.settingsFor('g-any', [p])).reminderLeadMinutes(p)).toBe(720);
  });
});
