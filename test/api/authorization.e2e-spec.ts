import request from 'supertest';
import { GameFeed } from '../../src/api/subscriptions/game-feed.service';
import { apiApp, ApiApp, data, TestPlayer } from './support/api-app';
import { openChallengesOf } from './support/open-challenges';
import { GraphqlClient } from './support/game-client';
import { kernelScript as script } from './support/kernel-script';
import { playScript } from './support/play-script';
import { GAME_OPERATIONS } from './support/game-operations';
import { collect, GAME_UPDATED, waitFor, wsClient } from './support/subscriptions';

/** Every REST endpoint that names a game. */
const REST_OPERATIONS: Array<{ method: 'get' | 'post' | 'put' | 'patch' | 'delete'; path: string; body?: (v: number) => object }> = [
  { method: 'get', path: '/api/v1/games/:g' },
  { method: 'get', path: '/api/v1/games/:g/view' },
  { method: 'get', path: '/api/v1/games/:g/units/a-ship/options' },
  { method: 'post', path: '/api/v1/games/:g/units/a-ship/options', body: () => ({ after: [] }) },
  { method: 'get', path: '/api/v1/games/:g/options' },
  { method: 'post', path: '/api/v1/games/:g/options', body: () => ({ after: [] }) },
  { method: 'get', path: '/api/v1/games/:g/history' },
  { method: 'get', path: '/api/v1/games/:g/export' },
  { method: 'post', path: '/api/v1/games/:g/invitations', body: () => ({ side: 'B' }) },
  { method: 'get', path: '/api/v1/games/:g/invitations' },
  { method: 'delete', path: '/api/v1/games/:g/invitations/inv_x' },
  { method: 'post', path: '/api/v1/games/:g/phases', body: (v) => ({ expectedVersion: v, orders: [], idempotencyKey: 'authz-r1' }) },
  { method: 'post', path: '/api/v1/games/:g/phases/check', body: (v) => ({ expectedVersion: v, orders: [] }) },
  { method: 'post', path: '/api/v1/games/:g/reactions', body: (v) => ({ expectedVersion: v, answer: { attackers: [] }, idempotencyKey: 'authz-r2' }) },
  { method: 'put', path: '/api/v1/games/:g/standing-orders', body: (v) => ({ expectedVersion: v, orders: {}, idempotencyKey: 'authz-r3' }) },
  ...['resign', 'undo', 'undo/accept', 'undo/decline', 'vacation/start', 'vacation/end'].map((a) => ({ method: 'post' as const, path: `/api/v1/games/:g/${a}`, body: (v: number) => ({ expectedVersion: v }) })),
  { method: 'get', path: '/api/v1/me/notifications?gameId=:g' },
  { method: 'patch', path: '/api/v1/me/notifications?gameId=:g', body: () => ({ digest: true }) },
  { method: 'get', path: '/api/v1/me/notifications/deliveries?gameId=:g' },
];

describe('authorization of every operation', () => {
  let app: ApiApp;
  let url: string;
  let alice: TestPlayer;
  let bob: TestPlayer;
  let mallory: TestPlayer;
  let revoked: TestPlayer;
  let privateGame: string;
  let watchedGame: string;

  beforeAll(async () => {
    app = await apiApp({ SUBSCRIPTION_POLL_MS: '50' });
    url = await app.listen();
    alice = await app.player('Alice');
    bob = await app.player('Bob');
    mallory = await app.player('Mallory');
    revoked = await app.player('Revoked');
    privateGame = (await playScript(new GraphqlClient(app, alice), new GraphqlClient(app, bob), script, 2)).gameId;
    watchedGame = (await playScript(new GraphqlClient(app, alice), new GraphqlClient(app, bob), script, 2, { spectators: true })).gameId;
    data(await app.gql(revoked.token, `mutation { revokeApiToken(id: "${revoked.tokenId}") { revokedAt } }`));
  });
  afterAll(async () => {
    await app.close();
  });

  const version = async (gameId: string) => data(await app.gql(alice.token, 'query($g: ID!) { game(id: $g) { version } }', { g: gameId }))['game'].version as number;

  it.each(GAME_OPERATIONS.map((o) => [o.name, o] as const))("refuses %s with another player's token, and changes nothing", async (_name, op) => {
    const before = await version(privateGame);
    const r = await app.gql(mallory.token, op.query, { g: privateGame, v: before });
    expect(r.status).toBe(200);
    expect(r.body.errors).toHaveLength(1);
    expect(['NOT_FOUND', 'FORBIDDEN']).toContain(r.body.errors![0]!.extensions!['code']);
    expect(JSON.stringify(r.body)).not.toMatch(/a-ship|b-m48|"version":\d/);
    expect(await version(privateGame)).toBe(before);
  });

  it.each(GAME_OPERATIONS.map((o) => [o.name, o] as const))('refuses %s with a revoked token (401 UNAUTHENTICATED)', async (_name, op) => {
    const r = await app.gql(revoked.token, op.query, { g: privateGame, v: 1 });
    expect(r.status).toBe(401);
    expect(r.body.data).toBeUndefined();
    expect(r.body.errors![0]!.extensions).toMatchObject({ code: 'UNAUTHENTICATED' });
  });

  it.each(GAME_OPERATIONS.map((o) => [o.name, o] as const))('refuses %s without a token', async (_name, op) => {
    const r = await app.gql(null, op.query, { g: privateGame, v: 1 });
    expect(r.body.errors![0]!.extensions).toMatchObject({ code: 'UNAUTHENTICATED' });
  });

  it.each(REST_OPERATIONS.map((o) => [`${o.method.toUpperCase()} ${o.path}`, o] as const))("refuses REST %s with another player's token, a revoked token and no token", async (_name, op) => {
    const before = await version(privateGame);
    const path = op.path.replace(':g', privateGame);
    const send = (token: string | null) => {
      const r = request(app.http)[op.method](path);
      if (token) r.set('Authorization', `Bearer ${token}`);
      return op.body ? r.send(op.body(before)) : r;
    };
    const foreign = await send(mallory.token);
    expect([403, 404]).toContain(foreign.status);
    expect(foreign.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(foreign.body.code).toMatch(/^(game\/not_found|game\/not_seated)$/);
    expect((await send(revoked.token)).status).toBe(401);
    expect((await send(null)).status).toBe(401);
    expect(await version(privateGame)).toBe(before);
  });

  it('lets a spectator read only the public view, and act in nothing', async () => {
    const spectator = mallory;
    const asSpectator = data(
      await app.gql(spectator.token, 'query($g: ID!) { game(id: $g) { mySide awaitingMe view { own units { id } markers { hex } } history { nodes { type data } } } }', { g: watchedGame }),
    )['game'];
    expect(asSpectator).toMatchObject({ mySide: null, awaitingMe: false, view: { own: null } });
    const text = JSON.stringify(asSpectator);
    // After setup only: the spectator never learns which units hide under the markers.
    expect(asSpectator.view.markers.length).toBeGreaterThan(0);
    for (const s of script.secrets.strings) expect(JSON.stringify(asSpectator.view)).not.toContain(s);
    expect(text).not.toContain('"standingOrders"');
    const asBob = JSON.stringify(data(await app.gql(bob.token, 'query($g: ID!) { game(id: $g) { view { units { id } } } }', { g: watchedGame })));
    expect(asBob).toContain('b-inf-1');
    // The spectator sees the game: each action says they hold no seat in it, none that it is not there.
    for (const op of GAME_OPERATIONS.filter((o) => !o.read)) {
      const r = await app.gql(spectator.token, op.query, { g: watchedGame, v: await version(watchedGame) });
      expect([op.name, r.body.errors?.[0]?.extensions]).toEqual([op.name, expect.objectContaining({ code: 'FORBIDDEN', errorCode: 'game/not_seated' })]);
    }
    const opts = await app.gql(spectator.token, 'query($g: ID!) { game(id: $g) { options(unitId: "b-m48") { moves { hex } } } }', { g: watchedGame });
    expect(opts.body.errors?.[0]?.extensions).toMatchObject({ code: 'FORBIDDEN', errorCode: 'game/not_seated' });
    // Also before the game begins: a spectator holds no seat whatever the game's moment (it was told the game was not in progress).
    const seating = data(await app.gql(alice.token, 'mutation { createGame(input: { scenarioId: "kernel-test", side: "A", settings: { spectators: true } }) { id } }'))['createGame'].id;
    const early = await request(app.http).get(`/api/v1/games/${seating}/units/b-m48/options`).set('Authorization', `Bearer ${spectator.token}`);
    expect({ status: early.status, code: early.body.code }).toEqual({ status: 403, code: 'game/not_seated' });
    const invite = await request(app.http).post(`/api/v1/games/${watchedGame}/invitations`).set('Authorization', `Bearer ${spectator.token}`).send({ side: 'B' });
    expect({ status: invite.status, code: invite.body.code }).toEqual({ status: 403, code: 'game/not_seated' });
    const settings = await app.gql(spectator.token, 'query($g: ID!) { me { notificationSettings(gameId: $g) { digest } } }', { g: watchedGame });
    expect(settings.body.errors?.[0]?.extensions).toMatchObject({ code: 'FORBIDDEN', errorCode: 'game/not_seated' });
  });

  it('refuses a foreign game id passed in a nested field, and keeps nested games to what the caller may see', async () => {
    for (const query of [
      'query($g: ID!) { me { id notificationSettings(gameId: $g) { digest } } }',
      'query($g: ID!) { me { id notificationDeliveries(gameId: $g) { nodes { id } } } }',
      'query($g: ID!) { me { id } game(id: $g) { id } }',
    ]) {
      const r = await app.gql(mallory.token, query, { g: privateGame });
      expect(r.body.errors?.[0]?.extensions?.['code']).toBe('NOT_FOUND');
      expect(JSON.stringify(r.body.data)).not.toContain(privateGame);
    }
    const inv = data(await app.gql(alice.token, 'mutation { createGame(input: { scenarioId: "kernel-test", side: "A" }) { id } }'))['createGame'].id;
    data(await app.gql(alice.token, 'mutation($g: ID!) { invite(input: { gameId: $g, side: "B", kind: OPEN }) { id } }', { g: inv }));
    expect(await openChallengesOf(app, mallory.token, inv, 'game { id view { units { id } } }')).toEqual([{ gameId: inv, game: null }]);
    // my games list only my own, and their nested games are mine.
    const listing = data(await app.gql(mallory.token, 'query { myGames { nodes { id game { id } } } }'))['myGames'].nodes;
    expect(listing).toEqual([]);
  });

  it("refuses another player's token for their account: tokens, deliveries", async () => {
    const r = await app.gql(mallory.token, `mutation { revokeApiToken(id: "${alice.tokenId}") { id } }`);
    expect(r.body.errors?.[0]?.extensions).toMatchObject({ code: 'NOT_FOUND', errorCode: 'auth/token_not_found' });
    const d = await request(app.http).delete(`/api/v1/me/tokens/${alice.tokenId}`).set('Authorization', `Bearer ${mallory.token}`);
    expect(d.status).toBe(404);
    expect(data(await app.gql(alice.token, '{ me { id } }'))['me'].id).toBe(alice.id);
  });

  it("refuses a player acting in the other side's turn", async () => {
    const v = await version(privateGame);
    const r = await app.gql(bob.token, 'mutation($g: ID!, $v: Int!) { submitPhase(input: { gameId: $g, expectedVersion: $v, orders: [], idempotencyKey: "bob-early" }) { version } }', { g: privateGame, v });
    expect(r.body.errors?.[0]?.extensions).toMatchObject({ code: 'CONFLICT', errorCode: 'game/not_your_turn', acting: ['A'] });
  });

  it('refuses a subscription to a game you are not in, and a connection with a bad or revoked token', async () => {
    const ws = wsClient(url, mallory.token);
    try {
      const sub = collect(ws, GAME_UPDATED, { g: undefined, id: privateGame, from: null });
      await waitFor(() => sub.completed || sub.results.length > 0 || !!sub.error, 'the refusal');
      await waitFor(() => sub.completed, 'the subscription to end');
      expect(sub.results).toHaveLength(1);
      expect(sub.results[0]!.data ?? null).toBeNull();
      expect(sub.results[0]!.errors?.[0]?.extensions).toMatchObject({ code: 'NOT_FOUND' });
    } finally {
      await ws.dispose();
    }
    for (const token of [revoked.token, 'fp_not-a-real-token', null]) {
      let closed: { code: number; reason: string } | null = null;
      const bad = wsClient(url, token, (e) => (closed = e));
      const sub = collect(bad, GAME_UPDATED, { id: privateGame, from: null });
      await waitFor(() => closed !== null || !!sub.error, 'the connection to be refused');
      expect(sub.results).toEqual([]);
      expect(closed!.code).toBe(4403);
      await bad.dispose();
    }
  });

  it('refuses the next subscription on a live connection once its token is revoked', async () => {
    const carol = await app.player('Carol');
    const own = data(await app.gql(carol.token, 'mutation { createGame(input: { scenarioId: "kernel-test", side: "A" }) { id } }'))['createGame'].id;
    let closed = false;
    const ws = wsClient(url, carol.token, () => (closed = true));
    try {
      // A subscription to her own game keeps the connection open.
      const first = collect(ws, 'subscription($id: ID!) { gameUpdated(gameId: $id) { version } }', { id: own });
      await waitFor(() => app.running.app.get(GameFeed).listening > 0, 'the first subscription');
      data(await app.gql(carol.token, `mutation { revokeApiToken(id: "${carol.tokenId}") { id } }`));
      const second = collect(ws, 'subscription($id: ID!) { gameUpdated(gameId: $id) { version } }', { id: privateGame });
      await waitFor(() => !!second.error || second.completed, 'the second refusal');
      expect(closed).toBe(false);
      const errors = (second.error ?? second.results[0]?.errors) as Array<{ extensions?: Record<string, unknown> }>;
      expect(errors[0]!.extensions).toMatchObject({ code: 'UNAUTHENTICATED' });
      first.dispose();
    } finally {
      await ws.dispose();
    }
  });

  it('lets a spectator subscribe to a game that allows spectators, with the public view only', async () => {
    const ws = wsClient(url, mallory.token);
    try {
      const before = await version(watchedGame);
      const sub = collect(ws, GAME_UPDATED, { id: watchedGame, from: before - 3 });
      await waitFor(() => sub.results.length > 0, 'the catch-up update');
      const u = sub.results[0]!.data!.gameUpdated;
      expect(u).toMatchObject({ fromVersion: before - 2, version: before, game: { mySide: null } });
      for (const s of script.secrets.strings) expect(JSON.stringify(u)).not.toContain(s);
      sub.dispose();
    } finally {
      await ws.dispose();
    }
  });
});
