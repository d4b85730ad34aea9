import { GameFeed } from '../../src/api/subscriptions/game-feed.service';
import { EventStore } from '../../src/event-store/event-store.service';
import { apiApp, ApiApp, data } from './support/api-app';
import { GraphqlClient } from './support/game-client';
import { kernelScript as script } from './support/kernel-script';
import { playScript } from './support/play-script';
import { collect, waitFor, wsClient } from './support/subscriptions';

describe('gameUpdated across server instances', () => {
  let one: ApiApp;
  let two: ApiApp;
  let url: string;
  beforeAll(async () => {
    one = await apiApp({ SUBSCRIPTION_POLL_MS: '100' });
    two = await apiApp({ SUBSCRIPTION_POLL_MS: '100' });
    url = await one.listen();
  });
  afterAll(async () => {
    await one.close();
    await two.close();
  });

  it('delivers on one instance what was played on another, following the event log', async () => {
    const alice = await one.player('Alice');
    const bob = await one.player('Bob');
    // Players and tokens live in the shared database: instance two accepts them too.
    const played = await playScript(new GraphqlClient(two, alice), new GraphqlClient(two, bob), script, 2);
    const ws = wsClient(url, alice.token);
    try {
      const sub = collect(ws, 'subscription($id: ID!) { gameUpdated(gameId: $id) { version events { type } game { turn phase acting } } }', { id: played.gameId });
      await waitFor(() => one.running.app.get(GameFeed).listening === 1, 'the subscription');
      const c = new GraphqlClient(two, alice);
      const v = (await c.game(played.gameId)).version;
      const r = await c.submit(played.gameId, v, 'orders', script.steps[2]!.orders, `x-${played.gameId}`);
      expect(r.ok).toBe(true);
      await waitFor(() => sub.results.length > 0, 'the update on instance one');
      const u = sub.results[0]!.data!.gameUpdated;
      expect(u.version).toBe((r as { version: number }).version);
      expect(u.events.map((e: { type: string }) => e.type)).toContain('UnitMoved');
      sub.dispose();
      await waitFor(() => one.running.app.get(GameFeed).listening === 0, 'the subscription to end');
    } finally {
      await ws.dispose();
    }
  });

  it("tells the other side nothing when a side sets, replaces or clears its standing orders", async () => {
    const alice = await one.player('Alice');
    const bob = await one.player('Bob');
    const played = await playScript(new GraphqlClient(one, alice), new GraphqlClient(one, bob), script, 2);
    const ws = wsClient(url, alice.token);
    try {
      const sub = collect(ws, 'subscription($id: ID!) { gameUpdated(gameId: $id) { version events { type } } }', { id: played.gameId });
      await waitFor(() => one.running.app.get(GameFeed).listening === 1, 'the subscription');
      const b = new GraphqlClient(one, bob);
      const v = (await b.game(played.gameId)).version;
      for (const [i, orders] of [{ 'landing-fire': 'all' }, { 'landing-fire': 'none' }, {}].entries()) {
        expect(await b.submit(played.gameId, v, 'standing-orders', orders, `so-${i}-${played.gameId}`)).toMatchObject({ ok: true, version: v });
      }
      // Several polls of the log go by: an update for B's orders would have come by now.
      await new Promise((r) => setTimeout(r, 500));
      const r = await new GraphqlClient(one, alice).submit(played.gameId, v, 'orders', script.steps[2]!.orders, `x-${played.gameId}`);
      await waitFor(() => sub.results.length > 0, 'the update for A\'s orders');
      expect(sub.results.map((x) => x.data!.gameUpdated.version)).toEqual([(r as { version: number }).version]);
      sub.dispose();
      await waitFor(() => one.running.app.get(GameFeed).listening === 0, 'the subscription to end');
    } finally {
      await ws.dispose();
    }
  });

  it('follows the log once per process, however many subscriptions there are', async () => {
    const players = await Promise.all(['P1', 'P2', 'P3', 'P4'].map((n) => one.player(n)));
    const games: string[] = [];
    for (const p of players) games.push(data(await one.gql(p.token, 'mutation { createGame(input: { scenarioId: "kernel-test", side: "A" }) { id } }'))['createGame'].id as string);
    const store = one.running.app.get(EventStore);
    const readAll = jest.spyOn(store, 'readAll');
    const clients = players.map((p) => wsClient(url, p.token));
    try {
      const subs = clients.map((c, i) => collect(c, 'subscription($id: ID!) { gameUpdated(gameId: $id) { version } }', { id: games[i] }));
      await waitFor(() => one.running.app.get(GameFeed).listening === 4, 'four subscriptions');
      readAll.mockClear();
      await new Promise((r) => setTimeout(r, 1000));
      // One follower polling every 100 ms reads about ten times a second; four would read forty.
      expect(readAll.mock.calls.length).toBeGreaterThan(0);
      expect(readAll.mock.calls.length).toBeLessThanOrEqual(14);
      subs.forEach((s) => s.dispose());
    } finally {
      readAll.mockRestore();
      await Promise.all(clients.map((c) => c.dispose()));
    }
  });
});

describe('gameUpdated after its token is revoked', () => {
  let app: ApiApp;
  let url: string;
  beforeAll(async () => {
    app = await apiApp({ SUBSCRIPTION_POLL_MS: '100' });
    url = await app.listen();
  });
  afterAll(async () => {
    await app.close();
  });

  // A leaked token, revoked, went on streaming the game to whoever held its open subscription.
  it('delivers no further update: the next one ends the subscription with UNAUTHENTICATED', async () => {
    const alice = await app.player('Alice');
    const bob = await app.player('Bob');
    const played = await playScript(new GraphqlClient(app, alice), new GraphqlClient(app, bob), script, 2);
    const second = data(await app.gql(alice.token, 'mutation { createApiToken(name: "phone") { token apiToken { id } } }'))['createApiToken'];
    const ws = wsClient(url, second.token as string);
    try {
      const sub = collect(ws, 'subscription($id: ID!) { gameUpdated(gameId: $id) { version } }', { id: played.gameId });
      await waitFor(() => app.running.app.get(GameFeed).listening === 1, 'the subscription');
      data(await app.gql(alice.token, `mutation { revokeApiToken(id: "${second.apiToken.id as string}") { revokedAt } }`));
      const c = new GraphqlClient(app, alice);
      const r = await c.submit(played.gameId, (await c.game(played.gameId)).version, 'orders', script.steps[2]!.orders, `x-${played.gameId}`);
      expect(r.ok).toBe(true);
      await waitFor(() => sub.error !== null || sub.results.length > 0, 'the subscription to answer the change');
      expect(sub.results).toEqual([]);
      expect(sub.error).toEqual([expect.objectContaining({ extensions: expect.objectContaining({ code: 'UNAUTHENTICATED' }) })]);
      await waitFor(() => app.running.app.get(GameFeed).listening === 0, 'the subscription to end');
    } finally {
      await ws.dispose();
    }
  });
});
