import { BadInputError } from '../../src/common/errors';
import type { PrismaService } from '../../src/database/prisma.service';
import { deliveryId } from '../../src/notifications/outbox/delivery-id';
import { IsolatedDatabase } from '../support/isolated-database';
import { intent, player, statuses, webhookEndpoint } from './support/fixtures';
import { FakeClock, Harness, notificationsConfig } from './support/harness';
import { receiverSuite } from './support/receiver-suite';
import { eventually, SmtpReceiver } from './support/receivers';
import { verifyStandardWebhook } from './support/verify-signature';

describe('webhooks (a real HTTP receiver on loopback)', () => {
  const suite = receiverSuite('webhook');
  const { other, receiver, env } = suite;
  let db: IsolatedDatabase;
  let prisma: PrismaService;
  let smtp: SmtpReceiver;
  let h: Harness;
  beforeAll(() => ({ db, prisma, smtp, h } = suite));

  it('signs every request the Standard Webhooks way, with a stable id, and the receiver verifies it', async () => {
    const r = await receiver();
    const p = await player(prisma);
    const { endpoint, secret } = await h.endpoints.addWebhook(p, r.url);
    expect(secret).toMatch(/^whsec_/);
    const intents = [1, 2, 3].map((v) => intent({ playerId: p, gameId: 'g-sig', version: v }));
    await h.enqueue(intents);
    await h.worker.drain();

    expect(r.requests).toHaveLength(3);
    for (const req of r.requests) {
      expect(verifyStandardWebhook(secret, req.headers, req.body)).toBe(true);
      expect(verifyStandardWebhook(secret, req.headers, req.body.replace('"turn":2', '"turn":3'))).toBe(false);
      expect(req.headers['content-type']).toBe('application/json');
      const payload = JSON.parse(req.body) as { type: string; data: { id: string; notificationId: string; gameId: string } };
      expect(payload.type).toBe('fieldpost.your_turn');
      expect(payload.data.id).toBe(req.id);
      expect(req.id).toBe(deliveryId(payload.data.notificationId, 'webhook', endpoint.id));
    }
    expect(r.requests.map((q) => JSON.parse(q.body).data.notificationId).sort()).toEqual(intents.map((i) => i.id).sort());
  });

  it('rotates secrets: both sign during the grace period, then only the new one', async () => {
    const clock = new FakeClock(Date.parse('2026-12-01T12:00:00Z'));
    const hc = other(notificationsConfig(db.url, { ...env(), NOTIFY_SECRET_GRACE_HOURS: '24' }), { clock });
    const r = await receiver();
    const p = await player(prisma);
    const first = await hc.endpoints.addWebhook(p, r.url);
    const second = await hc.endpoints.rotateWebhookSecret(p, first.endpoint.id);
    expect(second.endpoint.previousSecretValidUntil?.toISOString()).toBe('2026-12-02T12:00:00.000Z');
    const nowSeconds = () => Math.floor(clock.now().getTime() / 1000);

    await hc.enqueue([intent({ playerId: p, gameId: 'g-rot', version: 1 })]);
    await hc.worker.drain();
    const during = r.requests[0]!;
    expect(String(during.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(verifyStandardWebhook(first.secret, during.headers, during.body, nowSeconds())).toBe(true);
    expect(verifyStandardWebhook(second.secret, during.headers, during.body, nowSeconds())).toBe(true);

    clock.advance(25 * 3_600_000);
    await hc.enqueue([intent({ playerId: p, gameId: 'g-rot', version: 2 })]);
    await hc.worker.drain();
    const after = r.requests[1]!;
    expect(String(after.headers['webhook-signature']).split(' ')).toHaveLength(1);
    expect(verifyStandardWebhook(second.secret, after.headers, after.body, nowSeconds())).toBe(true);
    expect(verifyStandardWebhook(first.secret, after.headers, after.body, nowSeconds())).toBe(false);
  });

  it('gets each notification exactly once after dedupe from a receiver that fails the first 3 attempts', async () => {
    const r = await receiver((_req, seen) => (seen < 3 ? { status: 500 } : { status: 200 }));
    const p = await player(prisma);
    await webhookEndpoint(prisma, p, r.url);
    await h.enqueue([1, 2, 3, 4, 5].map((v) => intent({ playerId: p, gameId: 'g-flaky', version: v })));
    h.worker.start();
    await eventually(async () => (await statuses(prisma, p, 'webhook')).delivered === 5, 10_000, 'five deliveries');
    expect(r.distinct().size).toBe(5);
    expect(r.requests).toHaveLength(20);
    const rows = await prisma.notificationDelivery.findMany({ where: { playerId: p, channel: 'webhook' } });
    expect(rows.every((d) => d.attempts === 4 && d.lastStatus === 200)).toBe(true);
  });

  it('waits as long as a 429 Retry-After asks, then delivers once', async () => {
    const r = await receiver((_req, seen) => (seen === 0 ? { status: 429, headers: { 'Retry-After': '1' } } : { status: 204 }));
    const p = await player(prisma);
    await webhookEndpoint(prisma, p, r.url);
    await h.enqueue([intent({ playerId: p, gameId: 'g-429' })]);
    h.worker.start();
    await eventually(async () => (await statuses(prisma, p, 'webhook')).delivered === 1, 10_000, 'the delivery');
    expect(r.requests).toHaveLength(2);
    expect(r.requests[1]!.at - r.requests[0]!.at).toBeGreaterThanOrEqual(950);
    expect(r.distinct().size).toBe(1);
  });

  it('still backs off from a receiver that keeps answering 429 with Retry-After: 0', async () => {
    const r = await receiver(() => ({ status: 429, headers: { 'Retry-After': '0' } }));
    const slow = other(notificationsConfig(db.url, { ...env(), NOTIFY_RETRY_BASE_MS: '500', NOTIFY_RETRY_MAX_DELAY_MS: '1000' }), { random: () => 0.999 });
    const p = await player(prisma);
    await webhookEndpoint(prisma, p, r.url);
    await slow.enqueue([intent({ playerId: p, gameId: 'g-429-now' })]);
    slow.worker.start();
    await new Promise((done) => setTimeout(done, 1200));
    await slow.worker.stop();
    // Tries at 0 and about 0.5 s (the backoff: 0.5 s, then 1 s), not one after another.
    expect(r.requests.length).toBeGreaterThanOrEqual(1);
    expect(r.requests.length).toBeLessThanOrEqual(3);
  });

  it('retries a receiver that hangs past the timeout; after dedupe it has each notification once', async () => {
    const r = await receiver((_req, seen) => (seen === 0 ? 'hang' : { status: 200 }));
    const short = other(notificationsConfig(db.url, { ...env(), NOTIFY_HTTP_TIMEOUT_MS: '300', NOTIFY_LEASE_MS: '5000' }));
    const p = await player(prisma);
    await webhookEndpoint(prisma, p, r.url);
    await short.enqueue([1, 2, 3].map((v) => intent({ playerId: p, gameId: 'g-hang', version: v })));
    short.worker.start();
    await eventually(async () => (await statuses(prisma, p, 'webhook')).delivered === 3, 10_000, 'three deliveries');
    expect(r.requests.length).toBeGreaterThanOrEqual(6);
    expect(r.distinct().size).toBe(3);
    const rows = await prisma.notificationDelivery.findMany({ where: { playerId: p, channel: 'webhook' } });
    expect(rows.every((d) => d.attempts >= 2 && d.lastStatus === 200)).toBe(true);
  });

  it.each([410, 404])('disables an endpoint that answers %i and tells its owner on their other channels', async (status) => {
    const gone = await receiver(() => ({ status }));
    const other = await receiver();
    const p = await player(prisma, { email: `owner-${status}@players.test` });
    const dead = await webhookEndpoint(prisma, p, gone.url);
    await webhookEndpoint(prisma, p, other.url);
    await h.enqueue([intent({ playerId: p, gameId: `g-${status}`, version: 1 })]);
    await h.worker.drain();

    const endpoint = await prisma.notificationEndpoint.findUniqueOrThrow({ where: { id: dead.id } });
    expect(endpoint).toMatchObject({ enabled: false, disabledReason: `HTTP ${status}` });
    expect(gone.requests).toHaveLength(1);
    const kinds = other.requests.map((q) => JSON.parse(q.body).type).sort();
    expect(kinds).toEqual(['fieldpost.channel_disabled', 'fieldpost.your_turn']);
    const notice = JSON.parse(other.requests.find((q) => q.body.includes('channel_disabled'))!.body).data;
    expect(notice).toMatchObject({ channel: 'webhook', reason: `HTTP ${status}` });
    expect(notice.target).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/…$/);
    const mails = smtp.mails.filter((m) => m.envelopeTo.includes(`owner-${status}@players.test`)).map((m) => m.mail.subject);
    expect(mails.sort()).toEqual(['[Fieldpost] Gators at the Bridge: turn 2, P1 Movement — your turn', '[Fieldpost] Your webhook notifications were turned off']);
    const { items } = await h.deliveries.listDeliveries(p, { status: ['dead'] });
    expect(items).toEqual([expect.objectContaining({ endpointId: dead.id, lastStatus: status })]);

    // The disabled endpoint gets nothing more.
    await h.enqueue([intent({ playerId: p, gameId: `g-${status}`, version: 2 })]);
    await h.worker.drain();
    expect(gone.requests).toHaveLength(1);
    expect(other.requests).toHaveLength(3);

    // Sending its dead letter again is refused, saying why, rather than queued to be cancelled unsent.
    await expect(h.deliveries.redeliver(p, items[0]!.id)).rejects.toMatchObject({ code: 'notifications/endpoint_disabled', details: { endpointId: dead.id } });
    expect((await h.deliveries.listDeliveries(p, { status: ['dead'] })).items).toEqual([expect.objectContaining({ id: items[0]!.id, status: 'dead' })]);
    await h.endpoints.enableEndpoint(p, dead.id);
    await expect(h.deliveries.redeliver(p, items[0]!.id)).resolves.toMatchObject({ status: 'pending' });
  });

  it('dead-letters after the retry period; the player sees it and can have it sent again', async () => {
    let healthy = false;
    const r = await receiver(() => (healthy ? { status: 200 } : { status: 503 }));
    const hd = other(notificationsConfig(db.url, { ...env(), NOTIFY_RETRY_PERIOD_SECONDS: '1' }));
    const p = await player(prisma);
    await webhookEndpoint(prisma, p, r.url);
    await hd.enqueue([intent({ playerId: p, gameId: 'g-dead' })]);
    hd.worker.start();
    await eventually(async () => (await statuses(prisma, p, 'webhook')).dead === 1, 10_000, 'a dead letter');
    const { items } = await hd.deliveries.listDeliveries(p, { status: ['dead'] });
    expect(items[0]).toMatchObject({ status: 'dead', lastStatus: 503, lastError: 'gave up: HTTP 503' });
    expect(items[0]!.attempts).toBeGreaterThan(3);
    const tries = r.requests.length;

    healthy = true;
    // A double click: the second request is refused, whichever order they land in, and the letter goes out once.
    const clicks = await Promise.allSettled([hd.deliveries.redeliver(p, items[0]!.id), hd.deliveries.redeliver(p, items[0]!.id)]);
    expect(clicks.filter((c) => c.status === 'fulfilled')).toHaveLength(1);
    expect(clicks.find((c) => c.status === 'rejected')).toMatchObject({ reason: { code: 'notifications/not_dead' } });
    await eventually(async () => (await statuses(prisma, p, 'webhook')).delivered === 1, 10_000, 'the redelivery');
    expect(r.requests).toHaveLength(tries + 1);
  });

  describe('the SSRF guard (NOTIFY_ALLOW_PRIVATE_TARGETS=false)', () => {
    it('refuses private targets when a URL is saved', async () => {
      const strict = other(notificationsConfig(db.url, { ...env(), NOTIFY_ALLOW_PRIVATE_TARGETS: 'false' }));
      const p = await player(prisma);
      for (const url of ['http://127.0.0.1:9/hook', 'http://[::1]/', 'http://169.254.169.254/', 'http://10.1.1.1/', 'file:///etc/passwd', 'http://localhost:9/']) {
        await expect(strict.endpoints.addWebhook(p, url)).rejects.toBeInstanceOf(BadInputError);
      }
    });

    it.each(['127.0.0.1', 'localhost'])('refuses at send time a target that is (or resolves to) loopback: %s', async (host) => {
      const r = await receiver();
      const strict = other(notificationsConfig(db.url, { ...env(), NOTIFY_ALLOW_PRIVATE_TARGETS: 'false' }));
      const p = await player(prisma);
      const ep = await webhookEndpoint(prisma, p, r.url.replace('127.0.0.1', host));
      await strict.enqueue([intent({ playerId: p, gameId: 'g-ssrf' })]);
      await strict.worker.drain();
      expect(r.requests).toHaveLength(0);
      const endpoint = await prisma.notificationEndpoint.findUniqueOrThrow({ where: { id: ep.id } });
      expect(endpoint.enabled).toBe(false);
      expect(endpoint.disabledReason).toBe(`refused to connect to ${host}: it does not resolve to a public address`);
    });

    // Else the stored reason, or a retry instead of the end, told a private name from a missing one.
    it('ends at send time a target whose name does not exist in the words it uses for a private one', async () => {
      const strict = other(notificationsConfig(db.url, { ...env(), NOTIFY_ALLOW_PRIVATE_TARGETS: 'false' }));
      const p = await player(prisma);
      const ep = await webhookEndpoint(prisma, p, 'http://nowhere.invalid/hook');
      await strict.enqueue([intent({ playerId: p, gameId: 'g-nxdomain' })]);
      await strict.worker.drain();
      const endpoint = await prisma.notificationEndpoint.findUniqueOrThrow({ where: { id: ep.id } });
      expect(endpoint.enabled).toBe(false);
      expect(endpoint.disabledReason).toBe('refused to connect to nowhere.invalid: it does not resolve to a public address');
    });
  });
});
