import request from 'supertest';
import { ApiTokensService } from '../../src/auth/api-tokens.service';
import { setupA, setupB } from '../support/kernel-game';
import { apiApp, ApiApp, data, TestPlayer } from './support/api-app';
import { kernelScript } from './support/kernel-script';

/**
 * The same request several times at once, as a double click or a retrying client sends it. Races
 * are decided by the database (unique keys, the event store's version check), and the losers
 * must hear a 4xx that says so, never a 500 from a constraint nobody mapped.
 */
describe('the same request several times at once', () => {
  let app: ApiApp;
  let alice: TestPlayer;
  let bob: TestPlayer;
  let carol: TestPlayer;
  let gameId: string;
  /** Whoever won the race for side B. */
  let sideB: TestPlayer;

  beforeAll(async () => {
    // Private targets allowed: the endpoint URLs are checked without a DNS lookup, and nothing is sent to them.
    app = await apiApp({ NOTIFY_ALLOW_PRIVATE_TARGETS: 'true' }, { entries: [kernelScript.entry()] });
    alice = await app.player('Alice');
    bob = await app.player('Bob');
    carol = await app.player('Carol');
    gameId = data(await app.gql(alice.token, 'mutation { createGame(input: { scenarioId: "kernel-test", side: "A" }) { id } }'))['createGame'].id;
  });
  afterAll(async () => {
    await app.close();
  });

  type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
  const send = (player: TestPlayer, method: Method, url: string, body?: object, key?: string) => {
    const req = request(app.http)[method](url).set('Authorization', `Bearer ${player.token}`);
    if (key) req.set('Idempotency-Key', key);
    return body === undefined ? req : req.send(body);
  };
  const statuses = async (calls: Array<Promise<request.Response>>) => (await Promise.all(calls)).map((r) => r.status).sort();
  const version = async () => data(await app.gql(alice.token, 'query($g: ID!) { game(id: $g) { version } }', { g: gameId }))['game'].version as number;

  it('one invitation token, taken by two players at once: one seat, one refusal', async () => {
    const token = (await send(alice, 'post', `/api/v1/games/${gameId}/invitations`, { side: 'B' })).body.token as string;
    const players = [bob, carol, bob, carol];
    const answers = await Promise.all(players.map((p) => send(p, 'post', '/api/v1/join', { token })));
    expect(answers.map((r) => r.status).filter((s) => s >= 500)).toEqual([]);
    const won = answers.flatMap((r, i) => (r.status < 300 ? [players[i]!] : []));
    expect(won).toHaveLength(1);
    sideB = won[0]!;
  });

  // The join that lost the race for the game's next version was answered with a version
  // conflict ("not the expected 4"), of a version the client never sent.
  it('four invitations to one seat, taken by four players at once: one seat, three refusals saying it is taken', async () => {
    const game = data(await app.gql(alice.token, 'mutation { createGame(input: { scenarioId: "kernel-test", side: "A" }) { id } }'))['createGame'].id as string;
    const players = [bob, carol, await app.player('Gus'), await app.player('Hal')];
    const tokens = (await Promise.all(players.map(() => send(alice, 'post', `/api/v1/games/${game}/invitations`, { side: 'B' })))).map((r) => r.body.token as string);
    const answers = await Promise.all(players.map((p, i) => send(p, 'post', '/api/v1/join', { token: tokens[i] })));
    expect(answers.filter((r) => r.status === 200)).toHaveLength(1);
    expect(answers.filter((r) => r.status !== 200).map((r) => [r.status, r.body.code])).toEqual(Array(3).fill([409, 'invitation/seat_taken']));
  });

  it('one phase under five keys at once: one is played, four are version conflicts', async () => {
    const v = await version();
    const got = await statuses(Array.from({ length: 5 }, (_, i) => send(alice, 'post', `/api/v1/games/${gameId}/phases`, { expectedVersion: v, orders: setupA }, `race-${i}`)));
    expect(got).toEqual([200, 409, 409, 409, 409].sort());
    expect(await version()).toBeGreaterThan(v);
  });

  it('one phase under one key, five times at once: the same answer, or a conflict, and one write', async () => {
    const v = await version();
    const got = await Promise.all(Array.from({ length: 5 }, () => send(sideB, 'post', `/api/v1/games/${gameId}/phases`, { expectedVersion: v, orders: setupB() }, 'same-key')));
    expect(got.map((r) => r.status).filter((s) => s >= 500)).toEqual([]);
    const ok = got.filter((r) => r.status === 200);
    expect(ok.length).toBeGreaterThanOrEqual(1);
    for (const r of ok) expect(r.body).toEqual(ok[0]!.body);
    expect(await version()).toBe(ok[0]!.body.version);
  });

  // Each request counted the endpoints before any of the others had written theirs.
  it('ten webhooks added at once: five are kept, the others are refused as one too many', async () => {
    const dave = await app.player('Dave');
    const got = await Promise.all(Array.from({ length: 10 }, (_, i) => send(dave, 'post', '/api/v1/me/notifications/webhooks', { url: `http://127.0.0.1:9/hook-${i}` })));
    expect(got.map((r) => r.status).sort()).toEqual([201, 201, 201, 201, 201, 400, 400, 400, 400, 400]);
    for (const r of got.filter((x) => x.status === 400)) expect(r.body.code).toBe('notifications/too_many_webhooks');
    const listed = await send(dave, 'get', '/api/v1/me/notifications/endpoints');
    expect((listed.body.items as Array<{ kind: string }>).filter((e) => e.kind === 'webhook')).toHaveLength(5);
  });

  it('ten API tokens made at once by a player holding forty-five: five are made, the others refused as too many', async () => {
    const fay = await app.player('Fay');
    const tokens = app.running.app.get(ApiTokensService);
    for (let i = 0; i < 44; i++) await tokens.issue(fay.id, `old-${i}`);
    const got = await Promise.all(Array.from({ length: 10 }, (_, i) => send(fay, 'post', '/api/v1/me/tokens', { name: `bot-${i}` })));
    expect(got.map((r) => r.status).sort()).toEqual([201, 201, 201, 201, 201, 400, 400, 400, 400, 400]);
    for (const r of got.filter((x) => x.status === 400)) expect(r.body.code).toBe('auth/too_many_tokens');
  });

  // Each found the endpoint before any had deleted it; all but one then deleted nothing, a 500.
  it('one endpoint removed six times at once, five times over: each time one removal and five 404s', async () => {
    const ivy = await app.player('Ivy');
    for (let round = 0; round < 5; round++) {
      const id = (await send(ivy, 'post', '/api/v1/me/notifications/webhooks', { url: `http://127.0.0.1:9/hook-${round}` })).body.endpoint.id as string;
      const got = await statuses(Array.from({ length: 6 }, () => send(ivy, 'delete', `/api/v1/me/notifications/endpoints/${id}`)));
      expect(got).toEqual([204, ...Array(5).fill(404)]);
    }
  });

  it('five Discord webhooks set at once for one scope: one is kept', async () => {
    const erin = await app.player('Erin');
    const got = await Promise.all(Array.from({ length: 5 }, (_, i) => send(erin, 'put', '/api/v1/me/notifications/discord', { url: `https://discord.com/api/webhooks/1/abc${i}` })));
    expect(got.map((r) => r.status).filter((s) => s >= 300)).toEqual([]);
    const listed = await send(erin, 'get', '/api/v1/me/notifications/endpoints');
    expect((listed.body.items as Array<{ kind: string }>).filter((e) => e.kind === 'discord')).toHaveLength(1);
  });

  it.each([
    ['creating API tokens of one name', (p: TestPlayer, _v: number) => send(p, 'post', '/api/v1/me/tokens', { name: 'twice' })],
    ['adding one webhook', (p: TestPlayer, _v: number) => send(p, 'post', '/api/v1/me/notifications/webhooks', { url: 'http://127.0.0.1:9/hook' })],
    ['setting the Discord webhook', (p: TestPlayer, _v: number) => send(p, 'put', '/api/v1/me/notifications/discord', { url: 'https://discord.com/api/webhooks/1/abc' })],
    ['changing notification settings', (p: TestPlayer, _v: number) => send(p, 'patch', '/api/v1/me/notifications', { reminderLeadMinutes: 90 })],
    ['starting a vacation', (p: TestPlayer, v: number) => send(p, 'post', `/api/v1/games/${gameId}/vacation/start`, { expectedVersion: v })],
    ['resigning', (p: TestPlayer, v: number) => send(p, 'post', `/api/v1/games/${gameId}/resign`, { expectedVersion: v })],
  ])('%s five times at once never answers 500', async (_name, call) => {
    const v = await version();
    const got = await statuses(Array.from({ length: 5 }, () => call(alice, v)));
    expect(got.filter((s) => s >= 500)).toEqual([]);
    expect(got.some((s) => s < 300)).toBe(true);
  });
});
