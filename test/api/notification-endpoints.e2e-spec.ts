import request from 'supertest';
import { PrismaService } from '../../src/database/prisma.service';
import { verify } from '../../src/notifications/channels/standard-webhooks';
import { NotificationWorker } from '../../src/notifications/worker/notification-worker';
import { httpReceiver, HttpReceiver } from '../notifications/support/receivers';
import { apiApp, ApiApp, data, firstError, TestPlayer } from './support/api-app';

const ENDPOINT = 'id kind gameId url enabled disabledAt disabledReason previousSecretValidUntil createdAt';
/** A public address literal: accepted without a DNS lookup (no notification is sent to it here). */
const PUBLIC_URL = 'https://93.184.215.14/fieldpost';
const DISCORD_URL = 'https://discord.com/api/webhooks/1234567890/abcdefTOKEN';
const HOUR = 3_600_000;

const bearer = (p: TestPlayer) => `Bearer ${p.token}`;
const ADD_WEBHOOK = `mutation($url: String!, $gameId: ID) { addWebhookEndpoint(url: $url, gameId: $gameId) { secret endpoint { ${ENDPOINT} } } }`;
const SET_DISCORD = `mutation($url: String, $gameId: ID) { setDiscordWebhook(url: $url, gameId: $gameId) { ${ENDPOINT} } }`;

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
  const newGame = async (p: TestPlayer): Promise<string> => data(await app.gql(p.token, 'mutation { createGame(input: { scenarioId: "kernel-test", side: "A" }) { id } }'))['createGame'].id;

  it('adds a webhook with its secret shown once, lists it without the secret, rotates and removes it (GraphQL)', async () => {
    const p = await app.player('Quinn');
    expect(await list(p)).toEqual([]);
    const added = data(await app.gql(p.token, `mutation($url: String!) { addWebhookEndpoint(url: $url) { secret endpoint { ${ENDPOINT} } } }`, { url: PUBLIC_URL }))['addWebhookEndpoint'];
    expect(added.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(added.endpoint).toMatchObject({ id: expect.stringMatching(/^ep_/), kind: 'WEBHOOK', gameId: null, url: PUBLIC_URL, enabled: true, disabledAt: null, previousSecretValidUntil: null });

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
      expect([url, gql.extensions]).toEqual([url, expect.objectContaining({ code: 'BAD_USER_INPUT', errorCode: 'notifications/private_target' })]);
      const rest = await request(app.http).post('/api/v1/me/notifications/webhooks').set('Authorization', bearer(p)).send({ url });
      expect([url, rest.status, rest.headers['content-type']]).toEqual([url, 400, expect.stringMatching(/^application\/problem\+json/)]);
      expect(rest.body.code).toBe('notifications/private_target');
    }
    const literal = firstError(await app.gql(p.token, 'mutation { addWebhookEndpoint(url: "http://127.0.0.1/hook") { secret } }'));
    expect(literal).toMatchObject({ message: "The URL's host must resolve to a public address.", extensions: { errorCode: 'notifications/private_target' } });
    const notUrl = firstError(await app.gql(p.token, 'mutation { addWebhookEndpoint(url: "ftp://example.org/x") { secret } }'));
    expect(notUrl.extensions).toMatchObject({ code: 'BAD_USER_INPUT', errorCode: 'notifications/invalid_url' });
    const discord = firstError(await app.gql(p.token, 'mutation { setDiscordWebhook(url: "http://127.0.0.1/api/webhooks/1/x") { id } }'));
    expect(discord.extensions).toMatchObject({ code: 'BAD_USER_INPUT', errorCode: 'notifications/invalid_discord_url' });
    const restDiscord = await request(app.http).put('/api/v1/me/notifications/discord').set('Authorization', bearer(p)).send({ url: 'https://example.org/hook' });
    expect(restDiscord.status).toBe(400);
    expect(restDiscord.body.code).toBe('notifications/invalid_discord_url');
    expect(await list(p)).toEqual([]);
  });

  it('refuses a URL over 2048 characters with the same code over GraphQL and REST, webhooks and Discord alike, storing nothing', async () => {
    const p = await app.player('Tamsin');
    const long = `${PUBLIC_URL}?${'a'.repeat(2048)}`;
    const longDiscord = `${DISCORD_URL}?${'a'.repeat(2048)}`;
    for (const [query, url] of [[ADD_WEBHOOK, long], [SET_DISCORD, longDiscord]] as const) {
      expect(firstError(await app.gql(p.token, query, { url })).extensions).toMatchObject({ code: 'BAD_USER_INPUT', errorCode: 'notifications/invalid_url' });
    }
    const rest = await request(app.http).post('/api/v1/me/notifications/webhooks').set('Authorization', bearer(p)).send({ url: long });
    expect([rest.status, rest.body.code]).toEqual([400, 'notifications/invalid_url']);
    const restDiscord = await request(app.http).put('/api/v1/me/notifications/discord').set('Authorization', bearer(p)).send({ url: longDiscord });
    expect([restDiscord.status, restDiscord.body.code]).toEqual([400, 'notifications/invalid_url']);
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

  it('caps webhooks at five for all games, and five for each game', async () => {
    const p = await app.player('Wim');
    const game = await newGame(p);
    for (let i = 0; i < 5; i++) data(await app.gql(p.token, ADD_WEBHOOK, { url: `${PUBLIC_URL}/${i}` }));
    const sixth = firstError(await app.gql(p.token, ADD_WEBHOOK, { url: `${PUBLIC_URL}/5` }));
    expect(sixth.extensions).toMatchObject({ code: 'BAD_USER_INPUT', errorCode: 'notifications/too_many_webhooks' });
    for (let i = 0; i < 5; i++) data(await app.gql(p.token, ADD_WEBHOOK, { url: `${PUBLIC_URL}/g${i}`, gameId: game }));
    const sixthForGame = firstError(await app.gql(p.token, ADD_WEBHOOK, { url: `${PUBLIC_URL}/g5`, gameId: game }));
    expect(sixthForGame.extensions).toMatchObject({ code: 'BAD_USER_INPUT', errorCode: 'notifications/too_many_webhooks' });
  });

  it('scopes a webhook to one of your games, shows the scope in lists, and removes it (GraphQL and REST)', async () => {
    const p = await app.player('Yara');
    const auth = { Authorization: bearer(p) };
    const game = await newGame(p);
    const all = data(await app.gql(p.token, ADD_WEBHOOK, { url: PUBLIC_URL }))['addWebhookEndpoint'];
    const scoped = data(await app.gql(p.token, ADD_WEBHOOK, { url: `${PUBLIC_URL}/campaign`, gameId: game }))['addWebhookEndpoint'];
    expect([all.endpoint.gameId, scoped.endpoint.gameId]).toEqual([null, game]);
    expect(scoped.secret).toMatch(/^whsec_/);
    expect(await list(p)).toEqual([all.endpoint, scoped.endpoint]);

    const rest = await request(app.http).post('/api/v1/me/notifications/webhooks').set(auth).send({ url: `${PUBLIC_URL}/rest`, gameId: game });
    expect([rest.status, rest.headers['cache-control'], rest.body.endpoint?.gameId, rest.body.endpoint?.kind]).toEqual([201, 'no-store', game, 'webhook']);
    const listed = await request(app.http).get('/api/v1/me/notifications/endpoints').set(auth);
    expect(listed.body.items.map((e: { id: string; gameId: string | null }) => [e.id, e.gameId])).toEqual([[all.endpoint.id, null], [scoped.endpoint.id, game], [rest.body.endpoint.id, game]]);

    expect(data(await app.gql(p.token, 'mutation($id: ID!) { removeNotificationEndpoint(id: $id) }', { id: scoped.endpoint.id }))['removeNotificationEndpoint']).toBe(scoped.endpoint.id);
    await request(app.http).delete(`/api/v1/me/notifications/endpoints/${rest.body.endpoint.id}`).set(auth).expect(204);
    expect(await list(p)).toEqual([all.endpoint]);
  });

  it('refuses a game scope unless you hold a seat in that game: unknown or hidden games NOT_FOUND, watched ones FORBIDDEN, never a 500', async () => {
    const owner = await app.player('Zeno');
    const p = await app.player('Abel');
    const auth = { Authorization: bearer(p) };
    const hidden = await newGame(owner);
    const watched = data(await app.gql(owner.token, 'mutation { createGame(input: { scenarioId: "kernel-test", side: "A", settings: { spectators: true } }) { id } }'))['createGame'].id as string;
    expect(data(await app.gql(p.token, 'query($id: ID!) { game(id: $id) { id mySide } }', { id: watched }))['game']).toEqual({ id: watched, mySide: null });

    const cases: Array<[string, string, number, string]> = [
      ['an unknown game', 'no-such-game', 404, 'game/not_found'],
      ['a game you cannot see', hidden, 404, 'game/not_found'],
      ['a game you only watch', watched, 403, 'game/not_seated'],
    ];
    const gqlCode = { 404: 'NOT_FOUND', 403: 'FORBIDDEN' } as Record<number, string>;
    for (const [what, gameId, status, code] of cases) {
      const webhook = firstError(await app.gql(p.token, ADD_WEBHOOK, { url: PUBLIC_URL, gameId }));
      expect([what, webhook.extensions]).toEqual([what, expect.objectContaining({ code: gqlCode[status], errorCode: code })]);
      const discord = firstError(await app.gql(p.token, SET_DISCORD, { url: DISCORD_URL, gameId }));
      expect([what, discord.extensions]).toEqual([what, expect.objectContaining({ code: gqlCode[status], errorCode: code })]);
      const clear = firstError(await app.gql(p.token, SET_DISCORD, { url: null, gameId }));
      expect([what, clear.extensions]).toEqual([what, expect.objectContaining({ code: gqlCode[status], errorCode: code })]);
      for (const res of [
        await request(app.http).post('/api/v1/me/notifications/webhooks').set(auth).send({ url: PUBLIC_URL, gameId }),
        await request(app.http).put('/api/v1/me/notifications/discord').set(auth).send({ url: DISCORD_URL, gameId }),
        await request(app.http).delete('/api/v1/me/notifications/discord').query({ gameId }).set(auth),
      ]) {
        expect([what, res.status, res.headers['content-type'], res.body.code]).toEqual([what, status, expect.stringMatching(/^application\/problem\+json/), code]);
      }
    }
    // Malformed game ids are bad input, never an internal error.
    for (const gameId of ['', 'x'.repeat(5000)]) {
      const e = firstError(await app.gql(p.token, ADD_WEBHOOK, { url: PUBLIC_URL, gameId }));
      expect([gameId.length, e.extensions]).toEqual([gameId.length, expect.objectContaining({ code: 'BAD_USER_INPUT', errorCode: 'notifications/invalid_game', field: 'gameId' })]);
      const res = await request(app.http).post('/api/v1/me/notifications/webhooks').set(auth).send({ url: PUBLIC_URL, gameId });
      expect([gameId.length, res.status, res.body.code]).toEqual([gameId.length, 400, 'request/invalid']);
    }
    expect(await list(p)).toEqual([]);

    // With a seat, the URL is still checked: no private targets for one game either.
    const mine = await newGame(p);
    const ssrf = firstError(await app.gql(p.token, ADD_WEBHOOK, { url: 'http://127.0.0.1:8080/hook', gameId: mine }));
    expect(ssrf.extensions).toMatchObject({ code: 'BAD_USER_INPUT', errorCode: 'notifications/private_target' });
    const restSsrf = await request(app.http).post('/api/v1/me/notifications/webhooks').set(auth).send({ url: 'http://169.254.169.254/latest', gameId: mine });
    expect([restSsrf.status, restSsrf.body.code]).toEqual([400, 'notifications/private_target']);
    expect(await list(p)).toEqual([]);
  });

  it('appears in the OpenAPI document', async () => {
    const doc = (await request(app.http).get('/docs-json')).body as { paths: Record<string, Record<string, unknown>> };
    expect(Object.keys(doc.paths['/api/v1/me/notifications/endpoints'] ?? {})).toEqual(['get']);
    expect(Object.keys(doc.paths['/api/v1/me/notifications/webhooks'] ?? {})).toEqual(['post']);
    expect(Object.keys(doc.paths['/api/v1/me/notifications/webhooks/{endpointId}/rotate-secret'] ?? {})).toEqual(['post']);
    expect(Object.keys(doc.paths['/api/v1/me/notifications/endpoints/{endpointId}/enable'] ?? {})).toEqual(['post']);
    expect(Object.keys(doc.paths['/api/v1/me/notifications/endpoints/{endpointId}'] ?? {})).toEqual(['delete']);
    expect(Object.keys(doc.paths['/api/v1/me/notifications/discord'] ?? {}).sort()).toEqual(['delete', 'put']);
    // The game scope: in the request bodies, the DELETE query and the listed endpoints.
    const schemas = (doc as unknown as { components: { schemas: Record<string, { properties: Record<string, { description?: string; nullable?: boolean }> }> } }).components.schemas;
    const body = (path: string, method: string) => {
      const ref = (doc.paths[path]?.[method] as { requestBody: { content: Record<string, { schema: { $ref: string } }> } }).requestBody.content['application/json']!.schema.$ref;
      return schemas[ref.split('/').pop()!]!;
    };
    expect(body('/api/v1/me/notifications/webhooks', 'post').properties['gameId']?.description).toMatch(/Only for this game/);
    expect(body('/api/v1/me/notifications/discord', 'put').properties['gameId']?.description).toMatch(/Only for this game/);
    const clear = doc.paths['/api/v1/me/notifications/discord']!['delete'] as { parameters: Array<{ name: string; in: string }> };
    expect(clear.parameters).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'gameId', in: 'query' })]));
    const listed = (doc.paths['/api/v1/me/notifications/endpoints']!['get'] as { responses: Record<string, { content: Record<string, { schema: { $ref: string } }> }> }).responses['200']!;
    const listSchema = schemas[listed.content['application/json']!.schema.$ref.split('/').pop()!]!;
    expect(Object.keys(listSchema.properties)).toEqual(['items']);
    expect(schemas['EndpointDto']?.properties['gameId']).toMatchObject({ nullable: true });
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

  it('sets and clears a Discord webhook for one game beside the all-games one (GraphQL and REST)', async () => {
    const p = await app.player('Bea');
    const auth = { Authorization: bearer(p) };
    const game = data(await app.gql(p.token, 'mutation { createGame(input: { scenarioId: "kernel-test", side: "A" }) { id } }'))['createGame'].id as string;
    const all = data(await app.gql(p.token, SET_DISCORD, { url: DISCORD_URL }))['setDiscordWebhook'];
    const scoped = data(await app.gql(p.token, SET_DISCORD, { url: `${DISCORD_URL}/campaign`, gameId: game }))['setDiscordWebhook'];
    expect([all.gameId, scoped.gameId, scoped.kind]).toEqual([null, game, 'DISCORD']);

    const replaced = await request(app.http).put('/api/v1/me/notifications/discord').set(auth).send({ url: `${DISCORD_URL}/campaign2`, gameId: game });
    expect([replaced.status, replaced.body.gameId, replaced.body.url]).toEqual([200, game, `${DISCORD_URL}/campaign2`]);
    const listed = data(await app.gql(p.token, '{ me { notificationEndpoints { id kind gameId } } }'))['me'].notificationEndpoints;
    expect(listed).toEqual([{ id: all.id, kind: 'DISCORD', gameId: null }, { id: replaced.body.id, kind: 'DISCORD', gameId: game }]);

    await request(app.http).delete('/api/v1/me/notifications/discord').query({ gameId: game }).set(auth).expect(204);
    expect((await request(app.http).get('/api/v1/me/notifications/endpoints').set(auth)).body.items.map((e: { id: string }) => e.id)).toEqual([all.id]);
    await request(app.http).put('/api/v1/me/notifications/discord').set(auth).send({ url: DISCORD_URL, gameId: game }).expect(200);
    expect(data(await app.gql(p.token, SET_DISCORD, { url: null, gameId: game }))['setDiscordWebhook']).toBeNull();
    expect(data(await app.gql(p.token, '{ me { notificationEndpoints { id gameId } } }'))['me'].notificationEndpoints).toEqual([{ id: all.id, gameId: null }]);
  });

  it('delivers each game\'s notifications to the webhook and Discord webhook registered for it, the others to the all-games ones', async () => {
    const everywhere = await httpReceiver();
    const campaign = await httpReceiver();
    const footer = (_h: unknown, body: string) => String(JSON.parse(body).embeds[0].footer.text);
    const discordAll = await httpReceiver(undefined, footer);
    const discordCampaign = await httpReceiver(undefined, footer);
    try {
      const alice = await app.player('Alice');
      const bob = await app.player('Bob');
      const start = async () => {
        const game = data(await app.gql(alice.token, 'mutation { createGame(input: { scenarioId: "kernel-test", side: "A" }) { id } }'))['createGame'].id as string;
        const token = data(await app.gql(alice.token, 'mutation($g: ID!) { invite(input: { gameId: $g, side: "B" }) { token } }', { g: game }))['invite'].token;
        return { game, join: async () => data(await app.gql(bob.token, 'mutation($t: String) { joinGame(token: $t) { started } }', { t: token })) };
      };
      const first = await start();
      const second = await start();
      const all = data(await app.gql(alice.token, ADD_WEBHOOK, { url: everywhere.url }))['addWebhookEndpoint'];
      const scoped = await request(app.http).post('/api/v1/me/notifications/webhooks').set('Authorization', bearer(alice)).send({ url: campaign.url, gameId: first.game });
      expect(scoped.status).toBe(201);
      data(await app.gql(alice.token, SET_DISCORD, { url: discordAll.url.replace('/hook', '/api/webhooks/1/all') }));
      data(await app.gql(alice.token, SET_DISCORD, { url: discordCampaign.url.replace('/hook', '/api/webhooks/2/campaign'), gameId: second.game }));
      await first.join();
      await second.join();
      await app.running.app.get(NotificationWorker).drain();

      const about = (r: HttpReceiver) => r.requests.map((q) => { const b = JSON.parse(q.body); return [b.type, b.data.gameId]; });
      expect(about(campaign)).toEqual([['fieldpost.game_started', first.game]]);
      expect(about(everywhere)).toEqual([['fieldpost.game_started', second.game]]);
      const q = campaign.requests[0]!;
      const headers = { id: String(q.headers['webhook-id']), timestamp: String(q.headers['webhook-timestamp']), signature: String(q.headers['webhook-signature']) };
      expect(verify(scoped.body.secret, headers, q.body, Math.floor(Date.now() / 1000))).toBe(true);
      expect(verify(all.secret, headers, q.body, Math.floor(Date.now() / 1000))).toBe(false);
      // Discord: the second game has its own channel, the first goes to the all-games one.
      const linked = (r: HttpReceiver) => r.requests.map((x) => String(JSON.parse(x.body).embeds[0].url));
      expect(linked(discordCampaign)).toEqual([expect.stringContaining(`/games/${second.game}`)]);
      expect(linked(discordAll)).toEqual([expect.stringContaining(`/games/${first.game}`)]);
    } finally {
      for (const r of [everywhere, campaign, discordAll, discordCampaign]) await r.close();
    }
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
