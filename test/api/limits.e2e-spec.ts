import http from 'node:http';
import { Agent } from 'node:http';
import request from 'supertest';
import { apiApp, ApiApp, data, TestPlayer } from './support/api-app';
import { countResolverCalls } from './support/resolver-calls';
import { collect, waitFor, wsClient } from './support/subscriptions';

const DEPTH_6 = '{ myGames { edges { node { game { view { timeOfDay } } } } } }';
const DEPTH_7 = '{ myGames { edges { node { game { view { game { id } } } } } } }';
const aliases = (n: number) => `{ ${Array.from({ length: n }, (_, i) => `a${i}: me { id }`).join(' ')} }`;

describe('GraphQL limits (introspection off, as in production)', () => {
  let app: ApiApp;
  let player: TestPlayer;
  let calls: ReturnType<typeof countResolverCalls>;
  beforeAll(async () => {
    app = await apiApp({ GRAPHQL_INTROSPECTION: 'false' });
    player = await app.player('Limits');
    calls = countResolverCalls(app);
  });
  afterAll(async () => {
    calls.restore();
    await app.close();
  });

  it('accepts what is within the limits (and the counter sees those resolvers run)', async () => {
    const before = calls.count();
    data(await app.gql(player.token, DEPTH_6));
    data(await app.gql(player.token, aliases(15)));
    expect(calls.count()).toBeGreaterThan(before);
  });

  const refused: Array<[string, () => Promise<request.Response>, number, RegExp]> = [
    ['a query of depth 7', () => post(DEPTH_7), 400, /depth limit of 6 exceeded, found 7/],
    ['16 aliases', () => post(aliases(16)), 400, /Aliases limit of 15 exceeded, found 16/],
    ['a batch', () => request(app.http).post('/graphql').set('Authorization', `Bearer ${player.token}`).set('Content-Type', 'application/json').send(JSON.stringify([{ query: '{ me { id } }' }, { query: '{ me { id } }' }])), 400, /Batched operations are not accepted/],
    ['a huge document (over the body cap)', () => post(`{ me { id ${'displayName '.repeat(30_000)} } }`), 413, /larger than 262144 bytes/],
    ['a huge document (over the token limit)', () => post(`{ me { id ${'displayName '.repeat(3000)} } }`), 400, /more tha.? 2000 tokens/],
    ['a fragment named __schema', () => post('query { ...__schema } fragment __schema on Query { me { id } }'), 400, /reserved for introspection: fragment "__schema"/],
    ['the __schema fragment hiding a deep query', () => post(`query { ...__schema } fragment __schema on Query ${DEPTH_7}`), 400, /reserved for introspection/],
    ['introspection', () => post('{ __schema { queryType { name } } }'), 400, /introspection/i],
    ['introspection through a fragment', () => post('query { ...f } fragment f on Query { __schema { types { name } } }'), 400, /introspection/i],
    ['__type', () => post('{ __type(name: "Game") { fields { name } } }'), 400, /introspection/i],
    ['too many directives', () => post(`{ me { id ${'@include(if: true) '.repeat(21)} } }`), 400, /Directives limit/],
    ['a page larger than the cap', () => post('{ myGames(first: 101) { nodes { id } } }'), 200, /A page holds 1 to 100 items/],
  ];

  function post(query: string) {
    return request(app.http).post('/graphql').set('Authorization', `Bearer ${player.token}`).set('Content-Type', 'application/json').send(JSON.stringify({ query }));
  }

  it.each(refused.filter(([name]) => name !== 'a page larger than the cap'))('refuses %s before any resolver runs', async (_name, send, status, message) => {
    const before = calls.count();
    const res = await send();
    expect(res.status).toBe(status);
    expect(res.body.data ?? null).toBeNull();
    expect(res.body.errors.map((e: { message: string }) => e.message).join('\n')).toMatch(message);
    for (const e of res.body.errors) expect(e.extensions.code).toMatch(/^(GRAPHQL_VALIDATION_FAILED|GRAPHQL_PARSE_FAILED|BAD_USER_INPUT)$/);
    expect(JSON.stringify(res.body)).not.toMatch(/\bat \S+ \(|node_modules|stacktrace/);
    expect(calls.count()).toBe(before);
  });

  it('caps the page size with BAD_USER_INPUT', async () => {
    const [, send, status, message] = refused.find(([name]) => name === 'a page larger than the cap')!;
    const res = await send();
    expect(res.status).toBe(status);
    expect(res.body.errors[0]).toMatchObject({ extensions: { code: 'BAD_USER_INPUT', errorCode: 'request/bad_page_size' } });
    expect(res.body.errors[0].message).toMatch(message);
  });

  it('never suggests field names', async () => {
    const res = await post('{ me { displayNam } }');
    expect(res.status).toBe(400);
    expect(res.body.errors[0].message).not.toMatch(/Did you mean/);
  });

  it('never suggests enum values of a variable, and leaves no stray question mark where the suggestion was', async () => {
    const res = await app.gql(player.token, 'query ($f: MyGamesFilter!) { myGames(filter: $f) { nodes { id } } }', { f: 'ACTIV' });
    const message = res.body.errors![0]!.message;
    expect(message).not.toMatch(/Did you mean|ACTIVE/);
    expect(message).toMatch(/Value "ACTIV" does not exist in "MyGamesFilter" enum\. \[Suggestion hidden\]$/);
  });
});

describe('GraphQL introspection by configuration', () => {
  it('is on by default in development, off by default in production, and the __schema fragment is refused either way', async () => {
    for (const [env, allowed] of [[{ NODE_ENV: 'development' }, true], [{ NODE_ENV: 'production' }, false], [{ NODE_ENV: 'production', GRAPHQL_INTROSPECTION: 'true' }, true]] as const) {
      const app = await apiApp(env);
      try {
        const r = await app.gql(null, '{ __schema { queryType { name } } }');
        if (allowed) expect(data(r)['__schema'].queryType.name).toBe('Query');
        else expect(r.body.errors?.[0]?.extensions?.['code']).toBe('GRAPHQL_VALIDATION_FAILED');
        const trick = await app.gql(null, 'query { ...__schema } fragment __schema on Query { scenarios { nodes { id } } }');
        expect(trick.status).toBe(400);
        expect(trick.body.errors?.[0]?.message).toMatch(/reserved for introspection/);
      } finally {
        await app.close();
      }
    }
  });
});

describe('rate limits per player', () => {
  let app: ApiApp;
  beforeAll(async () => {
    app = await apiApp({ RATE_LIMIT_PER_TOKEN: '5', RATE_LIMIT_ANONYMOUS: '3', RATE_LIMIT_WINDOW_SECONDS: '60' });
  });
  afterAll(async () => {
    await app.close();
  });

  it('answers the request over the limit with 429, Retry-After and RATE_LIMITED, per player, on GraphQL and REST alike', async () => {
    const busy = await app.player('Busy');
    const calm = await app.player('Calm');
    for (let i = 0; i < 3; i++) data(await app.gql(busy.token, '{ me { id } }'));
    for (let i = 0; i < 2; i++) expect((await request(app.http).get('/api/v1/me').set('Authorization', `Bearer ${busy.token}`)).status).toBe(200);
    const gql = await app.gql(busy.token, '{ me { id } }');
    expect(gql.status).toBe(429);
    expect(Number(gql.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(gql.body.errors![0]!.extensions).toMatchObject({ code: 'RATE_LIMITED', errorCode: 'http/rate_limited' });
    const rest = await request(app.http).get('/api/v1/me').set('Authorization', `Bearer ${busy.token}`);
    expect(rest.status).toBe(429);
    expect(Number(rest.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(rest.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(rest.body).toMatchObject({ status: 429, code: 'http/rate_limited', retryAfterSeconds: expect.any(Number) });
    // Another player has their own budget.
    data(await app.gql(calm.token, '{ me { id } }'));
  });

  // Over graphql-ws, queries and mutations reached the resolvers with no count at all: a client
  // over its limit on HTTP could go on over a socket.
  it('counts each graphql-ws operation against the budget of its player, the one HTTP requests use', async () => {
    const url = await app.listen();
    const socket = await app.player('Socket');
    const client = wsClient(url, socket.token);
    try {
      const run = async () => {
        const op = collect(client, 'query { me { displayName } }', {});
        await waitFor(() => op.completed || op.error !== null, 'the operation to finish');
        return op;
      };
      for (let i = 0; i < 4; i++) expect((await run()).results).toEqual([{ data: { me: { displayName: 'Socket' } } }]);
      expect((await app.gql(socket.token, '{ me { id } }')).status).toBe(200);
      const over = await run();
      expect(over.results).toEqual([]);
      expect(over.error).toEqual([expect.objectContaining({ extensions: expect.objectContaining({ code: 'RATE_LIMITED', errorCode: 'http/rate_limited', retryAfterSeconds: expect.any(Number) }) })]);
      expect((await app.gql(socket.token, '{ me { id } }')).status).toBe(429);
    } finally {
      await client.dispose();
    }
  });

  // Per token, a player with 50 tokens had 50 budgets.
  it("counts all of a player's tokens against one budget", async () => {
    const many = await app.player('Many');
    const second = data(await app.gql(many.token, 'mutation { createApiToken(name: "second") { token } }'))['createApiToken'].token as string;
    for (let i = 0; i < 3; i++) expect((await request(app.http).get('/api/v1/me').set('Authorization', `Bearer ${many.token}`)).status).toBe(200);
    expect((await request(app.http).get('/api/v1/me').set('Authorization', `Bearer ${second}`)).status).toBe(200);
    expect((await request(app.http).get('/api/v1/me').set('Authorization', `Bearer ${second}`)).status).toBe(429);
  });

  // Each made-up token was a database lookup, and a 401 was never counted.
  it('counts refused tokens against the client address, and answers 429 once it is spent', async () => {
    const client = new Agent({ localAddress: `127.${1 + Math.floor(Math.random() * 254)}.${Math.floor(Math.random() * 256)}.${1 + Math.floor(Math.random() * 254)}` });
    const statuses: number[] = [];
    const remaining: unknown[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await request(app.http).get('/api/v1/me').agent(client).set('Authorization', `Bearer fp_${'x'.repeat(43)}`);
      statuses.push(res.status);
      remaining.push(res.headers['ratelimit-remaining']);
    }
    expect(statuses).toEqual([401, 401, 401, 429]);
    // A 401 spends the address's budget, so it says what is left, as every other answer does.
    expect(remaining).toEqual(['2', '1', '0', '0']);
    expect((await request(app.http).get('/api/v1/scenarios').agent(client)).status).toBe(429);
  });

  // Refused before the limiter (by the body parser, the size cap, the input guards), a malformed
  // body cost nothing: a client could send them without end.
  it('counts requests whose bodies are refused unread, per player with a token, else per client address', async () => {
    const junk = await app.player('Junk');
    const statuses: number[] = [];
    const post = (body: string, path = '/api/v1/games') => request(app.http).post(path).set('Authorization', `Bearer ${junk.token}`).set('Content-Type', 'application/json').send(body);
    statuses.push((await post('{"scenarioId":')).status);
    // Over API_MAX_BODY_BYTES (the API middleware's cap), then over the body parser's own.
    statuses.push((await post(JSON.stringify({ scenarioId: 'kernel-test', title: 'x'.repeat(300_000) }))).status);
    statuses.push((await post(JSON.stringify({ scenarioId: 'kernel-test', title: 'x'.repeat(1_100_000) }))).status);
    statuses.push((await post(JSON.stringify({ scenarioId: 'kernel-test', title: 'nul\u0000' }))).status);
    statuses.push((await post(JSON.stringify([{ query: '{ me { id } }' }, { query: '{ me { id } }' }]), '/graphql')).status);
    expect(statuses).toEqual([400, 413, 413, 400, 400]);
    const over = await post('{"scenarioId":');
    expect(over.status).toBe(429);
    expect(Number(over.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(over.body).toMatchObject({ status: 429, code: 'http/rate_limited' });
    expect((await request(app.http).get('/api/v1/me').set('Authorization', `Bearer ${junk.token}`)).status).toBe(429);

    const client = new Agent({ localAddress: `127.${1 + Math.floor(Math.random() * 254)}.${Math.floor(Math.random() * 256)}.${1 + Math.floor(Math.random() * 254)}` });
    const anonymous: number[] = [];
    for (const body of ['{"query":', '{"query":', '{"query":', '{"query":']) anonymous.push((await request(app.http).post('/graphql').agent(client).set('Content-Type', 'application/json').send(body)).status);
    expect(anonymous).toEqual([400, 400, 400, 429]);
    expect((await request(app.http).get('/api/v1/scenarios').agent(client)).status).toBe(429);
  });

  it('counts anonymous requests per client address', async () => {
    // From a loopback address of its own: counts are shared by every app on the test database,
    // and other tests send anonymous requests from 127.0.0.1 too.
    const client = new Agent({ localAddress: `127.${1 + Math.floor(Math.random() * 254)}.${Math.floor(Math.random() * 256)}.${1 + Math.floor(Math.random() * 254)}` });
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await request(app.http).get('/api/v1/scenarios').agent(client)).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
  });
});

describe('request size on REST', () => {
  it('refuses a body over API_MAX_BODY_BYTES with 413', async () => {
    const app = await apiApp({ API_MAX_BODY_BYTES: '2048' });
    try {
      const p = await app.player('Big');
      const res = await request(app.http).post('/api/v1/games').set('Authorization', `Bearer ${p.token}`).send({ scenarioId: 'kernel-test', title: 'x'.repeat(4000) });
      expect(res.status).toBe(413);
      expect(res.body).toMatchObject({ status: 413, code: 'http/payload_too_large' });
      // Sent chunked, with no Content-Length to refuse it by: the body parser holds the same cap.
      const url = new URL((await app.listen()).replace('ws://', 'http://'));
      const body = JSON.stringify({ scenarioId: 'kernel-test', side: 'A', title: 'chunked', pad: ' '.repeat(4000) });
      const chunked = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = http.request(
          { host: url.hostname, port: url.port, path: '/api/v1/games', method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${p.token}`, 'Transfer-Encoding': 'chunked' } },
          (r) => {
            let text = '';
            r.on('data', (c: Buffer) => (text += c.toString()));
            r.on('end', () => resolve({ status: r.statusCode!, body: text }));
          },
        );
        req.on('error', reject);
        req.write(body.slice(0, 1000));
        req.end(body.slice(1000));
      });
      expect(chunked.status).toBe(413);
      expect(JSON.parse(chunked.body)).toMatchObject({ status: 413, code: 'http/payload_too_large' });
    } finally {
      await app.close();
    }
  });
});
