import WebSocket from 'ws';
import { GameFeed } from '../../src/api/subscriptions/game-feed.service';
import { apiApp, ApiApp, data } from './support/api-app';
import { collect, GAME_UPDATED, waitFor, wsClient } from './support/subscriptions';

describe('open subscription connections per player', () => {
  let app: ApiApp;
  let url: string;
  beforeAll(async () => {
    app = await apiApp({ WS_CONNECTIONS_PER_PLAYER: '2', WS_OPERATIONS_PER_CONNECTION: '3', SUBSCRIPTION_POLL_MS: '100', API_MAX_BODY_BYTES: '65536' });
    url = await app.listen();
  });
  afterAll(async () => {
    await app.close();
  });

  it('closes a connection beyond WS_CONNECTIONS_PER_PLAYER with 1008, counts per player, and frees a place when one closes', async () => {
    const dana = await app.player('Dana');
    const erik = await app.player('Erik');
    const gameOf = async (token: string) => data(await app.gql(token, 'mutation { createGame(input: { scenarioId: "kernel-test", side: "A" }) { id } }'))['createGame'].id as string;
    const danas = await gameOf(dana.token);
    const eriks = await gameOf(erik.token);
    const feed = app.running.app.get(GameFeed);
    const open = (token: string, game = danas) => {
      const state: { closed: { code: number; reason: string } | null } = { closed: null };
      const client = wsClient(url, token, (e) => (state.closed = e));
      const sub = collect(client, GAME_UPDATED, { id: game, from: null });
      return { client, sub, state };
    };

    const first = open(dana.token);
    const second = open(dana.token);
    await waitFor(() => feed.listening === 2, 'two subscriptions');
    const third = open(dana.token);
    await waitFor(() => third.state.closed !== null, 'the third connection to be closed');
    expect(third.state.closed!.code).toBe(1008);
    expect(third.state.closed!.reason).toContain('At most 2 open connections');
    expect(third.sub.results).toEqual([]);
    expect(feed.listening).toBe(2);

    // Another player is counted on their own.
    const other = open(erik.token, eriks);
    await waitFor(() => feed.listening === 3, "the other player's subscription");
    expect(other.state.closed).toBeNull();

    await first.client.dispose();
    await waitFor(() => feed.listening === 2, 'the first connection to close');
    const again = open(dana.token);
    await waitFor(() => feed.listening === 3, 'a new connection in the freed place');
    expect(again.state.closed).toBeNull();

    for (const c of [second, third, other, again]) await c.client.dispose();
  });

  // A socket closed while its token was being checked was counted after graphql-ws had already
  // run onClose for it: twenty such sockets locked the player out until the server restarted.
  it('frees the place of a connection closed before it was acknowledged', async () => {
    const gus = await app.player('Gus');
    const game = data(await app.gql(gus.token, 'mutation { createGame(input: { scenarioId: "kernel-test", side: "A" }) { id } }'))['createGame'].id as string;
    const wsUrl = url.replace(/^http/, 'ws');
    for (let i = 0; i < 20; i++) {
      const ws = new WebSocket(wsUrl, 'graphql-transport-ws');
      await new Promise<void>((done, fail) => {
        ws.once('open', () => {
          ws.send(JSON.stringify({ type: 'connection_init', payload: { authorization: `Bearer ${gus.token}` } }));
          // Gone before the server has checked the token, or speaking before the ack (closed 4401).
          if (i % 2 === 0) ws.terminate();
          else ws.send(JSON.stringify({ id: '1', type: 'subscribe', payload: { query: '{ __typename }' } }));
          done();
        });
        ws.once('error', fail);
      });
      if (i % 2 === 1) await new Promise((done) => ws.once('close', done));
    }
    await new Promise((done) => setTimeout(done, 300));
    const feed = app.running.app.get(GameFeed);
    const before = feed.listening;
    const opened = [0, 1].map(() => {
      const state: { closed: { code: number; reason: string } | null } = { closed: null };
      const client = wsClient(url, gus.token, (e) => (state.closed = e));
      collect(client, GAME_UPDATED, { id: game, from: null });
      return { client, state };
    });
    await waitFor(() => feed.listening === before + 2, 'both places of WS_CONNECTIONS_PER_PLAYER');
    expect(opened.map((o) => o.state.closed)).toEqual([null, null]);
    for (const o of opened) await o.client.dispose();
  });

  // One connection multiplexed any number of subscriptions: two thousand, each catching up on the
  // game, held the database pool until hundreds of them failed as INTERNAL_SERVER_ERROR.
  it('refuses an operation beyond WS_OPERATIONS_PER_CONNECTION on one connection, and frees a place when one completes', async () => {
    const fran = await app.player('Fran');
    const game = data(await app.gql(fran.token, 'mutation { createGame(input: { scenarioId: "kernel-test", side: "A" }) { id } }'))['createGame'].id as string;
    const feed = app.running.app.get(GameFeed);
    const client = wsClient(url, fran.token);
    try {
      const subs = [0, 1, 2].map(() => collect(client, GAME_UPDATED, { id: game, from: null }));
      await waitFor(() => feed.listening === 3, 'three subscriptions');
      const fourth = collect(client, GAME_UPDATED, { id: game, from: null });
      await waitFor(() => !!fourth.error, 'the fourth to be refused');
      expect(fourth.error).toEqual([expect.objectContaining({ message: expect.stringContaining('At most 3 operations at once on one connection'), extensions: { code: 'BAD_USER_INPUT', errorCode: 'ws/too_many_operations' } })]);
      expect(feed.listening).toBe(3);
      subs[0]!.dispose();
      await waitFor(() => feed.listening === 2, 'the first to complete');
      const again = collect(client, GAME_UPDATED, { id: game, from: null });
      await waitFor(() => feed.listening === 3, 'a new subscription in the freed place');
      expect(again.error).toBeNull();
    } finally {
      await client.dispose();
    }
  });

  // The cap was checked after an await, by which time every operation of a burst had been counted:
  // 51 subscriptions sent at once under a cap of 50 had 12 to 17 of them refused.
  it('refuses only the operations beyond the cap when they arrive at once', async () => {
    const gus = await app.player('Gus');
    const game = data(await app.gql(gus.token, 'mutation { createGame(input: { scenarioId: "kernel-test", side: "A" }) { id } }'))['createGame'].id as string;
    const feed = app.running.app.get(GameFeed);
    const client = wsClient(url, gus.token);
    try {
      // Subscribed before the connection is acknowledged: the client sends all five in one go.
      const subs = [0, 1, 2, 3, 4].map(() => collect(client, GAME_UPDATED, { id: game, from: null }));
      await waitFor(() => subs.filter((s) => !!s.error).length === 2 && feed.listening === 3, 'two refused, three listening');
      expect(subs.map((s) => (s.error ? 'refused' : 'open'))).toEqual(['open', 'open', 'open', 'refused', 'refused']);
    } finally {
      await client.dispose();
    }
  });

  // The socket library's own cap is 100 MiB a message, read into memory before anything (the
  // token included) is checked: one such message held the server for a third of a second.
  it('closes a connection whose message is larger than API_MAX_BODY_BYTES with 1009, before any authentication', async () => {
    const closed = (message: string) =>
      new Promise<{ code: number; reason: string }>((resolve, reject) => {
        const ws = new WebSocket(url, 'graphql-transport-ws');
        ws.on('open', () => ws.send(message));
        ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() }));
        ws.on('error', () => undefined);
        setTimeout(() => reject(new Error('the connection stayed open')), 10_000).unref();
      });
    const init = (padding: number) => JSON.stringify({ type: 'connection_init', payload: { authorization: 'Bearer none', pad: 'x'.repeat(padding) } });
    expect((await closed(init(70_000))).code).toBe(1009);
    // Just under the cap, the message is read: the bad token is what closes it (4403, Forbidden).
    expect((await closed(init(60_000))).code).toBe(4403);
  });
});
