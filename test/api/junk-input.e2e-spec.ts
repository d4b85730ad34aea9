import {
  buildClientSchema,
  getIntrospectionQuery,
  getNamedType,
  GraphQLArgument,
  GraphQLField,
  GraphQLInputType,
  GraphQLSchema,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isScalarType,
  IntrospectionQuery,
} from 'graphql';
import request from 'supertest';
import { apiApp, ApiApp, data, TestPlayer } from './support/api-app';
import { kernelScript } from './support/kernel-script';
import { exampleOf, OpenApiDocument, operationFor, operations, SchemaObject } from './support/openapi-schema';

/**
 * Nesting deeper than JSON.stringify's recursion can follow (it threw RangeError: a 500). The
 * test cannot stringify it either, so it stands in the values as a marker that `wire` expands.
 */
const DEEP_TEXT = '['.repeat(20_000) + ']'.repeat(20_000);
const DEEP = '<deep nesting>';

/**
 * A path segment as a client would send it. encodeURIComponent refuses half a surrogate pair;
 * a client writing its own bytes sends it as the three bytes UTF-8 would give it (not UTF-8).
 */
function pathSegment(text: string): string {
  return text.split(/([\ud800-\udfff])/).map((part) => (/^[\ud800-\udfff]$/.test(part) ? '%ED%A0%80' : encodeURIComponent(part))).join('');
}

/** The JSON text of a value, with the deep-nesting marker expanded into the real thing. */
function wire(v: unknown): string {
  return JSON.stringify(v).split(JSON.stringify(DEEP)).join(DEEP_TEXT);
}

/**
 * Far more requests than a player may make a minute: refused by the rate limit, most of the junk
 * never reached the routes (each refusal a 429, which is no 500).
 */
const UNLIMITED = { RATE_LIMIT_PER_TOKEN: '1000000' };

/** Values that have broken servers before: wrong types, edge numbers, names every object has, deep nesting. */
const JUNK: unknown[] = [DEEP, null, -1, 0, 1.5, 2 ** 53, 1e308, '', ' ', 'constructor', '__proto__', 'toString', '%00', '\u0000', 'a\u0000b', { 'k\u0000': 1 }, 'a\ud800b', ['\udfff'], 'x'.repeat(5000), 'y'.repeat(200_000), true, [], {}, [[]], { constructor: null }, ['constructor']];

/**
 * Every REST route, called with bodies, path and query values that are wrong in every way we
 * could think of: each must answer with a 4xx (or a success where the junk happens to be
 * acceptable), never a 500. The answers' content is checked by the route's own tests; this only
 * guards the promise that bad input never reaches an unexpected error.
 */
describe('junk input on every REST route', () => {
  let app: ApiApp;
  let doc: OpenApiDocument;
  let alice: TestPlayer;
  let gameId: string;
  let seed = Number(process.env.FUZZ_SEED ?? 7);
  const rnd = () => {
    seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
    return seed / 2 ** 32;
  };
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;

  beforeAll(async () => {
    app = await apiApp(UNLIMITED, { entries: [kernelScript.entry()] });
    doc = (await request(app.http).get('/docs-json')).body as OpenApiDocument;
    alice = await app.player('Alice');
    const bob = await app.player('Bob');
    gameId = data(await app.gql(alice.token, 'mutation { createGame(input: { scenarioId: "kernel-test", side: "A" }) { id } }'))['createGame'].id;
    const token = data(await app.gql(alice.token, 'mutation($g: ID!) { invite(input: { gameId: $g, side: "B" }) { token } }', { g: gameId }))['invite'].token;
    data(await app.gql(bob.token, 'mutation($t: String!) { joinGame(token: $t) { version } }', { t: token }));
  });
  afterAll(async () => {
    await app.close();
  });

  /** A value the schema admits, built from its shape: the junk then breaks one part of it. */
  const example = (s: SchemaObject | undefined): unknown => exampleOf(doc, s, pick);

  function breakOne(v: unknown): unknown {
    if (rnd() < 0.15) return pick(JUNK);
    if (Array.isArray(v)) return v.length > 0 && rnd() < 0.7 ? v.map((x, i) => (i === 0 ? breakOne(x) : x)) : [...v, pick(JUNK)];
    if (v !== null && typeof v === 'object') {
      const o = { ...(v as Record<string, unknown>) };
      const keys = Object.keys(o);
      const r = rnd();
      if (keys.length > 0 && r < 0.2) delete o[pick(keys)];
      else if (keys.length > 0 && r < 0.8) {
        const k = pick(keys);
        o[k] = breakOne(o[k]);
      } else {
        // defineProperty: an assignment to "__proto__" would set the prototype, not send the key.
        Object.defineProperty(o, pick(['constructor', '__proto__', 'extra']), { value: pick(JUNK), enumerable: true, writable: true, configurable: true });
      }
      return o;
    }
    return pick(JUNK);
  }

  const reachedOperation = (method: string, path: string) => {
    try {
      return operationFor(doc, method, path);
    } catch {
      return null;
    }
  };

  const asText = (v: unknown): string => (typeof v === 'string' && v !== DEEP ? v : String(JSON.stringify(v)));

  it('never answers 500, nor a 4xx the OpenAPI document does not declare for the operation', async () => {
    const failures: string[] = [];
    const undeclared = new Set<string>();
    let calls = 0;
    const call = async (method: string, path: string, query: Record<string, string>, body: unknown) => {
      const req = request(app.http)[method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete'](path).query(query).set('Authorization', `Bearer ${alice.token}`);
      if (body !== undefined) req.set('Idempotency-Key', `junk-${calls}`).set('Content-Type', 'application/json');
      // The body as the wire carries it: JSON, or a bare string that is not JSON at all.
      const res = body === undefined ? await req : await req.send(typeof body === 'string' && body !== DEEP ? body : wire(body));
      calls++;
      if (res.status >= 500 || res.status === 429) failures.push(`${method} ${path} ${JSON.stringify(query)} ${asText(body).slice(0, 200)} -> ${res.status} ${asText(res.body).slice(0, 200)}`);
      else if (res.status >= 400) {
        // The operation the request reached: junk that empties a path segment reaches another path, or none.
        const reached = reachedOperation(method, path);
        if (reached && !reached.operation.responses[String(res.status)]) undeclared.add(`${reached.key} ${res.status} ${(res.body as { code?: string }).code}`);
      }
    };
    for (const { key, operation } of operations(doc)) {
      const [method, template] = key.split(' ') as [string, string];
      const bodySchema = operation.requestBody?.content?.['application/json']?.schema;
      const hasBody = bodySchema !== undefined || method !== 'GET';
      const fill = (junkFor?: string, junk?: unknown) =>
        template.replace(/\{([^}]+)\}/g, (_m, name: string) => pathSegment(name === junkFor ? asText(junk).slice(0, 300) : name === 'gameId' ? gameId : 'x'));
      const valid = () => (bodySchema ? example(bodySchema) : hasBody ? {} : undefined);
      // Each junk value in each place once: every path and query parameter, every body field, the whole body.
      for (const junk of JUNK) {
        for (const name of template.match(/\{([^}]+)\}/g) ?? []) await call(method, fill(name.slice(1, -1), junk), {}, valid());
        for (const p of (operation.parameters ?? []).filter((x) => x.in === 'query')) await call(method, fill(), { [p.name]: asText(junk).slice(0, 300) }, valid());
        const fields = bodySchema ? Object.keys((example(bodySchema) as Record<string, unknown> | null) ?? {}) : [];
        for (const f of fields) await call(method, fill(), {}, { ...(valid() as object), [f]: junk });
        if (hasBody) await call(method, fill(), {}, junk);
      }
      // Then random breakage, deeper inside the bodies.
      for (let n = 0; n < Number(process.env.FUZZ_N ?? 10); n++) {
        const query = Object.fromEntries((operation.parameters ?? []).filter((p) => p.in === 'query' && rnd() < 0.7).map((p) => [p.name, asText(rnd() < 0.5 ? example(p.schema) : pick(JUNK)).slice(0, 300)]));
        await call(method, fill(), query, hasBody ? breakOne(valid()) : undefined);
      }
    }
    expect(calls).toBeGreaterThan(1000);
    expect(failures).toEqual([]);
    expect([...undeclared].sort()).toEqual([]);
    // Over a thousand calls, each now authenticated (a token lookup) before its body is judged, so
    // that a refused body counts against the player's rate limit too: alone it takes about 50 s.
  }, 150_000);
});

/**
 * The same promise for GraphQL: every query and mutation, with each argument (and each field of
 * an input object) given values of the right GraphQL type but the wrong meaning. GraphQL checks
 * types, so only values it lets through are sent: long and odd strings, edge integers, huge
 * floats, and any JSON where the type is JSON.
 */
describe('junk input on every GraphQL query and mutation', () => {
  let app: ApiApp;
  let schema: GraphQLSchema;
  let alice: TestPlayer;
  let gameId: string;

  beforeAll(async () => {
    app = await apiApp(UNLIMITED, { entries: [kernelScript.entry()] });
    alice = await app.player('Alice');
    schema = buildClientSchema(data(await app.gql(alice.token, getIntrospectionQuery())) as IntrospectionQuery);
    gameId = data(await app.gql(alice.token, 'mutation { createGame(input: { scenarioId: "kernel-test", side: "A" }) { id } }'))['createGame'].id;
  });
  afterAll(async () => {
    await app.close();
  });

  const STRINGS = ['', ' ', 'constructor', '__proto__', 'toString', '%00', '\u0000', 'a\ud800b', 'x'.repeat(5000), 'nope'];
  const INTS = [0, -1, -2_147_483_648, 2_147_483_647];
  const FLOATS = [-1, 0, 1e308, -1e308, 0.000001];

  /** A plausible value of a GraphQL input type, or null when the type admits it and we choose so. */
  function plausible(type: GraphQLInputType, name: string, depth = 0): unknown {
    if (isNonNullType(type)) return plausible(type.ofType, name, depth);
    if (isListType(type)) return [plausible(type.ofType, name, depth + 1)];
    if (isEnumType(type)) return type.getValues()[0]!.value;
    if (isInputObjectType(type)) {
      if (depth > 4) return {};
      return Object.fromEntries(Object.values(type.getFields()).filter((f) => isNonNullType(f.type)).map((f) => [f.name, plausible(f.type, f.name, depth + 1)]));
    }
    switch (type.name) {
      case 'ID':
        return /game/i.test(name) ? gameId : 'x';
      case 'Int':
        return 1;
      case 'Float':
        return 1;
      case 'Boolean':
        return true;
      case 'JSON':
        return [];
      default:
        return 'x';
    }
  }

  /** The wrong-meaning values GraphQL still accepts for this type. */
  function junkFor(type: GraphQLInputType): unknown[] {
    const named = getNamedType(type);
    if (!isScalarType(named)) return [];
    switch (named.name) {
      case 'ID':
      case 'String':
        return STRINGS;
      case 'Int':
        return INTS;
      case 'Float':
        return FLOATS;
      case 'JSON':
        return JUNK;
      case 'DateTime':
        return ['0000-00-00T00:00:00Z', '9999-12-31T23:59:59Z', 'yesterday'];
      default:
        return [];
    }
  }

  /** Each junk value for one argument, or for one field of an argument that is an input object. */
  function variants(arg: GraphQLArgument): Array<{ label: string; value: unknown }> {
    const base = plausible(arg.type, arg.name);
    const out = junkFor(arg.type).map((value) => ({ label: `${arg.name}=${JSON.stringify(value)?.slice(0, 40)}`, value: isListType(isNonNullType(arg.type) ? arg.type.ofType : arg.type) ? [value] : value }));
    const named = getNamedType(arg.type);
    if (isInputObjectType(named)) {
      for (const f of Object.values(named.getFields())) {
        for (const value of junkFor(f.type)) out.push({ label: `${arg.name}.${f.name}=${JSON.stringify(value)?.slice(0, 40)}`, value: { ...(base as object), [f.name]: value } });
      }
    }
    return out;
  }

  function operation(kind: 'query' | 'mutation', field: GraphQLField<unknown, unknown>): string {
    const decl = field.args.map((a) => `$${a.name}: ${a.type.toString()}`).join(', ');
    const use = field.args.map((a) => `${a.name}: $${a.name}`).join(', ');
    return `${kind}${decl ? `(${decl})` : ''} { ${field.name}${use ? `(${use})` : ''} { __typename } }`;
  }

  it('never answers INTERNAL_SERVER_ERROR', async () => {
    const failures: string[] = [];
    let calls = 0;
    for (const [kind, root] of [['query', schema.getQueryType()], ['mutation', schema.getMutationType()]] as const) {
      for (const field of Object.values(root!.getFields())) {
        // Scalar-returning fields take no selection set; none of ours has arguments worth junk.
        if (isScalarType(getNamedType(field.type))) continue;
        const query = operation(kind, field);
        const plain = Object.fromEntries(field.args.map((a) => [a.name, plausible(a.type, a.name)]));
        for (const arg of field.args) {
          for (const v of variants(arg)) {
            // Sent as text, like any client would: the deep-nesting marker must become JSON itself.
            const res = await request(app.http).post('/graphql').set('Authorization', `Bearer ${alice.token}`).set('Content-Type', 'application/json').send(wire({ query, variables: { ...plain, [arg.name]: v.value } }));
            const r = { status: res.status, body: res.body as { errors?: Array<{ extensions?: Record<string, unknown> }> } };
            calls++;
            const internal = (r.body.errors ?? []).filter((e) => e.extensions?.['code'] === 'INTERNAL_SERVER_ERROR');
            if (r.status >= 500 || r.status === 429 || internal.length > 0) failures.push(`${field.name}(${v.label}) -> ${r.status} ${JSON.stringify(r.body.errors?.[0]).slice(0, 200)}`);
          }
        }
      }
    }
    expect(calls).toBeGreaterThan(300);
    expect(failures).toEqual([]);
  });
});
