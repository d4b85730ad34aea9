import { GamesApiService } from '../../src/api/games/games-api.service';
import { GameFeed } from '../../src/api/subscriptions/game-feed.service';
import { CreateGameHandler } from '../../src/games/commands/create-game.handler';
import { PlayerActionsHandler } from '../../src/games/commands/player-actions.handler';
import { apiApp, ApiApp } from './support/api-app';
import { serviceGame } from './support/service-game';
import { collect, waitFor, wsClient } from './support/subscriptions';
import { setupA, setupB } from '../support/kernel-game';

/**
 * The start of a subscription: a change committed while it opens must still reach it (the
 * resolver reads the game before the listener is in place), and one that fails to start must
 * leave nothing listening. The spies only add a commit, or a failed read, at those moments.
 */
describe('gameUpdated, as it starts', () => {
  let app: ApiApp;
  let url: string;
  beforeAll(async () => {
    app = await apiApp({ SUBSCRIPTION_POLL_MS: '50' });
    url = await app.listen();
  });
  afterAll(async () => {
    await app.close();
  });

  it('delivers a change committed between the resolver reading the game and the listener starting', async () => {
    const { nest: a, gameId, alice, bob, players, store, submit } = await serviceGame(app);
    await submit(alice, setupA);
    // Bob's setup commits right after the resolver has read the game (a few ms window in real life).
    const games = a.get(GamesApiService);
    const original = games.game.bind(games);
    const spy = jest.spyOn(games, 'game').mockImplementationOnce(async (...args) => {
      const g = await original(...args);
      await submit(bob, setupB());
      return g;
    });
    const ws = wsClient(url, players.alice.token);
    try {
      const sub = collect(ws, 'subscription($id: ID!) { gameUpdated(gameId: $id) { fromVersion version game { turn phase acting } } }', { id: gameId });
      await waitFor(() => a.get(GameFeed).listening === 1, 'the subscription');
      const now = await store.currentVersion(gameId);
      // The subscriber started before Bob's setup was visible: it must hear about it (it is now A's move).
      await waitFor(() => sub.results.length > 0, 'the update for Bob\'s setup', 3000);
      expect(sub.results[0]!.data!.gameUpdated.version).toBe(now);
      sub.dispose();
    } finally {
      spy.mockRestore();
      await ws.dispose();
    }
  });

  it('keeps an update built while the game ran free of its secrets, though the game ends before the update is read', async () => {
    const { nest: a, gameId, alice, bob, players, store, submit } = await serviceGame(app);
    await submit(alice, setupA);
    const games = a.get(GamesApiService);
    const original = games.game.bind(games);
    const ws = wsClient(url, players.alice.token);
    let spy: jest.SpyInstance | undefined;
    try {
      const sub = collect(ws, 'subscription($id: ID!) { gameUpdated(gameId: $id) { version events { type data } game { status view { units { id } } } } }', { id: gameId });
      await waitFor(() => a.get(GameFeed).listening === 1, 'the subscription');
      // The update for B's hidden setup is summarised while the game runs; B resigns right after.
      // Only a read past B's setup: the subscription's first look may still be reading the game
      // from before it (and delivers nothing then).
      const before = await store.currentVersion(gameId);
      let resigned = false;
      spy = jest.spyOn(games, 'game').mockImplementation(async (...args) => {
        const g = await original(...args);
        if (!resigned && g.version > before) {
          resigned = true;
          await a.get(PlayerActionsHandler).resign(gameId, await store.currentVersion(gameId), bob);
        }
        return g;
      });
      await submit(bob, setupB());
      await waitFor(() => sub.results.length > 0, 'the update for B\'s setup', 3000);
      const update = sub.results[0]!.data!.gameUpdated;
      expect(update.game.status).toBe('ACTIVE');
      expect(update.events.length).toBeGreaterThan(0);
      for (const hidden of ['b-inf-1', 'b-inf-2']) expect(JSON.stringify(update)).not.toContain(hidden);
      // Read afresh now, the ended game is the referee's replay: the secrets were there to leak.
      const after = await games.view(gameId, alice, update.version);
      expect(JSON.stringify(after)).toContain('b-inf-1');
      sub.dispose();
    } finally {
      spy?.mockRestore();
      await ws.dispose();
    }
  });

  it('forgets the listener of a subscription that failed to start', async () => {
    const a = app.running.app;
    const alice = await app.player('Carol');
    const { gameId } = await a.get(CreateGameHandler).execute({ scenarioId: 'kernel-test', side: 'A' }, alice.id);
    const feed = a.get(GameFeed);
    expect(feed.listening).toBe(0);
    // The log's head cannot be read once (the database blinks).
    const head = jest.spyOn(feed as unknown as { head(): Promise<unknown> }, 'head').mockRejectedValueOnce(new Error('connection reset'));
    const ws = wsClient(url, alice.token);
    try {
      const sub = collect(ws, 'subscription($id: ID!) { gameUpdated(gameId: $id) { version } }', { id: gameId });
      await waitFor(() => sub.completed || !!sub.error || sub.results.length > 0, 'the refusal');
      expect(sub.results[0]?.errors?.length ?? 1).toBeGreaterThan(0);
      // The client got an error and holds no subscription: nothing should be listening any more.
      expect(feed.listening).toBe(0);
    } finally {
      head.mockRestore();
      await ws.dispose();
    }
  });
  it('completes once the game has ended: after the update that ends it, and at once on an ended game with nothing after fromVersion', async () => {
    const { nest: a, gameId, alice, bob, players, store, submit } = await serviceGame(app);
    await submit(alice, setupA);
    await submit(bob, setupB());
    const ws = wsClient(url, players.alice.token);
    const query = 'subscription($id: ID!, $from: Int) { gameUpdated(gameId: $id, fromVersion: $from) { fromVersion version game { status } } }';
    try {
      const live = collect(ws, query, { id: gameId });
      await waitFor(() => a.get(GameFeed).listening === 1, 'the subscription');
      const before = await store.currentVersion(gameId);
      await a.get(PlayerActionsHandler).resign(gameId, before, bob);
      const ended = await store.currentVersion(gameId);
      await waitFor(() => live.completed, 'the subscription to complete', 5000);
      expect(live.error).toBeNull();
      expect(live.results.map((r) => r.data!.gameUpdated)).toEqual([{ fromVersion: before + 1, version: ended, game: { status: 'FINISHED' } }]);
      await waitFor(() => a.get(GameFeed).listening === 0, 'the listener to go');

      const none = collect(ws, query, { id: gameId });
      await waitFor(() => none.completed, 'the subscription on the ended game to complete', 5000);
      expect([none.results, none.error]).toEqual([[], null]);

      const rest = collect(ws, query, { id: gameId, from: before });
      await waitFor(() => rest.completed, 'the catch-up on the ended game to complete', 5000);
      expect(rest.results.map((r) => r.data!.gameUpdated.version)).toEqual([ended]);
      expect(a.get(GameFeed).listening).toBe(0);
    } finally {
      await ws.dispose();
    }
  });
});
