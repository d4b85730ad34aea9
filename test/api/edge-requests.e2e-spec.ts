import request from 'supertest';
import { apiApp, ApiApp, data, firstError, TestPlayer } from './support/api-app';
import { GraphqlClient } from './support/game-client';
import { kernelScript as script } from './support/kernel-script';
import { playScript } from './support/play-script';

/** Requests at the edges of what the API documents: an organiser without a seat, a reaction with none asked, a bad history start. */
describe('edge requests', () => {
  let app: ApiApp;
  let alice: TestPlayer;
  let bob: TestPlayer;
  let gameId: string;
  beforeAll(async () => {
    app = await apiApp();
    alice = await app.player('Alice');
    bob = await app.player('Bob');
    // A to move, no reaction pending.
    gameId = (await playScript(new GraphqlClient(app, alice), new GraphqlClient(app, bob), script, 2)).gameId;
  });
  afterAll(async () => {
    await app.close();
  });
  const version = async () => data(await app.gql(alice.token, 'query($g: ID!) { game(id: $g) { version } }', { g: gameId }))['game'].version as number;

  it('an organiser who takes no seat gets the game back, sees its public view and invites its players', async () => {
    const organiser = await app.player('Olga');
    const made = data(await app.gql(organiser.token, 'mutation { createGame(input: { scenarioId: "kernel-test", title: "organised" }) { id mySide seats { side playerId } } }'))['createGame'];
    expect(made).toMatchObject({ mySide: null, seats: [{ side: 'A', playerId: null }, { side: 'B', playerId: null }] });
    const rest = await request(app.http).post('/api/v1/games').set('Authorization', `Bearer ${organiser.token}`).send({ scenarioId: 'kernel-test' });
    expect(rest.status).toBe(201);
    expect(rest.body.game).toMatchObject({ mySide: null, status: 'seating' });
    const invite = data(await app.gql(organiser.token, 'mutation($g: ID!) { invite(input: { gameId: $g, side: "A" }) { token } }', { g: made.id }))['invite'];
    expect(invite.token).toEqual(expect.any(String));
    // Someone else still learns nothing of it.
    const eve = await app.player('Eve');
    expect(firstError(await app.gql(eve.token, 'query($g: ID!) { game(id: $g) { id } }', { g: made.id })).extensions).toMatchObject({ errorCode: 'game/not_found' });
  });

  it('no API answer may be stored by a browser or proxy: new tokens, invitations, views and refusals alike', async () => {
    const token = await request(app.http).post('/api/v1/me/tokens').set('Authorization', `Bearer ${alice.token}`).send({ name: 'cache test' });
    expect(token.body.token).toMatch(/^fp_/);
    const game = data(await app.gql(alice.token, 'mutation { createGame(input: { scenarioId: "kernel-test", side: "A" }) { id } }'))['createGame'].id;
    const invitation = await request(app.http).post(`/api/v1/games/${game}/invitations`).set('Authorization', `Bearer ${alice.token}`).send({ side: 'B' });
    expect(invitation.body.token).toEqual(expect.any(String));
    const view = await request(app.http).get(`/api/v1/games/${gameId}/view`).set('Authorization', `Bearer ${alice.token}`);
    const gql = await request(app.http).post('/graphql').set('Authorization', `Bearer ${alice.token}`).send({ query: 'mutation { createApiToken(name: "cache test 2") { token } }' });
    const refused = await request(app.http).get('/api/v1/games/nope').set('Authorization', `Bearer ${alice.token}`);
    expect([token, invitation, view, gql, refused].map((r) => [r.status, r.headers['cache-control']])).toEqual([[201, 'no-store'], [201, 'no-store'], [200, 'no-store'], [200, 'no-store'], [404, 'no-store']]);
  });

  it('a path whose percent-escapes are not UTF-8 is refused as a bad path, and names the path', async () => {
    const r = await request(app.http).get('/api/v1/games/a%ED%A0%80b').set('Authorization', `Bearer ${alice.token}`);
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ code: 'http/bad_path', field: 'path' });
    expect(r.body.detail).toMatch(/percent-escape/);
    // The refused escape is not echoed back as text that is not Unicode.
    expect(JSON.stringify(r.body)).not.toContain('\\ud800');
  });

  it('a reaction sent when none is asked for says so', async () => {
    const before = await version();
    const r = await app.gql(alice.token, 'mutation($input: SubmitReactionInput!) { submitReaction(input: $input) { version } }', {
      input: { gameId, expectedVersion: before, answer: { attackers: [] }, idempotencyKey: 'no-window' },
    });
    const e = firstError(r);
    expect(e.extensions).toMatchObject({ errorCode: 'game/no_reaction' });
    expect(e.message).toMatch(/No reaction is being asked for now; waiting for A \(your side: send orders\)/);
    expect(await version()).toBe(before);
  });

  it('names fromVersion when history starts out of range', async () => {
    const r = await app.gql(alice.token, 'query($g: ID!) { game(id: $g) { history(fromVersion: 0) { nodes { version } } } }', { g: gameId });
    expect(firstError(r).extensions).toMatchObject({ errorCode: 'request/bad_version', field: 'fromVersion' });
  });
});
