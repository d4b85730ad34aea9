import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { buildSchema, parse, validate } from 'graphql';
import request from 'supertest';
import { gatorsEntry, gatorsExample } from '../support/gators-game';
import { uniqueId } from '../support/database';
import { apiApp, ApiApp, data } from './support/api-app';

// The README's API walkthrough, call by call, on a development server without SMTP; each
// expectation reads what the README's `jq` filter reads from that answer.

const readme = readFileSync(resolve(__dirname, '../../README.md'), 'utf8');

/** The GraphQL documents written out in the README, as the shell passes them on. */
function readmeDocuments(): string[] {
  const docs: string[] = [];
  for (const m of readme.matchAll(/\b(query|mutation|subscription)\s*\(/g)) {
    let depth = 0;
    let end = readme.indexOf('{', m.index);
    for (; end < readme.length; end++) {
      if (readme[end] === '{') depth++;
      else if (readme[end] === '}' && --depth === 0) break;
    }
    docs.push(readme.slice(m.index, end + 1).replace(/\\\$/g, '$'));
  }
  return docs;
}

describe('the README walkthrough', () => {
  let app: ApiApp;
  const log: string[] = [];

  beforeAll(async () => {
    app = await apiApp({ NODE_ENV: 'development', LOG_LEVEL: 'warn' }, { entries: [gatorsEntry()], logs: { write: (line: string) => void log.push(line) } });
  });
  afterAll(async () => {
    await app.close();
  });

  it('has GraphQL documents that the committed schema accepts', () => {
    const schema = buildSchema(readFileSync(resolve(__dirname, '../../schema.gql'), 'utf8'));
    const docs = readmeDocuments();
    expect(docs.map((d) => d.split('(')[0])).toEqual(['query', 'mutation', 'subscription']);
    expect(docs.map((d) => validate(schema, parse(d)).map((e) => e.message))).toEqual([[], [], []]);
  });

  it('plays its REST calls and its GraphQL ones as written', async () => {
    const api = request(app.http);
    const signUp = async (body: Record<string, string>) => {
      expect((await api.post('/api/v1/auth/magic-links').send(body)).status).toBe(202);
      const line = log.map((l) => JSON.parse(l)).find((l) => l.email === body['email'] && l.signInCode);
      const redeemed = await api.post('/api/v1/auth/magic-links/redeem').send({ token: line.signInCode });
      expect(redeemed.body.token).toMatch(/^fp_/);
      return `Bearer ${redeemed.body.token}`;
    };
    const alice = await signUp({ email: `${uniqueId('alice')}@example.org`, displayName: 'Alice', timeZone: 'Europe/Berlin' });
    const bob = await signUp({ email: `${uniqueId('bob')}@example.org`, displayName: 'Bob' });

    const scenarios = (await api.get('/api/v1/scenarios')).body;
    expect(scenarios.items[0]).toMatchObject({ id: 'gators-unnarstan', system: 'gators', sides: expect.any(Array), turns: expect.any(Number) });

    const created = await api.post('/api/v1/games').set('Authorization', alice).send({ scenarioId: 'gators-unnarstan', title: 'Operation Gator', side: 'P1' });
    const game = created.body.game.id;
    expect(game).toEqual(expect.any(String));
    const invite = (await api.post(`/api/v1/games/${game}/invitations`).set('Authorization', alice).send({ side: 'P2' })).body.token;
    expect(invite).toMatch(/^inv_/);
    expect((await api.post('/api/v1/join').set('Authorization', bob).send({ token: invite })).body).toMatchObject({ gameId: game, side: 'P2', started: true });

    const summary = (await api.get(`/api/v1/games/${game}`).set('Authorization', alice)).body;
    for (const key of ['version', 'status', 'turn', 'phase', 'mode', 'acting', 'mySide', 'deadlineAt', 'seedCommitment']) expect(summary).toHaveProperty(key);
    const view = (await api.get(`/api/v1/games/${game}/view`).set('Authorization', alice)).body;
    expect([view.map.hexes.length > 0, view.units.length > 0, Array.isArray(view.markers), view.units[0].id]).toEqual([true, true, true, expect.any(String)]);

    const setup = await api.post(`/api/v1/games/${game}/phases`).set('Authorization', alice).set('Idempotency-Key', 'alice-setup-1')
      .send({ expectedVersion: summary.version, orders: gatorsExample('setup-p1.json').orders });
    expect(setup.body).toMatchObject({ version: expect.any(Number), events: expect.arrayContaining([expect.objectContaining({ type: expect.any(String) })]), phase: { acting: ['P2'] } });

    const v = (await api.get(`/api/v1/games/${game}`).set('Authorization', bob)).body.version;
    const bad = await api.post(`/api/v1/games/${game}/phases`).set('Authorization', bob).set('Idempotency-Key', 'bob-setup-1')
      .send({ expectedVersion: v, orders: [{ kind: 'place', unit: 'p2-inf-1', hex: '0101' }] });
    expect(bad.body).toMatchObject({ status: 400, code: 'orders/illegal', violations: expect.arrayContaining([expect.objectContaining({ ruleId: expect.any(String) })]) });
    const stale = await api.post(`/api/v1/games/${game}/phases`).set('Authorization', bob).set('Idempotency-Key', 'bob-setup-2').send({ expectedVersion: v - 1, orders: [] });
    expect(stale.body).toMatchObject({ status: 409, code: 'game/version_conflict', currentVersion: v });

    const places = (other: Array<{ action: string; detail: { hex?: string } }>) => other.filter((x) => x.action === 'place').map((x) => x.detail.hex);
    const alone = (await api.get(`/api/v1/games/${game}/units/p2-f5a-3/options`).set('Authorization', bob)).body;
    const armed = await api.post(`/api/v1/games/${game}/units/p2-f5a-3/options`).set('Authorization', bob).send({ after: [{ kind: 'arm', unit: 'p2-f5a-3', markers: ['Air', 'Ground'] }] });
    expect(armed.status).toBe(200);
    expect(places(armed.body.other).length).toBeGreaterThan(places(alone.other).length);
    const side = (await api.get(`/api/v1/games/${game}/options`).set('Authorization', bob)).body;
    expect(side.other.slice(0, 5).map((x: { detail: { hex: string } }) => x.detail.hex)).toEqual([expect.any(String), expect.any(String), expect.any(String), expect.any(String), expect.any(String)]);

    const [read, submit] = readmeDocuments();
    const seen = data(await app.gql(bob.slice(7), read!, { id: game }))['game'];
    expect(seen).toMatchObject({ version: v, mySide: 'P2', view: { units: expect.any(Array) } });
    const submitted = data(await app.gql(bob.slice(7), submit!, { input: { gameId: game, expectedVersion: v, orders: gatorsExample('setup-p2.json').orders, idempotencyKey: 'bob-setup-3' } }));
    expect(submitted['submitPhase']).toMatchObject({ version: expect.any(Number), phase: { acting: ['P1'] } });

    const ships = await api.post(`/api/v1/games/${game}/phases`).set('Authorization', alice).set('Idempotency-Key', 'alice-ships-1')
      .send({ expectedVersion: submitted['submitPhase'].version, orders: gatorsExample('ships.json').orders });
    expect(ships.body.phase).toMatchObject({ turn: 1, phase: 'p1-launch', acting: ['P1'] });
  });
});
