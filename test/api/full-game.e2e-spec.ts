import { GameFeed } from '../../src/api/subscriptions/game-feed.service';
import { apiApp, ApiApp, TestPlayer } from './support/api-app';
import { GameClient, GraphqlClient, RestClient } from './support/game-client';
import type { GameScript } from './support/game-script';
import { gatorsScript } from './support/gators-script';
import { kernelScript } from './support/kernel-script';
import { playScript } from './support/play-script';
import { collect, GAME_UPDATED, waitFor, wsClient } from './support/subscriptions';

const SCRIPTS: Array<[string, GameScript]> = [
  ['the kernel test scenario', kernelScript],
  ['Gators! (Unnarstan)', gatorsScript],
];

const TRANSPORTS: Array<[string, (app: ApiApp, p: TestPlayer) => GameClient]> = [
  ['GraphQL', (app, p) => new GraphqlClient(app, p)],
  ['REST', (app, p) => new RestClient(app, p)],
];

function checkSecrets(script: GameScript, responses: string[]): void {
  expect(responses.length).toBeGreaterThan(0);
  for (const r of responses) for (const s of script.secrets.strings) expect(r).not.toContain(s);
}

describe.each(SCRIPTS)('a whole game of %s', (_name, script) => {
  let app: ApiApp;
  beforeAll(async () => {
    app = await apiApp({}, { entries: [script.entry()] });
  });
  afterAll(async () => {
    await app.close();
  });

  describe.each(TRANSPORTS)('played by two clients only through %s', (_transport, clientFor) => {
    it('sets up, plays three full turns, and ends', async () => {
      const a = clientFor(app, await app.player('Alice'));
      const b = clientFor(app, await app.player('Bob'));
      const played = await playScript(a, b, script);
      checkSecrets(script, played.viewerResponses);
      if (script.finish.kind === 'resign') {
        const resigner = script.finish.side === script.creatorSide ? a : b;
        const r = await resigner.resign(played.gameId, (await resigner.game(played.gameId)).version);
        expect(r.ok).toBe(true);
      }
      const final = await a.game(played.gameId);
      expect(final).toMatchObject({ status: 'finished', result: { winner: script.finish.winner } });
      expect(final.seed).toMatch(/^[0-9a-f]{64}$/);

      const history = await a.history(played.gameId);
      const types = new Set(history.events.map((e) => e.type));
      for (const t of script.expectEvents) expect([t, types.has(t)]).toEqual([t, true]);
      const turns = new Set(history.phases.map((p) => p.turn));
      for (const t of [1, 2, 3]) expect(turns.has(t)).toBe(true);
      const versions = history.events.map((e) => e.version);
      expect(versions).toEqual([...versions].sort((x, y) => x - y));
      expect((await a.view(played.gameId)).hexes).toBeGreaterThan(0);
    });

    it('ends a game by resignation', async () => {
      const a = clientFor(app, await app.player('Alice'));
      const b = clientFor(app, await app.player('Bob'));
      const played = await playScript(a, b, script, script.resign.afterStep);
      const resigner = script.resign.side === script.creatorSide ? a : b;
      const before = await resigner.game(played.gameId);
      const r = await resigner.resign(played.gameId, before.version);
      expect(r.ok).toBe(true);
      const after = await b.game(played.gameId);
      expect(after).toMatchObject({ status: 'finished', result: { winner: script.resign.winner } });
      const again = await resigner.resign(played.gameId, after.version);
      expect(again).toMatchObject({ ok: false, code: 'CONFLICT', errorCode: 'game/finished' });
    });
  });
});

describe('gameUpdated during a whole game', () => {
  const script = kernelScript;
  let app: ApiApp;
  let url: string;
  beforeAll(async () => {
    app = await apiApp({ SUBSCRIPTION_POLL_MS: '50' });
    url = await app.listen();
  });
  afterAll(async () => {
    await app.close();
  });

  it('delivers every change to each side over graphql-ws, with only what that side may see', async () => {
    const alice = await app.player('Alice');
    const bob = await app.player('Bob');
    const a = new GraphqlClient(app, alice);
    const b = new GraphqlClient(app, bob);
    // The subscriptions need the game id, so the script is played in two parts around them.
    const created = await a.createGame(script.scenarioId, script.creatorSide);
    const wsA = wsClient(url, alice.token);
    const wsB = wsClient(url, bob.token);
    const subA = collect(wsA, GAME_UPDATED, { id: created.id, from: null });
    try {
      await waitFor(() => app.running.app.get(GameFeed).listening === 1, 'the subscription to start');
      const token = await a.invite(created.id, script.joinerSide);
      await b.join(token);
      const subB = collect(wsB, GAME_UPDATED, { id: created.id, from: null });
      await waitFor(() => subA.results.length > 0, 'A to hear that B joined');
      for (const [i, step] of script.steps.entries()) {
        // B answers only once its subscription has told it of the question.
        if (step.kind === 'reaction') await waitFor(() => subB.results.some((r) => r.data?.gameUpdated.game.reaction?.side === step.side), 'the reaction request');
        const c = step.side === script.creatorSide ? a : b;
        const r = await c.submit(created.id, (await c.game(created.id)).version, step.kind, step.orders, `sub-${i}-${created.id}`);
        if (!r.ok) throw new Error(`step ${i + 1} refused: ${JSON.stringify(r)}`);
      }
      const final = await a.game(created.id);
      await waitFor(() => subA.results.at(-1)?.data?.gameUpdated.version === final.version, 'A\'s last update');
      await waitFor(() => subB.results.at(-1)?.data?.gameUpdated.version === final.version, 'B\'s last update');
      for (const sub of [subA, subB]) {
        expect(sub.results.every((r) => !r.errors)).toBe(true);
        const updates = sub.results.map((r) => r.data!.gameUpdated);
        for (let i = 1; i < updates.length; i++) expect(updates[i].fromVersion).toBe(updates[i - 1].version + 1);
      }
      const aSaw = subA.results.map((r) => r.data!.gameUpdated);
      const bSaw = subB.results.map((r) => r.data!.gameUpdated);
      // B was asked to react; both read the question in public terms (its history tells A as much).
      expect(bSaw.some((u) => u.game.reaction?.side === 'B')).toBe(true);
      expect(aSaw.some((u) => u.game.reaction?.side === 'B')).toBe(true);
      // A never reads the hidden units once they are placed, in any update before the end reveals all.
      const placedAt = aSaw.find((u) => u.game.turn >= 1)!.version;
      const inPlay = aSaw.filter((u) => u.version >= placedAt && u.game.status !== 'FINISHED');
      checkSecrets(script, inPlay.map((u) => JSON.stringify(u)));
      // Enough was checked: the feed may fold several quick submissions into one update, so count events, not updates.
      expect(inPlay.flatMap((u) => u.events).length).toBeGreaterThan(5);
      // Each event arrived once, in order (the end reveals everything to history, so only versions compare).
      const versions = aSaw.flatMap((u) => u.events.map((e: { version: number }) => e.version));
      expect(versions).toEqual([...new Set(versions)].sort((x, y) => x - y));
      const all = new Set((await a.history(created.id)).events.map((e) => e.version));
      expect(versions.every((v) => all.has(v))).toBe(true);
      subB.dispose();
    } finally {
      subA.dispose();
      await wsA.dispose();
      await wsB.dispose();
    }
  });
});
