import request from 'supertest';
import { apiApp, ApiApp, data, TestPlayer } from './support/api-app';

const WITHDRAW = 'mutation($g: ID!, $i: ID!) { withdrawInvitation(gameId: $g, invitationId: $i) { id status expiresAt } }';

/**
 * Withdrawing an invitation that had already ended (its seat taken by another invitation, or its
 * game over) moved its expiresAt to the withdrawal time, though "withdrawing an ended one changes
 * nothing".
 */
describe('withdrawing an invitation that has already ended', () => {
  let app: ApiApp;
  let alice: TestPlayer;
  let bob: TestPlayer;

  const as = (who: TestPlayer) => ({
    post: (url: string, body: object) => request(app.http).post(url).set('Authorization', `Bearer ${who.token}`).send(body),
    del: (url: string) => request(app.http).delete(url).set('Authorization', `Bearer ${who.token}`),
    get: (url: string) => request(app.http).get(url).set('Authorization', `Bearer ${who.token}`),
  });
  const newGame = async () => (await as(alice).post('/api/v1/games', { scenarioId: 'kernel-test', side: 'A' })).body.game.id as string;
  const invite = async (gameId: string) => (await as(alice).post(`/api/v1/games/${gameId}/invitations`, { side: 'B' })).body as { id: string; token: string };
  const listed = async (gameId: string, id: string) => (await as(alice).get(`/api/v1/games/${gameId}/invitations?limit=100`)).body.items.find((i: { id: string }) => i.id === id);

  beforeAll(async () => {
    app = await apiApp();
    [alice, bob] = [await app.player('Alice'), await app.player('Bob')];
  });
  afterAll(() => app.close());

  it('leaves one whose seat another invitation filled as it was, over REST and GraphQL', async () => {
    const gameId = await newGame();
    const used = await invite(gameId);
    const [viaRest, viaGql] = [await invite(gameId), await invite(gameId)];
    expect((await as(bob).post('/api/v1/join', { token: used.token })).status).toBe(200);
    const before = [await listed(gameId, viaRest.id), await listed(gameId, viaGql.id)];
    expect(before.map((i) => i.status)).toEqual(['ended', 'ended']);

    const rest = await as(alice).del(`/api/v1/games/${gameId}/invitations/${viaRest.id}`);
    expect(rest.status).toBe(200);
    expect([rest.body.status, rest.body.expiresAt]).toEqual(['ended', before[0].expiresAt]);
    const gql = data(await app.gql(alice.token, WITHDRAW, { g: gameId, i: viaGql.id })).withdrawInvitation;
    expect([gql.status, gql.expiresAt]).toEqual(['ended', before[1].expiresAt]);

    expect([await listed(gameId, viaRest.id), await listed(gameId, viaGql.id)]).toEqual(before);
  });

  it('leaves one of a game that has ended as it was', async () => {
    const gameId = await newGame();
    const inv = await invite(gameId);
    const version = (await as(alice).get(`/api/v1/games/${gameId}`)).body.version as number;
    expect((await as(alice).post(`/api/v1/games/${gameId}/resign`, { expectedVersion: version })).status).toBe(200);
    const before = await listed(gameId, inv.id);
    expect(before.status).toBe('ended');

    const rest = await as(alice).del(`/api/v1/games/${gameId}/invitations/${inv.id}`);
    expect([rest.status, rest.body.status, rest.body.expiresAt]).toEqual([200, 'ended', before.expiresAt]);
    expect(await listed(gameId, inv.id)).toEqual(before);
  });

  it('still ends one that is open', async () => {
    const gameId = await newGame();
    const inv = await invite(gameId);
    const gql = data(await app.gql(alice.token, WITHDRAW, { g: gameId, i: inv.id })).withdrawInvitation;
    expect(gql.status).toBe('ended');
    expect((await as(bob).post('/api/v1/join', { token: inv.token })).body.code).toBe('invitation/expired');
  });
});
