import request from 'supertest';
import { setupA, setupB } from '../support/kernel-game';
import { apiApp, ApiApp, data, TestPlayer } from './support/api-app';

const LIST = `query($f: MyGamesFilter, $n: Int, $a: String) {
  myGames(filter: $f, first: $n, after: $a) { nodes { id mySide awaitingMe status } pageInfo { hasNextPage endCursor } }
}`;

interface Listed { id: string; mySide: string | null; awaitingMe: boolean; status: string }

describe('myGames', () => {
  let app: ApiApp;
  let org: TestPlayer;
  let bob: TestPlayer;
  let carol: TestPlayer;

  beforeAll(async () => {
    app = await apiApp();
    [org, bob, carol] = [await app.player('Org'), await app.player('Bob'), await app.player('Carol')];
  });
  afterAll(() => app.close());

  const create = async (p: TestPlayer, side?: string) =>
    data(await app.gql(p.token, 'mutation($i: CreateGameInput!) { createGame(input: $i) { id } }', { i: { scenarioId: 'kernel-test', ...(side ? { side } : {}) } }))['createGame'].id as string;
  const seat = async (by: TestPlayer, gameId: string, side: string, who: TestPlayer) => {
    const token = data(await app.gql(by.token, 'mutation($i: InviteInput!) { invite(input: $i) { token } }', { i: { gameId, side } }))['invite'].token as string;
    data(await app.gql(who.token, 'mutation($t: String) { joinGame(token: $t) { gameId } }', { t: token }));
  };
  /** Every page of a player's list, `size` at a time. */
  const walk = async (p: TestPlayer, f: string, size: number): Promise<Listed[]> => {
    const all: Listed[] = [];
    let after: string | null = null;
    for (;;) {
      const page: { nodes: Listed[]; pageInfo: { hasNextPage: boolean; endCursor: string | null } } = data(await app.gql(p.token, LIST, { f, n: size, a: after }))['myGames'];
      expect(page.nodes.length).toBeLessThanOrEqual(size);
      all.push(...page.nodes);
      if (!page.pageInfo.hasNextPage) return all;
      after = page.pageInfo.endCursor;
    }
  };

  it("lists the games a player organises without a seat, as no side's and never awaiting them", async () => {
    const gameId = await create(org);
    expect((await walk(org, 'ALL', 10)).find((g) => g.id === gameId)).toEqual({ id: gameId, mySide: null, awaitingMe: false, status: 'SEATING' });
    await seat(org, gameId, 'A', bob);
    await seat(org, gameId, 'B', carol);
    expect((await walk(org, 'ACTIVE', 10)).map((g) => g.id)).toContain(gameId);
    expect((await walk(org, 'AWAITING', 10)).map((g) => g.id)).not.toContain(gameId);
    const rest = await request(app.http).get('/api/v1/games?filter=all').set('Authorization', `Bearer ${org.token}`);
    expect(rest.status).toBe(200);
    expect(rest.body.items).toEqual([expect.objectContaining({ id: gameId, mySide: null, awaitingMe: false })]);
  });

  it('awaits the player asked to answer an undo, until they answer it', async () => {
    const gameId = await create(bob, 'A');
    await seat(bob, gameId, 'B', carol);
    const version = async () => data(await app.gql(bob.token, 'query($g: ID!) { game(id: $g) { version } }', { g: gameId }))['game'].version as number;
    const submit = async (p: TestPlayer, orders: unknown) =>
      data(await app.gql(p.token, 'mutation($i: SubmitPhaseInput!) { submitPhase(input: $i) { version } }', { i: { gameId, expectedVersion: await version(), orders, idempotencyKey: `k${Math.random()}` } }));
    await submit(bob, setupA);
    await submit(carol, setupB());
    await submit(bob, [{ kind: 'move', unit: 'a-ship', path: ['0204'] }]); // A's attack phase is next: B does not act
    const awaitsCarol = async () => ({
      listed: (await walk(carol, 'AWAITING', 10)).some((g) => g.id === gameId),
      game: data(await app.gql(carol.token, 'query($g: ID!) { game(id: $g) { awaitingMe } }', { g: gameId }))['game'].awaitingMe as boolean,
      rest: ((await request(app.http).get('/api/v1/games?filter=awaiting').set('Authorization', `Bearer ${carol.token}`)).body.items as Listed[]).some((g) => g.id === gameId && g.awaitingMe),
    });
    expect(await awaitsCarol()).toEqual({ listed: false, game: false, rest: false });
    data(await app.gql(bob.token, 'mutation($g: ID!, $v: Int!) { proposeUndo(gameId: $g, expectedVersion: $v) { version } }', { g: gameId, v: await version() }));
    expect(await awaitsCarol()).toEqual({ listed: true, game: true, rest: true });
    // The proposer is not awaited by its own proposal (it still acts: its attack phase).
    expect(data(await app.gql(bob.token, 'query($g: ID!) { game(id: $g) { awaitingMe } }', { g: gameId }))['game'].awaitingMe).toBe(true);
    data(await app.gql(carol.token, 'mutation($g: ID!, $v: Int!) { declineUndo(gameId: $g, expectedVersion: $v) { version } }', { g: gameId, v: await version() }));
    expect(await awaitsCarol()).toEqual({ listed: false, game: false, rest: false });
  });

  it('pages through exactly the games awaiting the player, newest first, one at a time', async () => {
    const asA = [await create(bob, 'A'), await create(bob, 'A'), await create(carol, 'A')];
    const asB = [await create(bob, 'B'), await create(carol, 'B')];
    for (const g of asA) await seat(g === asA[2] ? carol : bob, g, 'B', g === asA[2] ? bob : carol);
    for (const g of asB) await seat(g === asB[0] ? bob : carol, g, 'A', g === asB[0] ? carol : bob);
    await create(bob, 'A'); // still seating: nobody awaits it
    const all = await walk(bob, 'ALL', 100);
    const awaitingBob = all.filter((g) => g.awaitingMe).map((g) => g.id);
    expect(awaitingBob.length).toBeGreaterThan(0);
    expect(awaitingBob.length).toBeLessThan(all.length);
    const paged = await walk(bob, 'AWAITING', 1);
    expect(paged.map((g) => g.id)).toEqual(awaitingBob);
    expect(paged.every((g) => g.awaitingMe && g.mySide !== null)).toBe(true);
  });
});
