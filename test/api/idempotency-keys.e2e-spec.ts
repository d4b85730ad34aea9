import request from 'supertest';
import { setupA } from '../support/kernel-game';
import { apiApp, ApiApp, data, firstError, TestPlayer } from './support/api-app';

describe('idempotency keys sent to the API', () => {
  let app: ApiApp;
  let alice: TestPlayer;
  let bob: TestPlayer;

  beforeAll(async () => {
    app = await apiApp();
    alice = await app.player('Alice');
    bob = await app.player('Bob');
  });
  afterAll(async () => {
    await app.close();
  });

  async function startedGame(): Promise<string> {
    const gameId = data(await app.gql(alice.token, 'mutation { createGame(input: { scenarioId: "kernel-test", side: "A" }) { id } }'))['createGame'].id as string;
    const token = data(await app.gql(alice.token, 'mutation($g: ID!) { invite(input: { gameId: $g, side: "B" }) { token } }', { g: gameId }))['invite'].token;
    data(await app.gql(bob.token, 'mutation($t: String!) { joinGame(token: $t) { version } }', { t: token }));
    return gameId;
  }
  const version = async (gameId: string) => data(await app.gql(alice.token, 'query($g: ID!) { game(id: $g) { version } }', { g: gameId }))['game'].version as number;

  // Keys are per player and per game: a client naming its keys after the phase ("my-setup") uses
  // the name again in its next game, and that is a new request there, not a retry. Within one
  // game, the key with another request is refused; the server held the game at that version (it
  // had just written it), so the key was first met by the event store, whose refusal named it as
  // stored: with the player's and the game's ids in front.
  it('a key used in one game is a new key in another; reused in its own game with another request it is refused naming the key as sent, over REST and GraphQL, and writes nothing', async () => {
    const first = await startedGame();
    const second = await startedGame();
    const sent = await request(app.http).post(`/api/v1/games/${first}/phases`).set('Authorization', `Bearer ${alice.token}`).send({ expectedVersion: await version(first), orders: setupA, idempotencyKey: 'my-setup' });
    expect(sent.status).toBe(200);
    const elsewhere = await request(app.http).post(`/api/v1/games/${second}/phases`).set('Authorization', `Bearer ${alice.token}`).send({ expectedVersion: await version(second), orders: setupA, idempotencyKey: 'my-setup' });
    expect({ status: elsewhere.status, replayed: elsewhere.body.version === sent.body.version && elsewhere.body.gameId === sent.body.gameId }).toEqual({ status: 200, replayed: false });
    expect(await version(second)).toBeGreaterThan(0);

    const before = await version(first);
    const rest = await request(app.http).post(`/api/v1/games/${first}/phases`).set('Authorization', `Bearer ${alice.token}`).send({ expectedVersion: before, orders: [], idempotencyKey: 'my-setup' });
    expect(rest.status).toBe(400);
    expect(rest.body).toMatchObject({ code: 'request/idempotency_key_reused', detail: 'Idempotency key "my-setup" was already used for a different request.' });
    const gql = firstError(
      await app.gql(alice.token, 'mutation($i: SubmitPhaseInput!) { submitPhase(input: $i) { version } }', { i: { gameId: first, expectedVersion: before, orders: [], idempotencyKey: 'my-setup' } }),
    );
    expect(gql).toMatchObject({ message: 'Idempotency key "my-setup" was already used for a different request.', extensions: { code: 'BAD_USER_INPUT', errorCode: 'request/idempotency_key_reused' } });
    expect(JSON.stringify([rest.body, gql])).not.toContain(alice.id);
    expect(JSON.stringify([rest.body, gql])).not.toContain(`${first}:my-setup`);
    expect(await version(first)).toBe(before);
  });

  // The body's key won in silence: a client whose two layers set different keys would not learn
  // that its retries were keyed by one of them only.
  it('a body and an Idempotency-Key header naming different keys are refused, and nothing is written', async () => {
    const gameId = await startedGame();
    const before = await version(gameId);
    const both = await request(app.http)
      .post(`/api/v1/games/${gameId}/phases`)
      .set('Authorization', `Bearer ${alice.token}`)
      .set('Idempotency-Key', 'from-header')
      .send({ expectedVersion: before, orders: setupA, idempotencyKey: 'from-body' });
    expect(both.status).toBe(400);
    expect(both.body).toMatchObject({ code: 'request/idempotency_key', field: 'idempotencyKey' });
    expect(both.body.detail).toContain('differ');
    expect(await version(gameId)).toBe(before);
    const same = await request(app.http)
      .post(`/api/v1/games/${gameId}/phases`)
      .set('Authorization', `Bearer ${alice.token}`)
      .set('Idempotency-Key', 'both-places')
      .send({ expectedVersion: before, orders: setupA, idempotencyKey: 'both-places' });
    expect(same.status).toBe(200);
  });

  // Node joins a header sent twice into one value ("a, b"), which was then taken as the key: a
  // retry sending the header once named another key, and the phase went in twice.
  it.each([
    ['two different keys', ['key-one', 'key-two']],
    ['the same key twice', ['key-same', 'key-same']],
  ])('an Idempotency-Key header sent more than once (%s) is refused naming the header, and nothing is written', async (_name, keys) => {
    const gameId = await startedGame();
    const before = await version(gameId);
    const twice = await request(app.http)
      .post(`/api/v1/games/${gameId}/phases`)
      .set('Authorization', `Bearer ${alice.token}`)
      // An array goes out as one header line per value.
      .set({ 'Idempotency-Key': keys })
      .send({ expectedVersion: before, orders: setupA });
    expect(twice.status).toBe(400);
    expect(twice.body).toMatchObject({ status: 400, code: 'http/repeated_header', field: 'Idempotency-Key' });
    expect(twice.body.detail).toContain('Idempotency-Key');
    expect(await version(gameId)).toBe(before);
    const once = await request(app.http).post(`/api/v1/games/${gameId}/phases`).set('Authorization', `Bearer ${alice.token}`).set('Idempotency-Key', keys[0]!).send({ expectedVersion: before, orders: setupA });
    expect(once.status).toBe(200);
  });
});
