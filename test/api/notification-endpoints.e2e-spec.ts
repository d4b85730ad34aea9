import request from 'supertest';
import { PrismaService } from '../../src/database/prisma.service';
import { verify } from '../../src/notifications/channels/standard-webhooks';
import { NotificationWorker } from '../../src/notifications/worker/notification-worker';
import { httpReceiver, HttpReceiver } from '../notifications/support/receivers';
import { apiApp, ApiApp, data, firstError, TestPlayer } from './support/api-app';

const ENDPOINT = 'id kind url enabled disabledAt disabledReason previousSecretValidUntil createdAt';
/** A public address literal: accepted without a DNS lookup (no notification is sent to it here). */
const PUBLIC_URL = 'https://93.184.215.14/fieldpost';
const DISCORD_URL = 'https://discord.com/api/webhooks/1234567890/abcdefTOKEN';
const HOUR = 3_600_000;

const bearer = (p: TestPlayer) => `Bearer ${p.token}`;

/**
 * The notification endpoints through the API, GraphQL and REST, on the strict SSRF setting
 * (NOTIFY_ALLOW_PRIVATE_TARGETS off, the default); the signing of a rotated secret and the
 * Discord webhook (whose host would need DNS) on a second app that allows private targets.
 */
describe('notification endpoints through the API', () => {
  let app: ApiApp;
  beforeAll(async () => {
    app = await apiApp();
  });
  afterAll(async () => {
    await app.close();
  });

  const list = async (p: TestPlayer) => data(await app.gql(p.token, `{ me { notificationEndpoints { ${ENDPOINT} } } }`))['me'].notificationEndpoints;

  it('adds a webhook with its secret shown once, lists it without the secret, rotates and removes it (GraphQL)', async () => {
    const p = await app.player('Quinn');
    expect(await list(p)).toEqual([]);
    const added = data(await app.gql(p.token, `mutation($url: String!) { addWebhookEndpoint(url: $url) { secret endpoint { ${ENDPOINT} } } }`, { url: PUBLIC_URL }))['addWebhookEndpoint'];
    expect(added.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(added.endpoint).toMatchObject({ id: expect.stringMatching(/^ep_/), kind: 'WEBHOOK', url: PUBLIC_URL, enabled: true, disabledAt: null, previousSecretValidUntil: null });

    const listed = await list(p);
    expect(listed).toEqual([added.endpoint]);
    expect(JSON.stringify(listed)).not.toContain(added.secret);

    const rotated = data(await app.gql(p.token, `mutation($id: ID!) { rotateWebhookSecret(id: $id) { secret endpoint { ${ENDPOINT} } } }`, { id: added.endpoint.id }))['rotateWebhookSecret'];
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(added.secret);
    // The grace period (NOTIFY_SECRET_GRACE_HOURS, 24 by default) runs from the rotation.
    const graceEnds = Date.parse(rotated.endpoint.previousSecretValidUntil);
    expect(Math.abs(graceEnds - (Date.now() + 24 * HOUR))).toBeLessThan(60_000);
    expect(JSON.stringify(await list(p))).not.toMatch(/whsec_/);

    const removed = data(await app.gql(p.token, 'mutation($id: ID!) { removeNotificationEndpoint(id: $id) }', { id: added.endpoint.id }))['removeNotificationEndpoint'];
    expect(removed).toBe(added.endpoint.id);
    expect(await list(p)).toEqual([]);
    const again = firstError(await app.gql(p.token, 'mutation($id: ID!) { removeNotificationEndpoint(id: $id) }', { id: added.endpoint.id }));
    expect(again.extensions).toMatchObject({ code: 'NOT_FOUND', errorCode: 'notifications/endpoint_not_found' });
  });

  it('refuses loopback, private and link-local URLs, and a Discord URL that is not Discord\'s, when private targets are not allowed', async () => {
    const p = await app.player('Rhea');
    for (const url of ['http://127.0.0.1:8080/hook', 'http://localhost/hook', 'https://10.1.2.3/hook', 'http://[::1]/hook', 'http://169.254.169.254/latest/meta-data', 'http://[::ffff:192.168.0.1]/hook']) {
      const gql = firstError(await app.gql(p.token, 'mutation($url: String!) { addWebhookEndpoint(url: $url) { secret } }', { url }));
      expect([url, gql.extensions]).toEqual([url, expect.objectContaining({ code: 'BAD_USER_INPUT', errorCode: expect.stringMatching(/^notifications\/(private_target|unresolvable_host)$/) })]);
      const rest = await request(app.http).post('/api/v1/me/notifications/webhooks').set('Authorization', bearer(p)).send({ url });
      expect([url, rest.status, rest.headers['content-type']]).toEqual([url, 400, expect.stringMatching(/^application\/problem\+json/)]);
      expect(rest.body.code).toMatch(/^notifications\/(private_target|unresolvable_host)$/);
    }
    const literal = firstError(await app.gql(p.token, 'mutation { addWebhookEndpoint(url: "http://127.0.0.1/hook") { secret } }'));
    expect(literal).toMatchObject({ message: expect.stringContaining('private, loopback'), extensions: { errorCode: 'notifications/private_target' } });
    const notUrl = firstError(await app.gql(p.token, 'mutation { addWebhookEndpoint(url: "ftp://example.org/x") { secret } }'));
    expect(notUrl.extensions).toMatchObject({ code: 'BAD_USER_INPUT', errorCode: 'notifications/invalid_url' });
    const discord = firstError(await app.gql(p.token, 'mutation { setDiscordWebhook(url: "http://127.0.0.1/api/webhooks/1/x") { id } }'));
    expect(discord.extensions).toMatchObject({ code: 'BAD_USER_INPUT', errorCode: 'notifications/invalid_discord_url' });
    const restDiscord = await request(app.http).put('/api/v1/me/notifications/discord').set('Authorization', bearer(p)).send({ url: 'https://example.org/hook' });
    expect(restDiscord.status).toBe(400);
    expect(restDiscord.body.code).toBe('notifications/invalid_discord_url');
    expect(await list(p)).toEqual([]);
  });

  it('keeps every endpoint to its owner: another player\'s endpoint id is NOT_FOUND for each operation', async () => {
    const owner = await app.player('Sami');
    const other = await app.player('Tove');
    const id = data(await app.gql(owner.token, `mutation($url: String!) { addWebhookEndpoint(url: $url) { endpoint { id } } }`, { url: PUBLIC_URL }))['addWebhookEndpoint'].endpoint.id;
    for (const mutation of ['rotateWebhookSecret(id: $id) { secret }', 'enableNotificationEndpoint(id: $id) { id }', 'removeNotificationEndpoint(id: $id)']) {
      const e = firstError(await app.gql(other.token, `mutation($id: ID!) { ${mutation} }`, { id }));
      expect([mutation, e.extensions]).toEqual([mutation, expect.objectContaining({ code: 'NOT_FOUND', errorCode: 'notifications/endpoint_not_found' })]);
    }
    const auth = { Authorization: bearer(other) };
    for (const [method, path] of [
      ['post', `/api/v1/me/notifications/webhooks/${id}/rotate-secret`],
      ['post', `/api/v1/me/notifications/endpoints/${id}/enable`],
      ['delete', `/api/v1/me/notifications/endpoints/${id}`],
    ] as const) {
      const res = await request(app.http)[method](path).set(auth);
      expect([method, path, res.status, res.body.code]).toEqual([method, path, 404, 'notifications/endpoint_not_found']);
    }
    expect(await list(other)).toEqual([]);
    expect((await list(owner)).map((e: { id: string }) => e.id)).toEqual([id]);
    // Nor can anyone read another player's endpoints through `me`, or without a token at all.
    const anonymous = await app.gql(null, '{ me { notificationEndpoints { id } } }');
    expect(firstError(anonymous).extensions).toMatchObject({ code: 'UNAUTHENTICATED' });
    expect((await request(app.http).get('/api/v1/me/notifications/endpoints')).status).toBe(401);
    expect(firstError(await app.gql(null, `mutation { addWebhookEndpoint(url: "${PUBLIC_URL}") { secret } }`)).extensions).toMatchObject({ code: 'UNAUTHENTICATED' });
  });

  it('turns a disabled endpoint back on, checking its URL again', async () => {
    const p = await app.player('Uma');
    const prisma = app.running.app.get(PrismaService);
    const id = data(await app.gql(p.token, `mutation($url: String!) { addWebhookEndpoint(url: $url) { endpoint { id } } }`, { url: PUBLIC_URL }))['addWebhookEndpoint'].endpoint.id;
    const disabledAt = new Date();
    await prisma.notificationEndpoint.update({ where: { id }, data: { enabled: false, disabledAt, disabledReason: 'HTTP 410' } });
    expect(await list(p)).toEqual([expect.objectContaining({ id, enabled: false, disabledAt: disabledAt.toISOString(), disabledReason: 'HTTP 410' })]);
    const enabled = data(await app.gql(p.token, `mutation($id: ID!) { enableNotificationEndpoint(id: $id) { ${ENDPOINT} } }`, { id }))['enableNotificationEndpoint'];
    expect(enabled).toMatchObject({ id, enabled: true, disabledAt: null, disabledReason: null });

    // An endpoint saved while private targets were allowed is not turned on again now they are not.
    await prisma.notificationEndpoint.update({ where: { id }, data: { url: 'http://127.0.0.1:9/hook', enabled: false, disabledAt, disabledReason: 'HTTP 404' } });
    const refused = firstError(await app.gql(p.token, 'mutation($id: ID!) { enableNotificationEndpoint(id: $id) { id } }', { id }));
    expect(refused.extensions).toMatchObject({ code: 'BAD_USER_INPUT', errorCode: 'notifications/private_target' });
    const restRefused = await request(app.http).post(`/api/v1/me/notifications/endpoints/${id}/enable`).set('Authorization', bearer(p));
    expect([restRefused.status, restRefused.body.code]).toEqual([400, 'notifications/private_target']);
    expect(await list(p)).toEqual([expect.objectContaining({ id, enabled: false, disabledReason: 'HTTP 404' })]);
  });

  it('does all of it over REST too', async () => {
    const p = await app.player('Vera');
    const auth = { Authorization: bearer(p) };
    const added = await request(app.http).post('/api/v1/me/notifications/webhooks').set(auth).send({ url: PUBLIC_URL });
    expect(added.status).toBe(201);
    expect(added.headers['cache-control']).toBe('no-store');
    expect(added.body).toMatchObject({ secret: expect.stringMatching(/^whsec_/), endpoint: { id: expect.stringMatching(/^ep_/), kind: 'webhook', url: PUBLIC_URL, enabled: true } });
    const id = added.body.endpoint.id as string;

    const listed = await request(app.http).get('/api/v1/me/notifications/endpoints').set(auth);
    expect(listed.status).toBe(200);
    expect(listed.body.items).toEqual([added.body.endpoint]);
    expect(JSON.stringify(listed.body)).not.toContain('whsec_');

    const rotated = await request(app.http).post(`/api/v1/me/notifications/webhooks/${id}/rotate-secret`).set(auth);
    expect(rotated.status).toBe(200);
    expect(rotated.headers['cache-control']).toBe('no-store');
    expect(rotated.body.secret).not.toBe(added.body.secret);
    expect(Date.parse(rotated.body.endpoint.previousSecretValidUntil)).toBeGreaterThan(Date.now() + 23 * HOUR);

    await app.running.app.get(PrismaService).notificationEndpoint.update({ where: { id }, data: { enabled: false, disabledAt: new Date(), disabledReason: 'HTTP 410' } });
    const enabled = await request(app.http).post(`/api/v1/me/notifications/endpoints/${id}/enable`).set(auth);
    expect([enabled.status, enabled.body.enabled, enabled.body.disabledReason]).toEqual([200, true, null]);

    const bad = await request(app.http).post('/api/v1/me/notifications/webhooks').set(auth).send({ url: PUBLIC_URL, secret: 'mine' });
    expect([bad.status, bad.body.code]).toEqual([400, 'request/invalid']);
    const missing = await request(app.http).post('/api/v1/me/notifications/webhooks').set(auth).send({});
    expect([missing.status, missing.body.fields?.[0]?.field]).toEqual([400, 'url']);

    const removed = await request(app.http).delete(`/api/v1/me/notifications/endpoints/${id}`).set(auth);
    expect(removed.status).toBe(204);
    expect((await request(app.http).get('/api/v1/me/notifications/endpoints').set(auth)).body.items).toEqual([]);
    const gone = await request(app.http).post(`/api/v1/me/notifications/webhooks/${id}/rotate-secret`).set(auth);
    expect([gone.status, gone.body.code]).toEqual([404, 'notifications/endpoint_not_found']);
  });

  it('caps webhooks at five per player', async () => {
    const p = await app.player('Wim');
    for (let i = 0; i < 5; i++) data(await app.gql(p.token, `mutation($url: String!) { addWebhookEndpoint(url: $url) { endpoint { id } } }`, { url: `${PUBLIC_URL}/${i}` }));
    const sixth = firstError(await app.gql(p.token, `mutation($url: String!) { addWebhookEndpoint(url: $url) { endpoint { id } } }`, { url: `${PUBLIC_URL}/5` }));
    expect(sixth.extensions).toMatchObject({ code: 'BAD_USER_INPUT', errorCode: 'notifications/too_many_webhooks' });
  });

  it('appears in the OpenAPI document', async () => {
    const doc = (await request(app.http).get('/docs-json')).body as { paths: Record<string, Record<string, unknown>> };
    expect(Object.keys(doc.paths['/api/v1/me/notifications/endpoints'] ?? {})).toEqual(['get']);
    expect(Object.keys(doc.paths['/api/v1/me/notifications/webhooks'] ?? {})).toEqual(['post']);
    expect(Object.keys(doc.paths['/api/v1/me/notifications/webhooks/{endpointId}/rotate-secret'] ?? {})).toEqual(['post']);
    expect(Object.keys(doc.paths['/api/v1/me/notifications/endpoints/{endpointId}/enable'] ?? {})).toEqual(['post']);
    expect(Object.keys(doc.paths['/api/v1/me/notifications/endpoints/{endpointId}'] ?? {})).toEqual(['delete']);
    expect(Object.keys(doc.paths['/api/v1/me/notifications/discord'] ?? {}).sort()).toEqual(['delete', 'put']);
  });
});

describe('notification endpoints through the API, with private targets allowed (loopback receivers)', () => {
  let app: ApiApp;
  let receiver: HttpReceiver;
  beforeAll(async () => {
    app = await apiApp({ NOTIFY_ALLOW_PRIVATE_TARGETS: 'true' });
    receiver = await httpReceiver();
  });
  afterAll(async () => {
    await app.close();
    await receiver.close();
  });

  it('signs with both the new and the old secret after a rotation', async () => {
    const alice = await app.player('Alice');
    const bob = await app.player('Bob');
    const added = data(await app.gql(alice.token, 'mutation($url: String!) { addWebhookEndpoint(url: $url) { secret endpoint { id } } }', { url: receiver.url }))['addWebhookEndpoint'];
    const rotated = await request(app.http).post(`/api/v1/me/notifications/webhooks/${added.endpoint.id}/rotate-secret`).set('Authorization', bearer(alice));
    expect(rotated.status).toBe(200);

    // A real notification: Bob takes the seat Alice offered, and the game starts.
    const game = data(await app.gql(alice.token, 'mutation { createGame(input: { scenarioId: "kernel-test", side: "A" }) { id } }'))['createGame'].id;
    const token = data(await app.gql(alice.token, 'mutation($g: ID!) { invite(input: { gameId: $g, side: "B" }) { token } }', { g: game }))['invite'].token;
    data(await app.gql(bob.token, 'mutation($t: String) { joinGame(token: $t) { started } }', { t: token }));
    await app.running.app.get(NotificationWorker).drain();

    expect(receiver.requests.length).toBeGreaterThan(0);
    const got = receiver.requests[0]!;
    const headers = { id: String(got.headers['webhook-id']), timestamp: String(got.headers['webhook-timestamp']), signature: String(got.headers['webhook-signature']) };
    expect(headers.signature.split(' ')).toHaveLength(2);
    const now = Math.floor(Date.now() / 1000);
    expect(verify(rotated.body.secret, headers, got.body, now)).toBe(true);
    expect(verify(added.secret, headers, got.body, now)).toBe(true);
    expect(JSON.parse(got.body)).toMatchObject({ type: 'fieldpost.game_started', data: { gameId: game } });
  });

  it('sets, replaces and clears the Discord webhook (GraphQL and REST)', async () => {
    const p = await app.player('Xan');
    const set = data(await app.gql(p.token, `mutation($url: String) { setDiscordWebhook(url: $url) { ${ENDPOINT} } }`, { url: DISCORD_URL }))['setDiscordWebhook'];
    expect(set).toMatchObject({ id: expect.stringMatching(/^ep_/), kind: 'DISCORD', url: DISCORD_URL, enabled: true, previousSecretValidUntil: null });
    const replaced = await request(app.http).put('/api/v1/me/notifications/discord').set('Authorization', bearer(p)).send({ url: `${DISCORD_URL}2` });
    expect(replaced.status).toBe(200);
    expect(replaced.body).toMatchObject({ kind: 'discord', url: `${DISCORD_URL}2` });
    const listed = data(await app.gql(p.token, '{ me { notificationEndpoints { id kind url } } }'))['me'].notificationEndpoints;
    expect(listed).toEqual([{ id: replaced.body.id, kind: 'DISCORD', url: `${DISCORD_URL}2` }]);

    const notWebhook = firstError(await app.gql(p.token, 'mutation($id: ID!) { rotateWebhookSecret(id: $id) { secret } }', { id: replaced.body.id }));
    expect(notWebhook.extensions).toMatchObject({ code: 'BAD_USER_INPUT', errorCode: 'notifications/not_a_webhook' });

    const cleared = data(await app.gql(p.token, 'mutation { setDiscordWebhook(url: null) { id } }'))['setDiscordWebhook'];
    expect(cleared).toBeNull();
    await request(app.http).put('/api/v1/me/notifications/discord').set('Authorization', bearer(p)).send({ url: DISCORD_URL }).expect(200);
    await request(app.http).delete('/api/v1/me/notifications/discord').set('Authorization', bearer(p)).expect(204);
    expect(data(await app.gql(p.token, '{ me { notificationEndpoints { id } } }'))['me'].notificationEndpoints).toEqual([]);
  });
});
