import request from 'supertest';
import { encodeCursor } from '../../src/api/graphql/pagination';
import { PrismaService } from '../../src/database/prisma.service';
import { apiApp, ApiApp, data, firstError, TestPlayer } from './support/api-app';
import { openChallengesOf } from './support/open-challenges';

const LIST = `query($g: ID!, $n: Int, $a: String) {
  gameInvitations(gameId: $g, first: $n, after: $a) { nodes { id status } edges { cursor } pageInfo { hasNextPage endCursor } }
}`;

/** A game's invitations came newest first, at most 200, with no way to the rest. */
describe("a game's invitations, page by page", () => {
  let app: ApiApp;
  let alice: TestPlayer;
  let eve: TestPlayer;
  let gameId: string;
  let evesGame: string;
  /** Every invitation of alice's game, in the order the list promises: newest first, then by id. */
  let expected: string[];

  const get = (who: TestPlayer, url: string) => request(app.http).get(url).set('Authorization', `Bearer ${who.token}`);
  const create = async (who: TestPlayer) => (await request(app.http).post('/api/v1/games').set('Authorization', `Bearer ${who.token}`).send({ scenarioId: 'kernel-test', side: 'A' })).body.game.id as string;

  beforeAll(async () => {
    app = await apiApp();
    [alice, eve] = [await app.player('Alice'), await app.player('Eve')];
    [gameId, evesGame] = [await create(alice), await create(eve)];
    // Made and withdrawn one by one: more than the 20 a game may have open at once.
    for (let i = 0; i < 9; i++) {
      const made = await request(app.http).post(`/api/v1/games/${gameId}/invitations`).set('Authorization', `Bearer ${alice.token}`).send({ side: 'B', kind: i % 2 ? 'open' : 'token' });
      expect(made.status).toBe(201);
      expect((await request(app.http).delete(`/api/v1/games/${gameId}/invitations/${made.body.id}`).set('Authorization', `Bearer ${alice.token}`)).status).toBe(200);
    }
    // Several made in the same millisecond: only their ids tell them apart.
    const prisma = app.running.app.get(PrismaService);
    const at = new Date('2026-01-02T03:04:05.678Z');
    for (const n of [3, 0, 7, 1, 6, 2, 5, 4]) {
      await prisma.invitation.create({ data: { id: `inv_tie_${n}_${gameId}`, gameId, side: 'B', kind: 'token', createdBy: alice.id, createdAt: at, expiresAt: at } });
    }
    await prisma.invitation.create({ data: { id: `inv_tie_9_${evesGame}`, gameId: evesGame, side: 'B', kind: 'token', createdBy: eve.id, createdAt: at, expiresAt: at } });
    const rows = await prisma.invitation.findMany({ where: { gameId } });
    expected = rows
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0))
      .map((r) => r.id);
    expect(expected).toHaveLength(17);
  });
  afterAll(() => app.close());

  it('hands every invitation out exactly once, in order, over REST', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    for (let page = 0; page < 10; page++) {
      const res = await get(alice, `/api/v1/games/${gameId}/invitations?limit=4${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`);
      expect(res.status).toBe(200);
      expect(res.body.items.length).toBeLessThanOrEqual(4);
      seen.push(...res.body.items.map((i: { id: string }) => i.id));
      cursor = res.body.nextCursor;
      if (cursor === null) break;
    }
    expect(seen).toEqual(expected);
    // 20 when no size is named.
    expect((await get(alice, `/api/v1/games/${gameId}/invitations`)).body).toMatchObject({ items: expect.any(Array), nextCursor: null });
    expect((await get(alice, `/api/v1/games/${gameId}/invitations`)).body.items).toHaveLength(17);
  });

  it('hands every invitation out exactly once, in order, over GraphQL', async () => {
    const seen: string[] = [];
    let after: string | null = null;
    for (let page = 0; page < 10; page++) {
      const p: { nodes: Array<{ id: string }>; edges: Array<{ cursor: string }>; pageInfo: { hasNextPage: boolean; endCursor: string | null } } = data(await app.gql(alice.token, LIST, { g: gameId, n: 5, a: after }))['gameInvitations'];
      expect(p.nodes.length).toBeLessThanOrEqual(5);
      expect(p.pageInfo.endCursor).toBe(p.edges.at(-1)?.cursor ?? null);
      seen.push(...p.nodes.map((n) => n.id));
      if (!p.pageInfo.hasNextPage) break;
      after = p.pageInfo.endCursor;
    }
    expect(seen).toEqual(expected);
  });

  it('refuses a cursor or page size it did not hand out, naming it, over both APIs', async () => {
    const forged = [
      'zzz',
      encodeCursor('challenges', 'inv_x'),
      encodeCursor('invitations', [gameId, 'not a time', 'inv_x']),
      encodeCursor('invitations', [gameId, '0000-01-01T00:00:00.000Z', 'inv_x']),
      encodeCursor('invitations', [gameId, 1, 'inv_x']),
      encodeCursor('invitations', { gameId }),
    ];
    for (const cursor of ['', ...forged]) {
      const res = await get(alice, `/api/v1/games/${gameId}/invitations?cursor=${encodeURIComponent(cursor)}`);
      expect([cursor, res.status, res.body.code]).toEqual([cursor, 400, 'request/bad_cursor']);
      expect([cursor, firstError(await app.gql(alice.token, LIST, { g: gameId, a: cursor })).extensions]).toEqual([cursor, expect.objectContaining({ code: 'BAD_USER_INPUT', errorCode: 'request/bad_cursor' })]);
    }
    for (const limit of ['0', '101', '-1']) expect((await get(alice, `/api/v1/games/${gameId}/invitations?limit=${limit}`)).body).toMatchObject({ status: 400, code: 'request/bad_page_size' });
    for (const limit of ['1e3', 'x', '']) expect((await get(alice, `/api/v1/games/${gameId}/invitations?limit=${limit}`)).body).toMatchObject({ status: 400, code: 'request/invalid' });
    for (const first of [0, 101]) expect(firstError(await app.gql(alice.token, LIST, { g: gameId, n: first })).extensions).toMatchObject({ code: 'BAD_USER_INPUT', errorCode: 'request/bad_page_size' });
  });

  it("lists no one else's invitations with a cursor of theirs", async () => {
    const cursor = (await get(alice, `/api/v1/games/${gameId}/invitations?limit=2`)).body.nextCursor as string;
    expect(cursor).toEqual(expect.any(String));
    // On the game it came from: the game is still not Eve's to see.
    expect((await get(eve, `/api/v1/games/${gameId}/invitations?cursor=${encodeURIComponent(cursor)}`)).body).toMatchObject({ status: 404, code: 'game/not_found' });
    expect(firstError(await app.gql(eve.token, LIST, { g: gameId, a: cursor })).extensions).toMatchObject({ code: 'NOT_FOUND', errorCode: 'game/not_found' });
    // On her own game: a cursor another game's list handed out.
    expect((await get(eve, `/api/v1/games/${evesGame}/invitations?cursor=${encodeURIComponent(cursor)}`)).body).toMatchObject({ status: 400, code: 'request/bad_cursor' });
    expect(firstError(await app.gql(eve.token, LIST, { g: evesGame, a: cursor })).extensions).toMatchObject({ code: 'BAD_USER_INPUT', errorCode: 'request/bad_cursor' });
    // Her own list holds her own game's invitation alone.
    expect((await get(eve, `/api/v1/games/${evesGame}/invitations`)).body).toEqual({ items: [expect.objectContaining({ id: `inv_tie_9_${evesGame}`, gameId: evesGame })], nextCursor: null });
  });
});

/** The open challenges were said to come newest first, but were sorted by their random ids. */
describe('open challenges, page by page', () => {
  let app: ApiApp;
  beforeAll(async () => {
    app = await apiApp();
  });
  afterAll(() => app.close());

  it('come newest first, each exactly once, over GraphQL and REST', async () => {
    const alice = await app.player('Alice');
    const made: string[] = [];
    for (let i = 0; i < 6; i++) {
      const game = (await request(app.http).post('/api/v1/games').set('Authorization', `Bearer ${alice.token}`).send({ scenarioId: 'kernel-test', side: 'A' })).body.game.id as string;
      const res = await request(app.http).post(`/api/v1/games/${game}/invitations`).set('Authorization', `Bearer ${alice.token}`).send({ side: 'B', kind: 'open' });
      expect(res.status).toBe(201);
      made.push(res.body.id as string);
    }
    const newestFirst = [...made].reverse();
    const ours = (ids: string[]) => ids.filter((id) => made.includes(id));
    // Other suites add challenges to the same database meanwhile: newer ones come before ours, never among them.
    const viaGraphql: string[] = [];
    let after: string | null = null;
    for (let page = 0; page < 100 && ours(viaGraphql).length < made.length; page++) {
      const r: { nodes: Array<{ id: string }>; pageInfo: { hasNextPage: boolean; endCursor: string | null } } = data(await app.gql(alice.token, 'query($a: String) { openChallenges(first: 2, after: $a) { nodes { id } pageInfo { hasNextPage endCursor } } }', { a: after }))['openChallenges'];
      viaGraphql.push(...r.nodes.map((n) => n.id));
      after = r.pageInfo.endCursor;
      if (!r.pageInfo.hasNextPage) break;
    }
    expect(ours(viaGraphql)).toEqual(newestFirst);
    expect(new Set(viaGraphql).size).toBe(viaGraphql.length);
    const viaRest: string[] = [];
    let cursor: string | null = null;
    for (let page = 0; page < 100 && ours(viaRest).length < made.length; page++) {
      const res: request.Response = await request(app.http).get(`/api/v1/invitations/open?limit=3${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`).set('Authorization', `Bearer ${alice.token}`);
      expect(res.status).toBe(200);
      viaRest.push(...res.body.items.map((i: { id: string }) => i.id));
      cursor = res.body.nextCursor;
      if (cursor === null) break;
    }
    expect(ours(viaRest)).toEqual(newestFirst);
  });

  it('say what game they seat you in, when the game shows strangers nothing else', async () => {
    const org = await app.player('Olga');
    const eve = await app.player('Eve');
    const created = await request(app.http).post('/api/v1/games').set('Authorization', `Bearer ${org.token}`).send({ scenarioId: 'kernel-test', side: 'A', title: 'Beach at dawn', settings: { deadlineHours: 48, spectators: false } });
    expect(created.status).toBe(201);
    const game = created.body.game.id as string;
    const made = await request(app.http).post(`/api/v1/games/${game}/invitations`).set('Authorization', `Bearer ${org.token}`).send({ side: 'B', kind: 'open' });
    const about = { id: made.body.id, gameId: game, side: 'B', title: 'Beach at dawn', scenarioId: 'kernel-test', organiserName: 'Olga', deadlineHours: 48 };
    expect(await openChallengesOf(app, eve.token, game, 'id side title scenarioId organiserName deadlineHours game { id }')).toEqual([{ ...about, game: null }]);
    let rest: request.Response = await request(app.http).get('/api/v1/invitations/open?limit=100').set('Authorization', `Bearer ${eve.token}`);
    const items = [...rest.body.items];
    while (rest.body.nextCursor !== null && !items.some((c: { id: string }) => c.id === made.body.id)) {
      rest = await request(app.http).get(`/api/v1/invitations/open?limit=100&cursor=${rest.body.nextCursor}`).set('Authorization', `Bearer ${eve.token}`);
      items.push(...rest.body.items);
    }
    expect(items.find((c: { id: string }) => c.id === made.body.id)).toEqual({ ...about, createdAt: expect.any(String), expiresAt: expect.any(String) });
  });
});
