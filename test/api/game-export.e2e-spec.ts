import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import request from 'supertest';
import { verifyDice } from '../../src/games/dice/verify-dice';
import { apiApp, ApiApp, data, firstError, TestPlayer } from './support/api-app';
import { GraphqlClient } from './support/game-client';
import { kernelScript as script } from './support/kernel-script';
import { playScript } from './support/play-script';

/** The kernel script up to B's attack on the landed AAV, so the log holds rolls to verify. */
const THROUGH_COMBAT = script.steps.findIndex((s) => s.note.includes('(combat, dice)')) + 1;

describe('the export of a game (GET /api/v1/games/{id}/export, gameExport)', () => {
  let app: ApiApp;
  let alice: TestPlayer;
  let bob: TestPlayer;
  let mallory: TestPlayer;
  let privateGame: string;
  let watchedGame: string;
  let commitment: string;
  /** The watched game's version before its end: B's platoons were hidden from A and spectators then. */
  let watchedBeforeEnd: number;

  const rest = (p: TestPlayer, gameId: string) => request(app.http).get(`/api/v1/games/${gameId}/export`).set('Authorization', `Bearer ${p.token}`);
  const gql = (p: TestPlayer, gameId: string) => app.gql(p.token, 'query($g: ID!) { gameExport(gameId: $g) }', { g: gameId });
  const resign = async (p: TestPlayer, gameId: string) => {
    const client = new GraphqlClient(app, p);
    expect(await client.resign(gameId, (await client.game(gameId)).version)).toMatchObject({ ok: true });
  };

  beforeAll(async () => {
    app = await apiApp({}, { entries: [script.entry()] });
    [alice, bob, mallory] = await Promise.all(['Alice', 'Bob', 'Mallory'].map((n) => app.player(n)));
    expect(THROUGH_COMBAT).toBeGreaterThan(0);
    const played = await playScript(new GraphqlClient(app, alice), new GraphqlClient(app, bob), script, THROUGH_COMBAT);
    privateGame = played.gameId;
    commitment = played.final.seedCommitment;
    watchedGame = (await playScript(new GraphqlClient(app, alice), new GraphqlClient(app, bob), script, 2, { spectators: true })).gameId;
    watchedBeforeEnd = (await new GraphqlClient(app, alice).game(watchedGame)).version;
  });
  afterAll(async () => {
    await app.close();
  });

  describe('before the game has ended', () => {
    it('is refused to its players and spectators: 409 game/not_finished over REST, CONFLICT over GraphQL', async () => {
      for (const [p, gameId] of [[alice, privateGame], [mallory, watchedGame]] as const) {
        const r = await rest(p, gameId);
        expect([r.status, r.headers['content-type'], r.body.code]).toEqual([409, expect.stringMatching(/^application\/problem\+json/), 'game/not_finished']);
        expect(firstError(await gql(p, gameId)).extensions).toMatchObject({ code: 'CONFLICT', errorCode: 'game/not_finished' });
      }
    });

    it('tells a stranger nothing, not even that the game runs', async () => {
      expect((await rest(mallory, privateGame)).body).toMatchObject({ status: 404, code: 'game/not_found' });
      expect(firstError(await gql(mallory, privateGame)).extensions).toMatchObject({ code: 'NOT_FOUND', errorCode: 'game/not_found' });
    });
  });

  describe('after the game has ended', () => {
    let doc: any;
    beforeAll(async () => {
      await resign(alice, privateGame);
      await resign(alice, watchedGame);
      const r = await rest(bob, privateGame);
      expect(r.status).toBe(200);
      expect(r.headers['content-type']).toMatch(/^application\/json/);
      expect(r.headers['content-disposition']).toBe(`attachment; filename="${privateGame}.fieldpost.json"`);
      doc = r.body;
    });

    it('is the whole log, numbered 1..version, with the seed the creation committed to', async () => {
      expect(doc).toMatchObject({ format: 'fieldpost.game-export', formatVersion: 1, game: { id: privateGame, result: { winner: 'B' } }, scenario: { id: script.scenarioId } });
      expect(createHash('sha256').update(Buffer.from(doc.dice.seed, 'hex')).digest('hex')).toBe(commitment);
      expect(doc.dice.seedCommitment).toBe(commitment);
      const finished = data(await app.gql(alice.token, 'query($g: ID!) { game(id: $g) { version } }', { g: privateGame }))['game'].version;
      expect(doc.game.version).toBe(finished);
      expect(doc.events.map((e: { version: number }) => e.version)).toEqual(Array.from({ length: finished }, (_, i) => i + 1));
      expect(doc.events[0]).toMatchObject({ type: 'GameCreated', data: { seedCommitment: commitment }, meta: { correlationId: expect.any(String), source: 'app', visibility: { to: 'all' } } });
    });

    it('passes the dice verifier, with every roll of the combat', () => {
      const report = verifyDice(doc);
      expect(report.problems).toEqual([]);
      expect(report.ok).toBe(true);
      expect(report.rolls).toBeGreaterThan(0);
    });

    it('has exactly the fields the README\'s "Export format" shows', () => {
      const readme = readFileSync(resolve(__dirname, '../../README.md'), 'utf8');
      const section = readme.slice(readme.indexOf('### Export format'));
      const shown = JSON.parse(/```json\n([\s\S]*?)```/.exec(section)![1]!);
      // The README's `{ }` stand for free JSON (options, event data, standing orders by side); everything else is a fixed shape.
      const shape = (v: unknown, free: boolean): unknown =>
        free || v === null || typeof v !== 'object' ? typeof v : Array.isArray(v) ? [shape(v[0], false)] : Object.fromEntries(Object.keys(v).sort().map((k) => [k, shape((v as Record<string, unknown>)[k], ['options', 'data', 'standingOrders'].includes(k))]));
      const withoutReveals = { ...doc, events: [doc.events[0]] };
      expect(shape(withoutReveals, false)).toEqual(shape(shown, false));
      // Beside the example's, the only key the README names: meta.reveals.
      const metaKeys = new Set<string>(doc.events.flatMap((e: { meta: object }) => Object.keys(e.meta)));
      for (const k of metaKeys) expect(['reveals', ...Object.keys(shown.events[0].meta)]).toContain(k);
    });

    it('is the same document over GraphQL', async () => {
      expect(data(await gql(alice, privateGame))['gameExport']).toEqual(doc);
    });

    it('is a full-information replay at every past version too, as history is: the view of a version from before the end hides nothing', async () => {
      const view = (p: TestPlayer, at: number) => request(app.http).get(`/api/v1/games/${watchedGame}/view?atVersion=${at}`).set('Authorization', `Bearer ${p.token}`);
      for (const p of [alice, mallory]) {
        const past = await view(p, watchedBeforeEnd);
        expect(past.status).toBe(200);
        for (const s of script.secrets.strings) expect(JSON.stringify(past.body)).toContain(s);
      }
    });

    it('is for whoever may read the game: a spectator of a watched game, not a stranger to a private one', async () => {
      const watched = await rest(mallory, watchedGame);
      expect([watched.status, watched.body.format]).toEqual([200, 'fieldpost.game-export']);
      expect(data(await gql(mallory, watchedGame))['gameExport']).toEqual(watched.body);
      expect((await rest(mallory, privateGame)).body).toMatchObject({ status: 404, code: 'game/not_found' });
      expect(firstError(await gql(mallory, privateGame)).extensions).toMatchObject({ code: 'NOT_FOUND', errorCode: 'game/not_found' });
      expect((await rest(alice, 'game_0000')).body).toMatchObject({ status: 404, code: 'game/not_found' });
    });
  });
});
