import { connect } from 'node:net';
import request from 'supertest';
import { GamesApiService } from '../../src/api/games/games-api.service';
import { PrismaService } from '../../src/database/prisma.service';
import { apiApp, ApiApp, data, firstError, TestPlayer } from './support/api-app';
import { GraphqlClient } from './support/game-client';
import { kernelScript as script } from './support/kernel-script';
import { playScript } from './support/play-script';
import { collect, waitFor, wsClient } from './support/subscriptions';

const STACK = /\bat \S+ \(|node_modules|\.ts:\d+|stacktrace/i;

describe('errors: machine codes, details, no stack traces, never a 500 for bad input', () => {
  let app: ApiApp;
  let url: string;
  let alice: TestPlayer;
  let gameId: string;
  beforeAll(async () => {
    app = await apiApp();
    url = await app.listen();
    alice = await app.player('Alice');
    const bob = await app.player('Bob');
    gameId = (await playScript(new GraphqlClient(app, alice), new GraphqlClient(app, bob), script, 2)).gameId;
  });
  afterAll(async () => {
    await app.close();
  });

  const version = async () => data(await app.gql(alice.token, 'query($g: ID!) { game(id: $g) { version } }', { g: gameId }))['game'].version as number;
  const submit = 'mutation($input: SubmitPhaseInput!) { submitPhase(input: $input) { version } }';

  it('answers illegal orders with BAD_USER_INPUT and the violations, each with its rule ID', async () => {
    const r = await app.gql(alice.token, submit, { input: { gameId, expectedVersion: await version(), orders: script.illegal.orders, idempotencyKey: 'err-1' } });
    expect(r.status).toBe(200);
    const e = firstError(r);
    expect(e.extensions).toMatchObject({ code: 'BAD_USER_INPUT', errorCode: 'orders/illegal' });
    expect(e.extensions!['violations']).toEqual([{ ruleId: script.illegal.ruleId, code: expect.any(String), message: expect.any(String), orderIndex: 0, unit: null }]);
    const rest = await request(app.http).post(`/api/v1/games/${gameId}/phases`).set('Authorization', `Bearer ${alice.token}`).send({ expectedVersion: await version(), orders: script.illegal.orders, idempotencyKey: 'err-1r' });
    expect(rest.status).toBe(400);
    expect(rest.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(rest.body).toMatchObject({ code: 'orders/illegal', violations: e.extensions!['violations'] });
  });

  // The list services are shared; each API's answer names the paging argument its client sent.
  it('names the paging parameter the client sent: limit and cursor over REST, first and after over GraphQL', async () => {
    const auth = { Authorization: `Bearer ${alice.token}` };
    const big = await request(app.http).get('/api/v1/games?limit=100000').set(auth);
    expect(big.status).toBe(400);
    expect(big.body).toMatchObject({ code: 'request/bad_page_size', field: 'limit' });
    const forged = await request(app.http).get(`/api/v1/games/${gameId}/history?cursor=abc`).set(auth);
    expect(forged.status).toBe(400);
    expect(forged.body).toMatchObject({ code: 'request/bad_cursor', field: 'cursor' });
    const gqlBig = firstError(await app.gql(alice.token, 'query { myGames(first: 101) { nodes { id } } }'));
    expect(gqlBig.extensions).toMatchObject({ errorCode: 'request/bad_page_size', field: 'first' });
    const gqlForged = firstError(await app.gql(alice.token, 'query($g: ID!) { game(id: $g) { history(after: "abc") { nodes { version } } } }', { g: gameId }));
    expect(gqlForged.extensions).toMatchObject({ errorCode: 'request/bad_cursor', field: 'after' });
  });

  it('answers unreadable orders with BAD_USER_INPUT orders/malformed', async () => {
    const r = await app.gql(alice.token, submit, { input: { gameId, expectedVersion: await version(), orders: { not: 'a list' }, idempotencyKey: 'err-2' } });
    expect(firstError(r).extensions).toMatchObject({ code: 'BAD_USER_INPUT', errorCode: 'orders/malformed', violations: expect.any(Array) });
  });

  // Names every JavaScript object answers to once reached the rules engine as if they were
  // units, reactions or seats, and a "constructor" field crashed the order schema: all 500s.
  it.each([
    ['a unit named "constructor"', 'ORDERS', [{ kind: 'unload', unit: 'constructor', hex: '0404' }]],
    ['a unit named "__proto__"', 'ORDERS', [{ kind: 'unload', unit: '__proto__', hex: '0404' }]],
    ['an order with a "constructor" field', 'ORDERS', [{ kind: 'unload', unit: 'a-tank', hex: '0404', constructor: null }]],
    // JSON.parse makes "__proto__" a key of the order (a literal would set its prototype instead).
    ['an order with a "__proto__" field', 'ORDERS', JSON.parse('[{ "kind": "unload", "unit": "a-tank", "hex": "0404", "__proto__": null }]')],
    ['standing orders for a reaction named "constructor"', 'STANDING_ORDERS', { constructor: 1 }],
  ])('answers %s with BAD_USER_INPUT orders/malformed, not a 500', async (_name, kind, orders) => {
    const before = await version();
    const r = await app.gql(alice.token, 'mutation($input: SubmitPhaseInput!) { submitPhase(input: $input) { version } }', {
      input: { gameId, expectedVersion: before, kind, orders, idempotencyKey: `proto-${_name}` },
    });
    expect(r.status).toBe(200);
    expect(firstError(r).extensions).toMatchObject({ code: 'BAD_USER_INPUT', errorCode: 'orders/malformed', violations: [expect.objectContaining({ code: expect.stringMatching(/^input\//) })] });
    expect(await version()).toBe(before);
  });

  it('answers an invitation to a side named "constructor" with game/unknown_side', async () => {
    const r = await app.gql(alice.token, 'mutation($g: ID!) { invite(input: { gameId: $g, side: "constructor" }) { token } }', { g: gameId });
    expect(firstError(r).extensions).toMatchObject({ code: 'BAD_USER_INPUT', errorCode: 'game/unknown_side' });
  });

  // Postgres text cannot hold U+0000: it used to fail in the query, as a 500.
  it('refuses text holding NUL (U+0000) or half a surrogate pair wherever it is, naming the place, and writes nothing', async () => {
    const rest = await request(app.http).post('/api/v1/me/tokens').set('Authorization', `Bearer ${alice.token}`).send({ name: 'a\u0000b' });
    expect(rest.status).toBe(400);
    expect(rest.body).toMatchObject({ code: 'request/nul_character', field: 'body.name' });
    const path = await request(app.http).get(`/api/v1/games/${gameId}%00`).set('Authorization', `Bearer ${alice.token}`);
    expect(path.status).toBe(400);
    expect(path.body).toMatchObject({ code: 'request/nul_character', field: 'the path' });
    const variable = await app.gql(alice.token, 'query($g: ID!) { game(id: $g) { id } }', { g: 'a\u0000b' });
    expect(variable.status).toBe(400);
    expect(firstError(variable).extensions).toMatchObject({ code: 'BAD_USER_INPUT', errorCode: 'request/nul_character', field: 'request.variables.g' });
    const literal = await app.gql(alice.token, '{ game(id: "a\\u0000b") { id } }');
    expect(firstError(literal).extensions).toMatchObject({ code: 'GRAPHQL_VALIDATION_FAILED' });
    expect(firstError(literal).message).toMatch(/U\+0000/);
    // Half a surrogate pair is not Unicode: jsonb refused its escape, also a 500 before.
    const half = await request(app.http).post('/api/v1/me/tokens').set('Authorization', `Bearer ${alice.token}`).set('Content-Type', 'application/json').send('{"name":"a\\ud800b"}');
    expect(half.status).toBe(400);
    expect(half.body).toMatchObject({ code: 'request/unpaired_surrogate', field: 'body.name' });
    const halfVariable = await app.gql(alice.token, 'query($g: ID!) { game(id: $g) { id } }', { g: 'a\udc00b' });
    expect(firstError(halfVariable).extensions).toMatchObject({ code: 'BAD_USER_INPUT', errorCode: 'request/unpaired_surrogate', field: 'request.variables.g' });
    const tokens = await request(app.http).get('/api/v1/me/tokens?limit=100').set('Authorization', `Bearer ${alice.token}`);
    expect(tokens.status).toBe(200);
    expect((tokens.body.items as Array<{ name: string }>).some((t) => t.name.includes('\u0000') || t.name.includes('\ufffd'))).toBe(false);
  });

  // Deeper than recursive code can follow (JSON.stringify threw RangeError): it used to be a 500.
  it('refuses JSON nested too deep, in a REST body, GraphQL variables and a GraphQL literal', async () => {
    const deep = (n: number) => '['.repeat(n) + ']'.repeat(n);
    const rest = await request(app.http).post(`/api/v1/games/${gameId}/phases`).set('Authorization', `Bearer ${alice.token}`).set('Content-Type', 'application/json')
      .send(`{"expectedVersion":1,"idempotencyKey":"deep-1","orders":${deep(20_000)}}`);
    expect(rest.status).toBe(400);
    expect(rest.body).toMatchObject({ code: 'request/too_deep', field: expect.stringMatching(/^body\.orders(\[0\])+(\[?0?…)?$/) }); // a path longer than 64 characters is cut as every echo is
    const variables = await request(app.http).post('/graphql').set('Authorization', `Bearer ${alice.token}`).set('Content-Type', 'application/json')
      .send(`{"query":"mutation($o: JSON!) { submitPhase(input: { gameId: \\"${gameId}\\", expectedVersion: 1, idempotencyKey: \\"deep-2\\", orders: $o }) { version } }","variables":{"o":${deep(20_000)}}}`);
    expect(variables.status).toBe(400);
    expect(variables.body.errors[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', errorCode: 'request/too_deep' });
    const literal = await app.gql(alice.token, `mutation { submitPhase(input: { gameId: "${gameId}", expectedVersion: 1, idempotencyKey: "deep-3", orders: ${deep(40)} }) { version } }`);
    expect(firstError(literal).extensions).toMatchObject({ code: 'GRAPHQL_VALIDATION_FAILED' });
    expect(firstError(literal).message).toMatch(/nested more than 32 levels/);
  });

  it('answers a stale version with CONFLICT and the current version', async () => {
    const v = await version();
    const r = await app.gql(alice.token, submit, { input: { gameId, expectedVersion: v - 2, orders: [], idempotencyKey: 'err-3' } });
    expect(firstError(r).extensions).toMatchObject({ code: 'CONFLICT', errorCode: 'game/version_conflict', currentVersion: v, expectedVersion: v - 2 });
    const rest = await request(app.http).post(`/api/v1/games/${gameId}/phases`).set('Authorization', `Bearer ${alice.token}`).set('Idempotency-Key', 'err-3r').send({ expectedVersion: v - 2, orders: [] });
    expect(rest.status).toBe(409);
    expect(rest.body).toMatchObject({ code: 'game/version_conflict', currentVersion: v });
  });

  it('answers NOT_FOUND for an unknown game and an unknown scenario', async () => {
    expect(firstError(await app.gql(alice.token, '{ game(id: "nope") { id } }')).extensions).toMatchObject({ code: 'NOT_FOUND', errorCode: 'game/not_found' });
    expect(firstError(await app.gql(alice.token, 'mutation { createGame(input: { scenarioId: "nope" }) { id } }')).extensions).toMatchObject({ code: 'NOT_FOUND', errorCode: 'scenario/not_found' });
    const rest = await request(app.http).get('/api/v1/games/nope').set('Authorization', `Bearer ${alice.token}`);
    expect(rest.status).toBe(404);
  });

  // The message was built around the id: an empty one left "No game  that you can see.".
  it('names no id, with no double space, for a game asked for by an empty id', async () => {
    const e = firstError(await app.gql(alice.token, '{ game(id: "") { id } }'));
    expect([e.extensions?.['errorCode'], e.message]).toEqual(['game/not_found', 'No game that you can see.']);
  });

  it.each([
    ['a variable of the wrong type', '{"query":"query($v: Int!) { game(id: \\"x\\", atVersion: $v) { id } }","variables":{"v":"seven"}}', 400, 'BAD_USER_INPUT'],
    ['a missing variable', '{"query":"query($v: Int!) { game(id: \\"x\\", atVersion: $v) { id } }"}', 400, 'BAD_USER_INPUT'],
    ['an unknown field', '{"query":"{ nope }"}', 400, 'GRAPHQL_VALIDATION_FAILED'],
    ['an unknown enum value', '{"query":"{ myGames(filter: SOMETIMES) { nodes { id } } }"}', 400, 'GRAPHQL_VALIDATION_FAILED'],
    ['a syntax error', '{"query":"{ me { "}', 400, 'GRAPHQL_PARSE_FAILED'],
    ['no query', '{"variables":{}}', 400, 'BAD_REQUEST'],
    ['a bad cursor', '{"query":"{ myGames(after: \\"garbage\\") { nodes { id } } }"}', 200, 'BAD_USER_INPUT'],
    ['bad game settings', '{"query":"mutation { createGame(input: { scenarioId: \\"kernel-test\\", settings: { deadlineHours: 0 } }) { id } }"}', 200, 'BAD_USER_INPUT'],
    ['an unknown side', '{"query":"mutation { createGame(input: { scenarioId: \\"kernel-test\\", side: \\"Z\\" }) { id } }"}', 200, 'BAD_USER_INPUT'],
  ])('answers %s over GraphQL without a 500 or a stack', async (_name, body, status, code) => {
    const res = await request(app.http).post('/graphql').set('Authorization', `Bearer ${alice.token}`).set('Content-Type', 'application/json').send(body);
    expect(res.status).toBe(status);
    expect(res.body.errors[0].extensions.code).toBe(code);
    expect(JSON.stringify(res.body)).not.toMatch(STACK);
  });

  // Apollo refuses these itself, with an HTTP 400 but no error code, and the formatter took them
  // for unexpected errors: "An unexpected error occurred", INTERNAL_SERVER_ERROR, and a log entry.
  it.each([
    ['a persisted query whose hash is not the query\'s', { query: '{ me { id } }', extensions: { persistedQuery: { version: 1, sha256Hash: 'abc' } } }, /provided sha does not match query/],
    ['a persisted query of an unknown version', { query: '{ me { id } }', extensions: { persistedQuery: { version: 2, sha256Hash: 'abc' } } }, /Unsupported persisted query version/],
  ])('answers %s with a 400 BAD_REQUEST that says so', async (_name, body, message) => {
    const res = await request(app.http).post('/graphql').set('Authorization', `Bearer ${alice.token}`).set('Content-Type', 'application/json').send(JSON.stringify(body));
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ message: expect.stringMatching(message), extensions: { code: 'BAD_REQUEST' } }]);
  });

  it('refuses a subscription sent over HTTP, with or without a token, pointing to graphql-ws', async () => {
    for (const token of [alice.token, null]) {
      const r = await app.gql(token, 'subscription($g: ID!) { gameUpdated(gameId: $g) { version } }', { g: gameId });
      expect(r.status).toBe(400);
      expect(firstError(r).extensions).toMatchObject({ code: 'GRAPHQL_VALIDATION_FAILED' });
      expect(firstError(r).message).toMatch(/graphql-ws/);
    }
  });

  it('answers malformed JSON on /graphql with 400', async () => {
    const res = await request(app.http).post('/graphql').set('Authorization', `Bearer ${alice.token}`).set('Content-Type', 'application/json').send('{"query": ');
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).not.toMatch(STACK);
  });

  // Node refuses these before any route or middleware sees them: its own answer was a bare status
  // line with no body, the one refusal of the API a client could not read as a problem.
  it.each([
    ['a request header too large', `GET /api/v1/games HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Padding: ${'x'.repeat(20_000)}\r\n\r\n`, 431, 'http/headers_too_large'],
    ['a request line that is not HTTP', 'NOT HTTP AT ALL\r\n\r\n', 400, 'http/malformed_request'],
  ])('answers %s with a problem document, as any other refusal', async (_name, sent, status, code) => {
    const { head, body } = await rawExchange(Number(new URL(url).port), sent);
    expect(head.split('\r\n')[0]).toMatch(new RegExp(`^HTTP/1\\.1 ${status} `));
    expect(head).toMatch(/\r\ncontent-type: application\/problem\+json[;\r]/i);
    expect(head).toMatch(new RegExp(`\r\ncontent-length: ${Buffer.byteLength(body)}\r\n`, 'i'));
    expect(JSON.parse(body)).toMatchObject({ type: `https://fieldpost.dev/problems/${code}`, title: expect.any(String), status, code, detail: expect.any(String) });
    // The server is still up for the next request.
    expect((await request(app.http).get('/api/v1/scenarios').set('Authorization', `Bearer ${alice.token}`)).status).toBe(200);
  });

  it.each([
    ['a body field of the wrong type', 'post', '/api/v1/games/:g/phases', { expectedVersion: 'seven', orders: [], idempotencyKey: 'x' }, 'expectedVersion'],
    ['an unknown body field', 'post', '/api/v1/games', { scenarioId: 'kernel-test', colour: 'red' }, 'colour'],
    ['a missing body field', 'post', '/api/v1/games/:g/phases', { expectedVersion: 3, idempotencyKey: 'x' }, 'orders'],
    ['a bad nested field', 'post', '/api/v1/games', { scenarioId: 'kernel-test', settings: { spectators: 'yes' } }, 'settings.spectators'],
    ['a bad query parameter', 'get', '/api/v1/games/:g/history?limit=zero', undefined, 'limit'],
    ['a bad enum', 'get', '/api/v1/games?filter=sometimes', undefined, 'filter'],
    ['no idempotency key', 'post', '/api/v1/games/:g/phases', { expectedVersion: 3, orders: [] }, 'idempotencyKey'],
    ['a check without orders', 'post', '/api/v1/games/:g/phases/check', { expectedVersion: 3 }, 'orders'],
  ] as const)('answers %s over REST with a 400 problem naming the field', async (_name, method, path, body, field) => {
    const r = request(app.http)[method](path.replace(':g', gameId)).set('Authorization', `Bearer ${alice.token}`);
    const res = await (body ? r.send(body) : r);
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    const named = [...(res.body.fields ?? []).map((f: { field: string }) => f.field), res.body.field].filter(Boolean);
    expect(named).toContain(field);
    expect(res.body.detail).toContain(field);
    expect(JSON.stringify(res.body)).not.toMatch(STACK);
  });

  it('hides an unexpected error behind INTERNAL_SERVER_ERROR (GraphQL) and a bare 500 (REST), and logs it', async () => {
    const svc = app.running.app.get(GamesApiService);
    const spy = jest.spyOn(svc, 'scenarios').mockImplementation(() => {
      throw new TypeError('secret internals at /srv/db.ts:3');
    });
    try {
      const r = await app.gql(null, '{ scenarios { nodes { id } } }');
      expect(r.status).toBe(200);
      expect(firstError(r)).toMatchObject({ message: 'An unexpected error occurred. It has been logged.', extensions: { code: 'INTERNAL_SERVER_ERROR' } });
      expect(JSON.stringify(r.body)).not.toMatch(/secret|TypeError/);
      const rest = await request(app.http).get('/api/v1/scenarios');
      expect(rest.status).toBe(500);
      expect(JSON.stringify(rest.body)).not.toMatch(/secret|TypeError/);
    } finally {
      spy.mockRestore();
    }
  });

  it('applies the same limits and error codes to operations over graphql-ws', async () => {
    const ws = wsClient(url, alice.token);
    try {
      for (const [query, message] of [
        ['subscription { gameUpdated(gameId: "x") { game { view { game { view { game { id } } } } } } }', /depth limit/],
        ['subscription { ...__schema } fragment __schema on Subscription { gameUpdated(gameId: "x") { version } }', /reserved for introspection/],
        ['subscription { gameUpdated(gameId: "nope") { version } }', /No game nope/],
        ['subscription { gameUpdated(gameId: "a\\u0000b") { version } }', /A string in the query contains the character U\+0000/],
      ] as const) {
        const sub = collect(ws, query, {});
        await waitFor(() => !!sub.error || sub.completed, `an answer to ${query}`);
        const errors = (sub.error ?? sub.results[0]?.errors) as Array<{ message: string; extensions: Record<string, unknown> }>;
        expect(errors.map((e) => e.message).join('\n')).toMatch(message);
        expect(JSON.stringify(errors)).not.toMatch(STACK);
        expect(['GRAPHQL_VALIDATION_FAILED', 'NOT_FOUND']).toContain(errors[0]!.extensions['code']);
      }
      const nul = collect(ws, 'subscription($g: ID!) { gameUpdated(gameId: $g) { version } }', { g: 'a\u0000b' });
      await waitFor(() => !!nul.error || nul.completed, 'an answer to a variable holding NUL');
      expect((nul.error ?? nul.results[0]?.errors)).toEqual([expect.objectContaining({ extensions: expect.objectContaining({ code: 'BAD_USER_INPUT', errorCode: 'request/nul_character', field: 'variables.g' }) })]);
    } finally {
      await ws.dispose();
    }
  });

  it('refuses updates from a version the game has not reached, as history does, and delivers from the current one', async () => {
    const ws = wsClient(url, alice.token);
    try {
      const now = await version();
      const beyond = collect(ws, 'subscription($g: ID!, $f: Int) { gameUpdated(gameId: $g, fromVersion: $f) { version } }', { g: gameId, f: now + 1 });
      await waitFor(() => !!beyond.error || beyond.completed || beyond.results.length > 0, 'an answer to fromVersion beyond the game');
      const errors = (beyond.error ?? beyond.results[0]?.errors) as Array<{ message: string; extensions: Record<string, unknown> }>;
      expect(errors).toEqual([expect.objectContaining({ extensions: expect.objectContaining({ code: 'BAD_USER_INPUT', errorCode: 'game/no_such_version', field: 'fromVersion', currentVersion: now }) })]);
      expect(errors[0]!.message).toBe(`fromVersion ${now + 1} does not exist yet: the game is at version ${now}, so updates follow version ${now} at most.`);
      const current = collect(ws, 'subscription($g: ID!, $f: Int) { gameUpdated(gameId: $g, fromVersion: $f) { version } }', { g: gameId, f: now });
      const caughtUp = collect(ws, 'subscription($g: ID!, $f: Int) { gameUpdated(gameId: $g, fromVersion: $f) { fromVersion version } }', { g: gameId, f: now - 1 });
      await waitFor(() => caughtUp.results.length > 0, 'the catch-up from one version back');
      expect(caughtUp.results[0]!.data!.gameUpdated).toEqual({ fromVersion: now, version: now });
      expect({ error: current.error, results: current.results, completed: current.completed }).toEqual({ error: null, results: [], completed: false });
      current.dispose();
      caughtUp.dispose();
    } finally {
      await ws.dispose();
    }
  });

  // graphql-ws coerces variables and picks the operation after our checks, raising errors with
  // no code, which the formatter took for internal ones: each was INTERNAL_SERVER_ERROR.
  it.each([
    ['a variable of the wrong type', 'subscription($g: ID!) { gameUpdated(gameId: $g) { version } }', { g: { id: 1 } }, undefined, 'BAD_USER_INPUT', /Variable "\$g" got invalid value/],
    ['a missing variable', 'subscription($g: ID!) { gameUpdated(gameId: $g) { version } }', {}, undefined, 'BAD_USER_INPUT', /Variable "\$g" of required type "ID!" was not provided/],
    ['a fractional Int', 'subscription($g: ID!, $f: Int) { gameUpdated(gameId: $g, fromVersion: $f) { version } }', { g: 'x', f: 1.5 }, undefined, 'BAD_USER_INPUT', /Variable "\$f" got invalid value 1.5/],
    ['an unknown enum value in a query', 'query($f: MyGamesFilter) { myGames(filter: $f) { nodes { id } } }', { f: 'SOMETIMES' }, undefined, 'BAD_USER_INPUT', /Variable "\$f" got invalid value "SOMETIMES"/],
    ['an enum value close to a real one', 'query($f: MyGamesFilter) { myGames(filter: $f) { nodes { id } } }', { f: 'ACTIV' }, undefined, 'BAD_USER_INPUT', /enum\. \[Suggestion hidden\]$/],
    ['two operations and no operation name', 'subscription A { gameUpdated(gameId: "x") { version } } subscription B { gameUpdated(gameId: "y") { version } }', {}, undefined, 'OPERATION_RESOLUTION_FAILURE', /Must provide operation name/],
    ['an unknown operation name', 'subscription A { gameUpdated(gameId: "x") { version } }', {}, 'Z', 'OPERATION_RESOLUTION_FAILURE', /Unknown operation named "Z"/],
  ] as const)('answers %s over graphql-ws as a request error, as over HTTP', async (_name, query, variables, operationName, code, message) => {
    const ws = wsClient(url, alice.token);
    try {
      const got: { errors?: Array<{ message: string; extensions?: Record<string, unknown> }>; done: boolean } = { done: false };
      ws.subscribe(
        { query, variables, ...(operationName ? { operationName } : {}) },
        {
          next: (r) => (got.errors = r.errors as typeof got.errors),
          error: (e) => {
            got.errors = e as typeof got.errors;
            got.done = true;
          },
          complete: () => (got.done = true),
        },
      );
      await waitFor(() => got.done, `an answer to ${_name}`);
      expect(got.errors).toHaveLength(1);
      expect(got.errors![0]!.extensions).toEqual({ code });
      expect(got.errors![0]!.message).toMatch(message);
      expect(JSON.stringify(got.errors)).not.toMatch(STACK);
    } finally {
      await ws.dispose();
    }
  });
});

/** What the server answers to `text`, sent as is on a connection of its own, read until the server closes it. */
function rawExchange(port: number, text: string): Promise<{ head: string; body: string }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect(port, '127.0.0.1', () => socket.write(text));
    socket.on('data', (d) => chunks.push(d));
    socket.on('error', reject);
    socket.on('close', () => {
      const answer = Buffer.concat(chunks).toString('utf8');
      const at = answer.indexOf('\r\n\r\n');
      resolve(at < 0 ? { head: answer, body: '' } : { head: answer.slice(0, at + 2), body: answer.slice(at + 4) });
    });
  });
}

describe('a database saturated for longer than the pool waits', () => {
  it('answers 503 server/busy with Retry-After over REST and SERVICE_UNAVAILABLE over GraphQL, not a 500', async () => {
    // One connection, held by someone else for the whole test: every request waits for it in vain.
    const app = await apiApp({ DATABASE_POOL_MAX: '1' });
    const player = await app.player('Busy');
    const held = await app.running.app.get(PrismaService).pool.connect();
    try {
      const [rest, gql] = await Promise.all([
        request(app.http).post('/api/v1/games').set('Authorization', `Bearer ${player.token}`).send({ scenarioId: 'kernel-test' }),
        app.gql(player.token, 'mutation { createGame(input: { scenarioId: "kernel-test" }) { id } }'),
      ]);
      expect(rest.status).toBe(503);
      expect(rest.headers['retry-after']).toBe('1');
      expect(rest.body).toMatchObject({ code: 'server/busy', status: 503 });
      expect(JSON.stringify(rest.body)).not.toMatch(STACK);
      expect(firstError(gql).extensions).toMatchObject({ code: 'SERVICE_UNAVAILABLE', errorCode: 'server/busy' });
    } finally {
      held.release();
      await app.close();
    }
  }, 60_000);
});
