import { GamesApiService } from '../../src/api/games/games-api.service';
import { GameFeed } from '../../src/api/subscriptions/game-feed.service';
import { GameUpdates } from '../../src/api/subscriptions/game-updates';
import { apiApp, ApiApp } from './support/api-app';
import { serviceGame } from './support/service-game';
import { waitFor } from './support/subscriptions';
import { setupA, setupB } from '../support/kernel-game';

/**
 * A subscription whose update cannot be built (the database blinks) while its consumer is busy
 * sending the previous one: the consumer is not waiting, so the failure has to be kept for it.
 * The stream is driven directly, so that nobody asks for the next update until the test does.
 */
describe('gameUpdated, when building an update fails', () => {
  let app: ApiApp;
  beforeAll(async () => {
    app = await apiApp({ SUBSCRIPTION_POLL_MS: '50' });
  });
  afterAll(async () => {
    await app.close();
  });

  it('still delivers the updates already built, then ends with the error instead of a normal completion', async () => {
    const { nest, gameId, alice, bob, store, submit } = await serviceGame(app);
    const games = nest.get(GamesApiService);
    const feed = nest.get(GameFeed);
    const read = jest.spyOn(games, 'game');
    const history = jest.spyOn(games, 'history');
    const updates = await GameUpdates.open(feed, games, gameId, alice, await store.currentVersion(gameId), async () => undefined);
    try {
      await submit(alice, setupA);
      const built = await store.currentVersion(gameId);
      await waitFor(() => history.mock.calls.length === 1, 'the update for A\'s setup to be built');
      await new Promise((r) => setTimeout(r, 50));
      read.mockRejectedValueOnce(new Error('connection reset'));
      const calls = read.mock.calls.length;
      await submit(bob, setupB());
      await waitFor(() => read.mock.calls.length > calls, 'the failing build');
      await waitFor(() => feed.listening === 0, 'the failed stream to stop listening');

      const first = await updates.next();
      expect(first.done).toBe(false);
      expect(first.value).toMatchObject({ gameId, version: built });
      await expect(updates.next()).rejects.toThrow('connection reset');
      expect(await updates.next()).toEqual({ value: undefined, done: true });
    } finally {
      read.mockRestore();
      history.mockRestore();
      await updates.return();
    }
  });
});
