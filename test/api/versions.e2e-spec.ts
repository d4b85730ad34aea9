import request from 'supertest';
import { apiApp, ApiApp, data, TestPlayer } from './support/api-app';
import { kernelScript } from './support/kernel-script';

/** Versions at the edges: the largest a version may be, forged cursors, versions yet to come, a past from before a seat was taken. */
describe('versions at the edges', () => {
  let app: ApiApp;
  let alice: TestPlayer;
  let bob: TestPlayer;
  let gameId: string;
  let createdAt: number;
  beforeAll(async () => {
    app = await apiApp({}, { entries: [kernelScript.entry()] });
    alice = await app.player('Alice');
    bob = await app.player('Bob');
    ({ id: gameId, version: createdAt } = data(await app.gql(alice.token, 'mutation { createGame(input: { scenarioId: "kernel-test", side: "A" }) { id version } }'))['createGame']);
    const token = data(await app.gql(alice.token, 'mutation($g: ID!) { invite(input: { gameId: $g, side: "B" }) { token } }', { g: gameId }))['invite'].token;
    data(await app.gql(bob.token, 'mutation($t: String!) { joinGame(token: $t) { version } }', { t: token }));
  });
  afterAll(async () => {
    await app.close();
  });

  const get = (player: TestPlayer, path: string) => request(app.http).get(path).set('Authorization', `Bearer ${player.token}`);
  const cursor = (v: unknown) => Buffer.from(JSON.stringify(['history', [gameId, v]])).toString('base64url');

  it('history from the largest version there may be is refused as not reached yet, not an overflow; from the next version it is an empty page', async () => {
    for (const v of [2147483647, 2147483642]) {
      const res = await get(alice, `/api/v1/games/${gameId}/history?fromVersion=${v}`);
      expect({ status: res.status, code: res.body.code, field: res.body.field }).toEqual({ status: 400, code: 'game/no_such_version', field: 'fromVersion' });
    }
    const r = await app.gql(alice.token, 'query($g: ID!) { game(id: $g) { history(fromVersion: 2147483647) { nodes { version } } } }', { g: gameId });
    expect(r.body.errors?.[0]?.extensions?.['errorCode']).toBe('game/no_such_version');
    const next = ((await get(alice, `/api/v1/games/${gameId}`)).body.version as number) + 1;
    const page = await get(alice, `/api/v1/games/${gameId}/history?fromVersion=${next}`);
    expect({ status: page.status, events: page.body.events }).toEqual({ status: 200, events: [] });
    const g = await app.gql(alice.token, 'query($g: ID!, $v: Int) { game(id: $g) { history(fromVersion: $v) { nodes { version } } } }', { g: gameId, v: next });
    expect(data(g)['game'].history.nodes).toEqual([]);
  });

  it.each([3e9, 1e21])('a forged history cursor of %d is bad input (400), never a 500', async (v) => {
    const res = await get(alice, `/api/v1/games/${gameId}/history?cursor=${cursor(v)}`);
    expect(res.status).toBe(400);
    expect(res.body.code).toMatch(/bad_version|cursor/);
  });

  it("another game's history cursor is refused, not read as a place in this game's log", async () => {
    const other = data(await app.gql(alice.token, 'mutation { createGame(input: { scenarioId: "kernel-test", side: "A" }) { id } }'))['createGame'].id as string;
    const page = await get(alice, `/api/v1/games/${other}/history?limit=1`);
    expect(page.status).toBe(200);
    const handedOut = page.body.nextCursor as string;
    expect(typeof handedOut).toBe('string');
    // The same version exists here: only the cursor's game tells the two apart.
    const own = await get(alice, `/api/v1/games/${gameId}/history?fromVersion=2`);
    expect(own.body.events.length).toBeGreaterThan(0);
    const rest = await get(alice, `/api/v1/games/${gameId}/history?cursor=${handedOut}`);
    expect({ status: rest.status, code: rest.body.code }).toEqual({ status: 400, code: 'request/bad_cursor' });
    const gql = await app.gql(alice.token, 'query($g: ID!, $a: String) { game(id: $g) { history(after: $a) { nodes { version } } } }', { g: gameId, a: handedOut });
    expect(gql.body.errors?.[0]?.extensions?.['errorCode']).toBe('request/bad_cursor');
    const back = await get(alice, `/api/v1/games/${other}/history?cursor=${handedOut}`);
    expect(back.status).toBe(200);
  });

  // A page whose last version was the game's last said there was more (nextCursor, hasNextPage)
  // whenever it happened to hold exactly `limit` versions.
  it('a history page that ends at the last version is the last page, whatever its size', async () => {
    const current = (await get(alice, `/api/v1/games/${gameId}`)).body.version as number;
    const from = current - 2;
    const rest = await get(alice, `/api/v1/games/${gameId}/history?fromVersion=${from}&limit=3`);
    expect(rest.status).toBe(200);
    expect(rest.body.events.at(-1).version).toBe(current);
    expect(rest.body.nextCursor).toBeNull();
    const q = 'query($g: ID!, $f: Int, $n: Int) { game(id: $g) { history(fromVersion: $f, first: $n) { nodes { version } pageInfo { hasNextPage endCursor } } } }';
    const page = data(await app.gql(alice.token, q, { g: gameId, f: from, n: 3 }))['game'].history;
    expect(page.pageInfo.hasNextPage).toBe(false);
    // The end cursor still marks where to read on from once the game moves.
    const after = await get(alice, `/api/v1/games/${gameId}/history?cursor=${page.pageInfo.endCursor}`);
    expect([after.status, after.body.events, after.body.nextCursor]).toEqual([200, [], null]);
    const shorter = await get(alice, `/api/v1/games/${gameId}/history?fromVersion=${from}&limit=2`);
    expect(shorter.body.nextCursor).toBe(cursor(current));
  });

  it('a version the game has not reached is refused, naming the current one', async () => {
    const current = (await get(alice, `/api/v1/games/${gameId}`)).body.version as number;
    const res = await get(alice, `/api/v1/games/${gameId}?atVersion=${current + 1}`);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('game/no_such_version');
    expect(res.body.detail).toContain(`version ${current}`);
  });

  it('a player sees their side at a version from before they took their seat', async () => {
    const res = await get(bob, `/api/v1/games/${gameId}?atVersion=1`);
    expect(res.status).toBe(200);
    // Version 1 is the first event the creation wrote: the game as that commit left it.
    expect(res.body).toMatchObject({ version: createdAt, mySide: 'B' });
    expect(createdAt).toBeLessThan((await get(bob, `/api/v1/games/${gameId}`)).body.version);
    const stranger = await app.player('Eve');
    expect((await get(stranger, `/api/v1/games/${gameId}?atVersion=1`)).status).toBe(404);
  });

  // A board asked for inside a change shows the end of it, and did not say which version that was.
  it('a board view says the version it shows: the end of the change a past version is in, or the current one', async () => {
    expect(createdAt).toBeGreaterThan(1);
    const current = (await get(alice, `/api/v1/games/${gameId}`)).body.version as number;
    const rest = await get(alice, `/api/v1/games/${gameId}/view?atVersion=1`);
    expect([rest.status, rest.body.version]).toEqual([200, createdAt]);
    expect((await get(alice, `/api/v1/games/${gameId}/view`)).body.version).toBe(current);
    const gql = data(await app.gql(alice.token, 'query($g: ID!) { game(id: $g) { past: view(atVersion: 1) { version } now: view { version } } }', { g: gameId }))['game'];
    expect(gql).toEqual({ past: { version: createdAt }, now: { version: current } });
  });
});
