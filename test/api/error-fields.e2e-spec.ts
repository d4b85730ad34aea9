import request from 'supertest';
import { apiApp, ApiApp, data, firstError, TestPlayer } from './support/api-app';

/**
 * A refusal of one value the client sent names it in `field` (REST) and `extensions.field`
 * (GraphQL), as the README's error table promises, so a client can point at the input at fault.
 * These refusals came from checks deeper than the request's validation and named no field.
 */
describe('the field a refusal names', () => {
  let app: ApiApp;
  let alice: TestPlayer;
  let game: string;
  beforeAll(async () => {
    app = await apiApp({ NOTIFY_ALLOW_PRIVATE_TARGETS: 'false' });
    alice = await app.player('Alice');
    game = data(await app.gql(alice.token, 'mutation { createGame(input: { scenarioId: "kernel-test", side: "A" }) { id } }'))['createGame'].id;
  });
  afterAll(() => app.close());

  const rest = (method: 'post' | 'put' | 'patch', path: string, body: unknown) =>
    request(app.http)[method](path).set('Authorization', `Bearer ${alice.token}`).send(body as object);
  const gqlField = async (query: string, variables?: Record<string, unknown>) => {
    const e = firstError(await app.gql(alice.token, query, variables));
    return { code: e.extensions?.['errorCode'], field: e.extensions?.['field'] };
  };
  const submit = 'mutation($i: SubmitPhaseInput!) { submitPhase(input: $i) { version } }';

  it.each([
    ['an idempotency key too long', () => rest('post', `/api/v1/games/${game}/phases`, { expectedVersion: 1, orders: [], idempotencyKey: 'k'.repeat(201) }), 'request/idempotency_key', 'idempotencyKey'],
    ['an Idempotency-Key header too long', () => rest('post', `/api/v1/games/${game}/phases`, { expectedVersion: 1, orders: [] }).set('Idempotency-Key', 'k'.repeat(201)), 'request/idempotency_key', 'idempotencyKey'],
    ['a game for a side the scenario lacks', () => rest('post', '/api/v1/games', { scenarioId: 'kernel-test', side: 'Z' }), 'game/unknown_side', 'side'],
    ['an invitation for a side the game lacks', () => rest('post', `/api/v1/games/${game}/invitations`, { side: 'Z' }), 'game/unknown_side', 'side'],
    ['a reminder lead out of range', () => rest('patch', '/api/v1/me/notifications', { reminderLeadMinutes: 99_999 }), 'notifications/invalid_reminder', 'reminderLeadMinutes'],
    ['a quiet hours start that is no time', () => rest('patch', '/api/v1/me/notifications', { quietStart: '25:00', quietEnd: '07:00' }), 'notifications/invalid_quiet_hours', 'quietStart'],
    ['quiet hours that end as they start', () => rest('patch', '/api/v1/me/notifications', { quietStart: '07:00', quietEnd: '07:00' }), 'notifications/invalid_quiet_hours', 'quietEnd'],
    ['a webhook URL that is not http', () => rest('post', '/api/v1/me/notifications/webhooks', { url: 'ftp://example.org/x' }), 'notifications/invalid_url', 'url'],
    ['a webhook URL on loopback', () => rest('post', '/api/v1/me/notifications/webhooks', { url: 'http://127.0.0.1:9/x' }), 'notifications/private_target', 'url'],
    ['a Discord URL that is no Discord webhook', () => rest('put', '/api/v1/me/notifications/discord', { url: 'https://example.org/api/webhooks/1/x' }), 'notifications/invalid_discord_url', 'url'],
  ])('REST: %s', async (_name, send, code, field) => {
    const res = await send();
    expect({ status: res.status, code: res.body.code, field: res.body.field }).toEqual({ status: 400, code, field });
  });

  it.each([
    ['an idempotency key too long', () => gqlField(submit, { i: { gameId: game, expectedVersion: 1, orders: [], idempotencyKey: 'k'.repeat(201) } }), 'request/idempotency_key', 'idempotencyKey'],
    ['an empty idempotency key', () => gqlField(submit, { i: { gameId: game, expectedVersion: 1, orders: [], idempotencyKey: '' } }), 'request/idempotency_key', 'idempotencyKey'],
    ['an invitation for a side the game lacks', () => gqlField('mutation($g: ID!) { invite(input: { gameId: $g, side: "Z" }) { id } }', { g: game }), 'game/unknown_side', 'side'],
    ['a reminder lead out of range', () => gqlField('mutation { updateNotificationSettings(input: { reminderLeadMinutes: 99999 }) { digest } }'), 'notifications/invalid_reminder', 'reminderLeadMinutes'],
    ['a quiet hours end that is no time', () => gqlField('mutation { updateNotificationSettings(input: { quietStart: "22:00", quietEnd: "7" }) { digest } }'), 'notifications/invalid_quiet_hours', 'quietEnd'],
    ['a webhook URL that is not http', () => gqlField('mutation { addWebhookEndpoint(url: "ftp://example.org/x") { secret } }'), 'notifications/invalid_url', 'url'],
  ])('GraphQL: %s', async (_name, send, code, field) => {
    expect(await send()).toEqual({ code, field });
  });
});
