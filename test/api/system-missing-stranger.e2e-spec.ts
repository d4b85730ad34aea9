import request from 'supertest';
import { uniqueId } from '../support/database';
import { apiApp, ApiApp, data, firstError, TestPlayer } from './support/api-app';
import { openChallengesOf } from './support/open-challenges';
import { GraphqlClient } from './support/game-client';
import { GAME_OPERATIONS } from './support/game-operations';
import { kernelScript as script } from './support/kernel-script';
import { playScript } from './support/play-script';
import { collect, GAME_UPDATED, waitFor, wsClient } from './support/subscriptions';

/** Game operations over GraphQL besides those the authorization test refuses to strangers. */
const MORE_OPERATIONS = [
  { name: 'game.scenario', query: 'query($g: ID!) { game(id: $g) { scenario { id version } } }' },
  { name: 'game(atVersion)', query: 'query($g: ID!) { game(id: $g, atVersion: 1) { version view { units { id } } } }' },
  { name: 'addWebhookEndpoint(gameId)', query: 'mutation($g: ID!) { addWebhookEndpoint(url: "https://example.com/hook", gameId: $g) { secret } }' },
  { name: 'setDiscordWebhook(gameId)', query: 'mutation($g: ID!) { setDiscordWebhook(url: null, gameId: $g) { id } }' },
];

/**
 * The tester's finding: on a server whose catalog lacks a game's system, a player who may not see
 * the game was told "unavailable, played with game system X" where any other game they may not
 * see, and a game id nobody has, is "not found". Each answer to a stranger is compared with the
 * answer for a game id that does not exist, the id itself apart.
 */
describe('a game whose game system the server lacks, asked about by a player who may not see it', () => {
  let lacking: ApiApp;
  let url: string;
  let alice: TestPlayer;
  let bob: TestPlayer;
  let mallory: TestPlayer;
  const games = { active: '', seating: '', watched: '' };

  beforeAll(async () => {
    const full = await apiApp();
    try {
      [alice, bob, mallory] = [await full.player('Alice'), await full.player('Bob'), await full.player('Mallory')];
      games.active = (await playScript(new GraphqlClient(full, alice), new GraphqlClient(full, bob), script, 2)).gameId;
      games.watched = (await playScript(new GraphqlClient(full, alice), new GraphqlClient(full, bob), script, 2, { spectators: true })).gameId;
      games.seating = data(await full.gql(alice.token, 'mutation { createGame(input: { scenarioId: "kernel-test", side: "A" }) { id } }'))['createGame'].id;
      data(await full.gql(alice.token, 'mutation($g: ID!) { invite(input: { gameId: $g, side: "B", kind: OPEN }) { id } }', { g: games.seating }));
    } finally {
      await full.close();
    }
    // The same database, served without the kernel test system.
    lacking = await apiApp({ SUBSCRIPTION_POLL_MS: '50' }, { entries: [] });
    url = await lacking.listen();
  });
  afterAll(async () => {
    await lacking.close();
  });

  const answer = (body: unknown, gameId: string) => JSON.stringify(body).replaceAll(gameId, '<gameId>');

  it.each([...GAME_OPERATIONS, ...MORE_OPERATIONS].map((o) => [o.name, o] as const))('answers %s as for a game that does not exist', async (_name, op) => {
    const missing = uniqueId('game');
    for (const gameId of [games.active, games.seating]) {
      const seen = await lacking.gql(mallory.token, op.query, { g: gameId, v: 1 });
      const none = await lacking.gql(mallory.token, op.query, { g: missing, v: 1 });
      expect({ status: seen.status, body: answer(seen.body, gameId) }).toEqual({ status: none.status, body: answer(none.body, missing) });
      expect(firstError(seen).extensions).toMatchObject({ code: 'NOT_FOUND' });
    }
  });

  it('still tells a player who may see the game that its system is unavailable', async () => {
    for (const [who, gameId] of [[alice, games.active], [mallory, games.watched]] as const) {
      expect(firstError(await lacking.gql(who.token, 'query($g: ID!) { game(id: $g) { version } }', { g: gameId })).extensions).toMatchObject({
        code: 'SERVICE_UNAVAILABLE',
        errorCode: 'game/system_unavailable',
      });
    }
  });

  it('lets a seated player read and change their notification settings for the game, which need no system', async () => {
    const settings = 'query($g: ID!) { me { notificationSettings(gameId: $g) { gameId digest } } }';
    expect(data(await lacking.gql(alice.token, settings, { g: games.active }))['me'].notificationSettings).toMatchObject({ gameId: games.active });
    const changed = await lacking.gql(alice.token, 'mutation($g: ID!) { updateNotificationSettings(gameId: $g, input: { digest: true }) { digest } }', { g: games.active });
    expect(data(changed)['updateNotificationSettings']).toEqual({ digest: true });
    const rest = await request(lacking.http).patch(`/api/v1/me/notifications?gameId=${games.active}`).set('Authorization', `Bearer ${bob.token}`).send({ digest: true });
    expect({ status: rest.status, digest: rest.body.digest }).toEqual({ status: 200, digest: true });
    expect((await request(lacking.http).get(`/api/v1/me/notifications?gameId=${games.active}`).set('Authorization', `Bearer ${bob.token}`)).body).toMatchObject({ gameId: games.active, digest: true });
    // Watching is no seat, as when the system is there; a stranger is told the game is not there.
    expect(firstError(await lacking.gql(mallory.token, settings, { g: games.watched })).extensions).toMatchObject({ errorCode: 'game/not_seated' });
    expect(firstError(await lacking.gql(mallory.token, settings, { g: games.active })).extensions).toMatchObject({ code: 'NOT_FOUND', errorCode: 'game/not_found' });
  });

  it('leaves an open challenge\'s game null for a stranger, as it is when the system is there', async () => {
    expect(await openChallengesOf(lacking, mallory.token, games.seating, 'game { id }')).toEqual([{ gameId: games.seating, game: null }]);
  });

  it('refuses a subscription as for a game that does not exist', async () => {
    const missing = uniqueId('game');
    const ws = wsClient(url, mallory.token);
    try {
      const first = async (gameId: string) => {
        const sub = collect(ws, GAME_UPDATED, { id: gameId, from: null });
        await waitFor(() => sub.completed || !!sub.error, 'the refusal');
        return answer(sub.error ?? sub.results, gameId);
      };
      const seen = await first(games.active);
      expect(seen).toBe(await first(missing));
      expect(seen).toContain('NOT_FOUND');
    } finally {
      await ws.dispose();
    }
  });
});
