import request from 'supertest';
import type { CatalogEntry } from '../../src/games/game-catalog';
import { uniqueId } from '../support/database';
import { movedKernelEntry, redrawnKernelEntry } from '../support/edited-scenario';
import { kernelTestEntry } from '../support/games-harness';
import { setupA, setupB } from '../support/kernel-game';
import { apiApp, ApiApp, data, firstError, TestPlayer } from './support/api-app';

type Hexes = Array<{ hex: string; terrain: string }>;

/**
 * The tester's finding: after a scenario's files were edited, moved or removed and the server
 * restarted, a game created before showed the new map (and checked hexes against it), or could
 * not be read at all, while its rules played on the data it recorded. Each test runs the app
 * again over the same database with another catalog.
 */
describe('a game over the API keeps the scenario it was created with', () => {
  let alice: TestPlayer;
  let bob: TestPlayer;
  let gameId: string;
  let recorded: { version: string; name: string; hexes: Hexes };

  async function withApp(entries: CatalogEntry[], fn: (app: ApiApp) => Promise<void>) {
    const app = await apiApp({}, { entries });
    try {
      await fn(app);
    } finally {
      await app.close();
    }
  }
  const get = (app: ApiApp, who: TestPlayer, path: string) => request(app.http).get(path).set('Authorization', `Bearer ${who.token}`);
  const post = (app: ApiApp, who: TestPlayer, path: string, body: object) => request(app.http).post(path).set('Authorization', `Bearer ${who.token}`).send(body);
  const version = async (app: ApiApp) => (await get(app, alice, `/api/v1/games/${gameId}`)).body.version as number;
  const submit = async (app: ApiApp, who: TestPlayer, orders: unknown) =>
    post(app, who, `/api/v1/games/${gameId}/phases`, { expectedVersion: await version(app), orders, idempotencyKey: uniqueId('k') });
  const gameQuery = `query($g: ID!) { game(id: $g) { scenarioName
    view { map { hexes { hex terrain } } }
    scenario { id version name map { hexes { hex terrain } } } } }`;

  beforeAll(async () => {
    await withApp([kernelTestEntry()], async (app) => {
      alice = await app.player('Alice');
      bob = await app.player('Bob');
      gameId = data(await app.gql(alice.token, 'mutation { createGame(input: { scenarioId: "kernel-test", side: "A" }) { id } }'))['createGame'].id;
      const token = data(await app.gql(alice.token, 'mutation($g: ID!) { invite(input: { gameId: $g, side: "B" }) { token } }', { g: gameId }))['invite'].token;
      data(await app.gql(bob.token, 'mutation($t: String!) { joinGame(token: $t) { version } }', { t: token }));
      expect((await submit(app, alice, setupA)).status).toBe(200);
      expect((await submit(app, bob, setupB())).status).toBe(200);
      const offered = (await request(app.http).get('/api/v1/scenarios/kernel-test')).body;
      recorded = { version: offered.version, name: offered.name, hexes: offered.map.hexes };
      expect((await get(app, alice, `/api/v1/games/${gameId}/view`)).body.map.hexes).toEqual(recorded.hexes);
    });
  });

  it('shows the recorded map, and checks a target hex against it, after the scenario\'s map was redrawn', async () => {
    await withApp([redrawnKernelEntry()], async (app) => {
      const offered = (await request(app.http).get('/api/v1/scenarios/kernel-test')).body;
      expect(offered.map.hexes).not.toEqual(recorded.hexes);

      expect((await get(app, alice, `/api/v1/games/${gameId}/view`)).body.map.hexes).toEqual(recorded.hexes);
      const game = data(await app.gql(alice.token, gameQuery, { g: gameId }))['game'];
      expect(game.view.map.hexes).toEqual(recorded.hexes);
      expect(game.scenarioName).toBe(recorded.name);
      expect(game.scenario).toEqual({ id: 'kernel-test', version: recorded.version, name: recorded.name, map: { hexes: recorded.hexes } });

      // 1201 is on the recorded map and off the redrawn one; 1109 the other way round.
      const options = (hex: string) => get(app, alice, `/api/v1/games/${gameId}/units/a-ship/options?targetHex=${hex}`);
      expect((await options('1201')).status).toBe(200);
      expect((await options('1109')).body).toMatchObject({ status: 400, code: 'request/bad_hex' });
      const gqlOptions = (hex: string) => app.gql(alice.token, 'query($g: ID!, $h: String) { game(id: $g) { options(unitId: "a-ship", targetHex: $h) { unitId } } }', { g: gameId, h: hex });
      expect(data(await gqlOptions('1201'))['game'].options.unitId).toBe('a-ship');
      expect(firstError(await gqlOptions('1109')).extensions).toMatchObject({ errorCode: 'request/bad_hex' });
    });
  });

  it('is read, listed, played, ended, replayed and exported once no scenario on offer has its id', async () => {
    await withApp([movedKernelEntry()], async (app) => {
      expect((await get(app, alice, `/api/v1/games/${gameId}`)).body).toMatchObject({ scenarioId: 'kernel-test', scenarioName: recorded.name, status: 'active' });
      expect((await get(app, bob, '/api/v1/games?filter=active')).body.items.map((g: { id: string }) => g.id)).toContain(gameId);
      const moved = await submit(app, alice, [{ kind: 'move', unit: 'a-ship', path: ['0204'] }]);
      expect(moved.status).toBe(200);
      const movedAt = moved.body.version as number;
      expect((await post(app, alice, `/api/v1/games/${gameId}/resign`, { expectedVersion: await version(app) })).status).toBe(200);

      const doc = (await get(app, bob, `/api/v1/games/${gameId}/export`)).body;
      expect(doc.scenario).toEqual({ id: 'kernel-test', version: recorded.version, system: 'kernel-test', name: recorded.name });
      const replay = (await get(app, bob, `/api/v1/games/${gameId}/view?atVersion=${movedAt}`)).body;
      expect(replay.game.version).toBe(movedAt);
      expect(replay.map.hexes).toEqual(recorded.hexes);
      expect(data(await app.gql(bob.token, gameQuery, { g: gameId }))['game'].scenario).toMatchObject({ version: recorded.version, map: { hexes: recorded.hexes } });
    });
  });

  it('is refused as unavailable, naming the game system, while the server lacks that system', async () => {
    await withApp([], async (app) => {
      const rest = await get(app, alice, `/api/v1/games/${gameId}/view`);
      expect(rest.body).toMatchObject({ status: 503, code: 'game/system_unavailable', systemId: 'kernel-test' });
      expect(firstError(await app.gql(alice.token, gameQuery, { g: gameId })).extensions).toMatchObject({ code: 'SERVICE_UNAVAILABLE', errorCode: 'game/system_unavailable' });
    });
  });
});
