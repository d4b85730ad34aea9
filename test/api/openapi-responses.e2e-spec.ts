import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { RequestMethod, Type } from '@nestjs/common';
import { HTTP_CODE_METADATA, METHOD_METADATA } from '@nestjs/common/constants';
import { ModulesContainer } from '@nestjs/core';
import request from 'supertest';
import { PrismaService } from '../../src/database/prisma.service';
import { uniqueId } from '../support/database';
import { apiApp, ApiApp, data, TestPlayer } from './support/api-app';
import { kernelScript } from './support/kernel-script';
import { exampleOf, methodsAt, OpenApiDocument, OperationObject, operationFor as operationForIn, operations, resolveRef, SchemaObject, schemaMismatches } from './support/openapi-schema';

/**
 * The success answers that carry no JSON body, and why. Every other 2xx answer of the REST API
 * must have an application/json schema: clients generate their code from the document.
 */
const WITHOUT_JSON: Record<string, { status: string; mediaType: string | null; reason: string }> = {
  'DELETE /api/v1/me/notifications/discord': { status: '204', mediaType: null, reason: 'No Content: the webhook is gone and there is nothing to say about it.' },
  'DELETE /api/v1/me/notifications/endpoints/{endpointId}': { status: '204', mediaType: null, reason: 'No Content: the endpoint is gone and there is nothing to say about it.' },
  'GET /api/v1/auth/magic-link': { status: '200', mediaType: 'text/html', reason: 'The page sign-in mails link to: HTML for a browser, not an answer for a client.' },
  'GET /api/v1/notifications/unsubscribe': { status: '200', mediaType: 'text/html', reason: 'The page a mail\'s unsubscribe link opens: a button for a person, as mail scanners open links.' },
  'POST /api/v1/notifications/unsubscribe': { status: '200', mediaType: 'text/plain', reason: 'What a mail client\'s one-click unsubscribe (RFC 8058) or that page\'s button gets: a sentence.' },
};

async function openApi(app: ApiApp): Promise<OpenApiDocument> {
  const res = await request(app.http).get('/docs-json');
  if (res.status !== 200) throw new Error(`GET /docs-json: ${res.status}`);
  return res.body as OpenApiDocument;
}

function successStatuses(operation: OperationObject): string[] {
  return Object.keys(operation.responses).filter((status) => status.startsWith('2'));
}

describe('the OpenAPI document of the REST API', () => {
  let app: ApiApp;
  let doc: OpenApiDocument;
  beforeAll(async () => {
    app = await apiApp();
    doc = await openApi(app);
  });
  afterAll(async () => {
    await app.close();
  });

  it('documents every HTTP handler the server has once (GraphQL apart), with the success status the handler really sends', () => {
    const byOperationId = new Map(operations(doc).map((o) => [o.operation.operationId, o.operation]));
    const wrong: string[] = [];
    let handlers = 0;
    // Every controller of every module the app runs, not a list kept beside the docs' own.
    const controllers = [...app.running.app.get(ModulesContainer).values()].flatMap((m) => [...m.controllers.values()].map((w) => w.metatype as Type));
    expect(controllers.length).toBeGreaterThan(5);
    for (const controller of controllers) {
      for (const name of Object.getOwnPropertyNames(controller.prototype)) {
        const handler: unknown = Object.getOwnPropertyDescriptor(controller.prototype, name)?.value;
        const method = typeof handler === 'function' ? (Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod | undefined) : undefined;
        if (method === undefined) continue;
        handlers++;
        // What Nest answers with on success: @HttpCode if given, else 201 for POST and 200 otherwise.
        const sent = String(Reflect.getMetadata(HTTP_CODE_METADATA, handler as object) ?? (method === RequestMethod.POST ? 201 : 200));
        const operation = byOperationId.get(`${controller.name}_${name}`);
        const documented = operation ? successStatuses(operation) : [];
        if (documented.join(', ') !== sent) wrong.push(`${controller.name}.${name} sends ${sent} but documents ${documented.join(', ') || 'no success at all'}`);
      }
    }
    expect(wrong).toEqual([]);
    expect(operations(doc)).toHaveLength(handlers);
  });

  it('gives every success answer a JSON schema, except the answers listed without one', () => {
    const missing: string[] = [];
    const listed: string[] = [];
    for (const { key, operation } of operations(doc)) {
      if (successStatuses(operation).length === 0) missing.push(`${key}: documents no success answer`);
      for (const status of successStatuses(operation)) {
        const response = operation.responses[status]!;
        const exception = WITHOUT_JSON[key];
        if (exception) {
          listed.push(key);
          const mediaTypes = Object.keys(response.content ?? {});
          const described = mediaTypes.every((m) => response.content![m]!.schema !== undefined);
          expect({ key, status, mediaTypes, described }).toEqual({ key, status: exception.status, mediaTypes: exception.mediaType ? [exception.mediaType] : [], described: true });
          continue;
        }
        const schema = response.content?.['application/json']?.schema;
        if (!schema) missing.push(`${key} ${status}: no application/json schema`);
        else if (schema.$ref && !resolveRef(doc, schema.$ref)) missing.push(`${key} ${status}: ${schema.$ref} is not defined`);
      }
    }
    expect(missing).toEqual([]);
    expect(listed.sort()).toEqual(Object.keys(WITHOUT_JSON).sort());
  });

  it('says no word twice in a row in any description ("The the game\'s invitations")', () => {
    const doubled: string[] = [];
    const walk = (node: unknown, at: string): void => {
      if (Array.isArray(node)) node.forEach((n, i) => walk(n, `${at}[${i}]`));
      else if (node && typeof node === 'object') for (const [k, v] of Object.entries(node)) walk(v, `${at}.${k}`);
      else if (typeof node === 'string' && /(description|summary)$/.test(at) && /\b(\w+)\s+\1\b/i.test(node)) doubled.push(`${at}: ${node}`);
    };
    walk(doc, '');
    expect(doubled).toEqual([]);
  });

  it('defines every schema it refers to', () => {
    const dangling = new Set<string>();
    const visit = (node: unknown): void => {
      if (Array.isArray(node)) node.forEach(visit);
      else if (node && typeof node === 'object') {
        for (const [k, v] of Object.entries(node)) {
          if (k === '$ref' && typeof v === 'string' && !resolveRef(doc, v)) dangling.add(v);
          else visit(v);
        }
      }
    };
    visit(doc);
    expect([...dangling]).toEqual([]);
  });
});

describe('real REST answers against the schemas the OpenAPI document gives them', () => {
  let app: ApiApp;
  let doc: OpenApiDocument;
  let alice: TestPlayer;
  let bob: TestPlayer;
  beforeAll(async () => {
    app = await apiApp({}, { entries: [kernelScript.entry()] });
    doc = await openApi(app);
    alice = await app.player('Alice');
    bob = await app.player('Bob');
  });
  afterAll(async () => {
    await app.close();
  });

  const operationFor = (method: string, url: string) => operationForIn(doc, method, url);

  /** Calls a route for real and checks its body against the schema documented for the status it answered with. */
  async function call(player: TestPlayer | null, method: 'get' | 'post' | 'put' | 'patch' | 'delete', url: string, body?: object): Promise<any> {
    const req = request(app.http)[method](url);
    if (player) req.set('Authorization', `Bearer ${player.token}`);
    const res = body === undefined ? await req : await req.send(body);
    const { key, operation } = operationFor(method, url);
    const status = String(res.status);
    if (!successStatuses(operation).includes(status)) throw new Error(`${key} answered ${status}, which it does not document as a success: ${JSON.stringify(res.body)}`);
    const schema = operation.responses[status]!.content?.['application/json']?.schema;
    if (!schema) throw new Error(`${key} ${status} has no JSON schema`);
    expect({ route: `${key} ${status}`, mismatches: schemaMismatches(doc, schema, res.body) }).toEqual({ route: `${key} ${status}`, mismatches: [] });
    return res.body;
  }

  it('match for a game from creation through setup and play to resignation', async () => {
    const created = await call(alice, 'post', '/api/v1/games', { scenarioId: kernelScript.scenarioId, side: kernelScript.creatorSide, title: 'Schema check' });
    const gameId: string = created.game.id;
    const invitation = await call(alice, 'post', `/api/v1/games/${gameId}/invitations`, { side: kernelScript.joinerSide });
    const joined = await call(bob, 'post', '/api/v1/join', { token: invitation.token });
    expect(joined.started).toBe(true);

    const [aliceSetup, bobSetup] = kernelScript.steps;
    const sealed = await call(alice, 'post', `/api/v1/games/${gameId}/phases`, { expectedVersion: joined.game.version, orders: aliceSetup!.orders, idempotencyKey: 'schema-setup-a' });
    const revealed = await call(bob, 'post', `/api/v1/games/${gameId}/phases`, { expectedVersion: sealed.game.version, orders: bobSetup!.orders, idempotencyKey: 'schema-setup-b' });
    expect(revealed.phase).toMatchObject({ status: 'active', turn: 1 });

    const game = await call(alice, 'get', `/api/v1/games/${gameId}`);
    expect(game.deadlineAt).not.toBeNull();
    const view = await call(alice, 'get', `/api/v1/games/${gameId}/view`);
    expect([view.map === null, view.units.length > 0, view.stacks.length > 0]).toEqual([false, true, true]);
    const options = await call(alice, 'get', `/api/v1/games/${gameId}/units/a-ship/options`);
    expect(options.moves.length).toBeGreaterThan(0);
    const legal = await call(alice, 'post', `/api/v1/games/${gameId}/phases/check`, { expectedVersion: game.version, orders: [{ kind: 'move', unit: 'a-ship', path: ['0204'] }] });
    expect(legal).toEqual({ valid: true, version: game.version, violations: [] });
    const illegal = await call(alice, 'post', `/api/v1/games/${gameId}/phases/check`, { expectedVersion: game.version, orders: [{ kind: 'move', unit: 'b-m48', path: ['0504'] }] });
    expect([illegal.valid, illegal.violations.length > 0]).toEqual([false, true]);
    const history = await call(alice, 'get', `/api/v1/games/${gameId}/history?limit=5`);
    expect([history.events.length > 0, history.nextCursor === null]).toEqual([true, false]);
    await call(alice, 'get', `/api/v1/games/${gameId}/history?cursor=${encodeURIComponent(history.nextCursor)}`);
    await call(alice, 'get', '/api/v1/games');

    const resigned = await call(alice, 'post', `/api/v1/games/${gameId}/resign`, { expectedVersion: game.version });
    expect(resigned.game.result).toMatchObject({ winner: kernelScript.joinerSide });
    const finished = await call(bob, 'get', `/api/v1/games/${gameId}`);
    expect(finished.seed).not.toBeNull();
    const exported = await call(bob, 'get', `/api/v1/games/${gameId}/export`);
    expect(exported.dice.seed).toBe(finished.seed);
  });

  it('match for the caller\'s account, notification settings, open challenges and the scenarios', async () => {
    const health = await call(null, 'get', '/health');
    expect(health.database.status).toBe('up');
    await call(alice, 'get', '/api/v1/me');
    const issued = await call(alice, 'post', '/api/v1/me/tokens', { name: 'schema check' });
    await call(alice, 'get', '/api/v1/me/tokens');
    const revoked = await call(alice, 'delete', `/api/v1/me/tokens/${issued.apiToken.id}`);
    expect(revoked.revokedAt).not.toBeNull();

    await call(alice, 'get', '/api/v1/me/notifications');
    const changed = await call(alice, 'patch', '/api/v1/me/notifications', { quietStart: '22:00', quietEnd: '07:30', digest: true });
    expect(changed.quietHours).toEqual({ start: '22:00', end: '07:30' });
    // A dead letter, made in the database as the delivery worker would leave it, so the list has an item to check.
    const prisma = app.running.app.get(PrismaService);
    const notificationId = uniqueId('n');
    await prisma.notification.create({ data: { id: notificationId, playerId: alice.id, kind: 'your_turn', content: {} } });
    await prisma.notificationDelivery.create({ data: { id: uniqueId('d'), notificationId, playerId: alice.id, channel: 'email', status: 'dead', attempts: 9, notBefore: new Date(), lastError: 'SMTP: 550 no such mailbox', lastStatus: 550, finishedAt: new Date() } });
    const dead = await call(alice, 'get', '/api/v1/me/notifications/deliveries?status=dead');
    expect(dead.items).toHaveLength(1);
    const again = await call(alice, 'post', `/api/v1/me/notifications/deliveries/${dead.items[0].id}/redeliver`);
    expect(again.status).toBe('pending');

    const created = await call(alice, 'post', '/api/v1/games', { scenarioId: kernelScript.scenarioId, side: kernelScript.creatorSide });
    const challenge = await call(alice, 'post', `/api/v1/games/${created.game.id}/invitations`, { side: kernelScript.joinerSide, kind: 'open' });
    expect(challenge.token).toBeNull();
    const spare = await call(alice, 'post', `/api/v1/games/${created.game.id}/invitations`, { side: kernelScript.joinerSide });
    const withdrawn = await call(alice, 'delete', `/api/v1/games/${created.game.id}/invitations/${spare.id}`);
    expect(withdrawn).toMatchObject({ id: spare.id, status: 'ended', usedAt: null });
    const listed = await call(alice, 'get', `/api/v1/games/${created.game.id}/invitations`);
    expect(listed.items.map((i: { id: string; status: string }) => [i.id, i.status])).toEqual([
      [spare.id, 'ended'],
      [challenge.id, 'open'],
    ]);
    // GraphQL says the same.
    const viaGraphql = data(await app.gql(alice.token, 'query($g: ID!) { gameInvitations(gameId: $g) { nodes { id kind status } } }', { g: created.game.id }))['gameInvitations'].nodes;
    expect(viaGraphql).toEqual([
      { id: spare.id, kind: 'TOKEN', status: 'ended' },
      { id: challenge.id, kind: 'OPEN', status: 'open' },
    ]);
    // Other suites' challenges share the list, some dated days ahead by their test clocks: page to it.
    const open: string[] = [];
    for (let page = await call(bob, 'get', '/api/v1/invitations/open?limit=100'); ; page = await call(bob, 'get', `/api/v1/invitations/open?limit=100&cursor=${page.nextCursor}`)) {
      open.push(...page.items.map((c: { id: string }) => c.id));
      if (page.nextCursor === null || open.includes(challenge.id)) break;
    }
    expect(open).toContain(challenge.id);

    await call(null, 'get', '/api/v1/scenarios');
    const scenario = await call(null, 'get', `/api/v1/scenarios/${kernelScript.scenarioId}`);
    expect(scenario.map).not.toBeNull();
  });

  it('catch a body that lacks a required property or carries an undocumented one', async () => {
    const created = await call(alice, 'post', '/api/v1/games', { scenarioId: kernelScript.scenarioId, side: kernelScript.creatorSide });
    const schema = operationFor('get', `/api/v1/games/${created.game.id}`).operation.responses['200']!.content!['application/json']!.schema!;
    const { version: _version, ...withoutVersion } = created.game;
    const drifted = { ...withoutVersion, settings: { ...created.game.settings, colour: 'red' } };
    expect(schemaMismatches(doc, schema, drifted).sort()).toEqual(['$.settings.colour: in the body, missing from the schema', '$.version: required by the schema, missing from the body']);
  });
});

/** A loopback port nothing listens on: a mail server that is down. */
async function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

/** Whatever answers a probe got that its operation does not declare, and refusals that are not problem documents. */
class ErrorAnswers {
  readonly undeclared = new Set<string>();
  readonly probed = new Map<string, Set<number>>();

  constructor(private readonly doc: OpenApiDocument) {}

  note(method: string, url: string, res: request.Response): void {
    const { key, operation } = operationForIn(this.doc, method, url);
    this.probed.set(key, (this.probed.get(key) ?? new Set()).add(res.status));
    if (res.status < 400) return;
    const body = res.body as { code?: unknown };
    const declared = operation.responses[String(res.status)];
    if (!declared) this.undeclared.add(`${key} ${res.status} ${String(body.code)}`);
    // A 503 says whether to retry soon (the database was busy) or not on this server (a game
    // system it lacks): a client reads which from the code, so the declaration names each one.
    else if (res.status >= 500 && !String(declared.description).includes(`\`${String(body.code)}\``)) this.undeclared.add(`${key} ${res.status} ${String(body.code)}: a code its declaration does not name`);
    if (!/application\/problem\+json/.test(String(res.headers['content-type'])) || typeof body.code !== 'string') this.undeclared.add(`${key} ${res.status}: not a problem document with a code`);
  }
}

/**
 * Clients generate their error handling from the document too: each error status an operation
 * answers with must be declared for it. Every operation gets the same representative bad
 * requests (a bad token, none, a query the input guards refuse, unknown ids, a game the caller
 * cannot see or only watches, a finished and an unstarted game, a stale version, bodies that are
 * empty, unknown, not JSON or too large, and too many requests), plus the situations only some
 * operations meet (a used, expired or taken invitation; a sign-in link without mail).
 */
describe('error answers against the statuses the OpenAPI document declares', () => {
  let app: ApiApp;
  let doc: OpenApiDocument;
  let answers: ErrorAnswers;
  let alice: TestPlayer;
  let bob: TestPlayer;
  let eve: TestPlayer;
  const games = { active: '', seating: '', finished: '', foreign: '', watched: '' };

  beforeAll(async () => {
    // Hundreds of probes, malformed bodies among them, which count against the rate limit: the
    // limit's own 429 is probed on an app of its own (below), not left to cut this run short.
    app = await apiApp({ RATE_LIMIT_PER_TOKEN: '1000000' }, { entries: [kernelScript.entry()] });
    doc = await openApi(app);
    answers = new ErrorAnswers(doc);
    [alice, bob, eve] = await Promise.all([app.player('Alice'), app.player('Bob'), app.player('Eve')]);
    const rest = (player: TestPlayer, method: 'post' | 'get', url: string, body?: object) => request(app.http)[method](url).set('Authorization', `Bearer ${player.token}`).send(body);
    const started = async (owner: TestPlayer, joiner: TestPlayer, settings: object = {}) => {
      const created = await rest(owner, 'post', '/api/v1/games', { scenarioId: kernelScript.scenarioId, side: kernelScript.creatorSide, settings });
      const invitation = await rest(owner, 'post', `/api/v1/games/${created.body.game.id}/invitations`, { side: kernelScript.joinerSide });
      const joined = await rest(joiner, 'post', '/api/v1/join', { token: invitation.body.token });
      expect(joined.status).toBe(200);
      return { id: created.body.game.id as string, version: joined.body.game.version as number };
    };
    games.active = (await started(alice, bob)).id;
    const finished = await started(alice, bob);
    expect((await rest(alice, 'post', `/api/v1/games/${finished.id}/resign`, { expectedVersion: finished.version })).status).toBe(200);
    games.finished = finished.id;
    games.watched = (await started(eve, bob, { spectators: true })).id;
    games.seating = (await rest(alice, 'post', '/api/v1/games', { scenarioId: kernelScript.scenarioId, side: kernelScript.creatorSide })).body.game.id;
    games.foreign = (await rest(eve, 'post', '/api/v1/games', { scenarioId: kernelScript.scenarioId, side: kernelScript.creatorSide })).body.game.id;
  });
  afterAll(async () => {
    await app.close();
  });

  type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
  interface Probe {
    token?: string | null;
    url: string;
    body?: string;
    contentType?: string;
  }

  async function send(method: Method, p: Probe, on: { app: ApiApp; answers: ErrorAnswers } = { app, answers }): Promise<request.Response> {
    const req = request(on.app.http)[method](p.url);
    const token = p.token === undefined ? alice.token : p.token;
    if (token !== null) req.set('Authorization', `Bearer ${token}`);
    const res = p.body === undefined ? await req : await req.set('Content-Type', p.contentType ?? 'application/json').send(p.body);
    on.answers.note(method, p.url, res);
    return res;
  }

  /** The representative bad requests for one operation, made from what the document says it takes. */
  function probesFor(template: string, operation: OperationObject): Probe[] {
    const fill = (values: Record<string, string>) => template.replace(/\{([^}]+)\}/g, (_m, name: string) => encodeURIComponent(values[name] ?? (name === 'gameId' ? games.active : name === 'unitId' ? 'a-ship' : 'nope')));
    const params = (template.match(/\{([^}]+)\}/g) ?? []).map((p) => p.slice(1, -1));
    const schema = operation.requestBody?.content?.['application/json']?.schema;
    // An expectedVersion of 0 is stale for every game: a game is at version 1 once created.
    const full = schema ? { ...(exampleOf(doc, schema) as object), ...(hasProperty(schema, 'expectedVersion') ? { expectedVersion: 0 } : {}) } : undefined;
    const example = full && JSON.stringify(full);
    // The required fields alone: an example's optional ones are as likely to be refused first.
    const bare = full && JSON.stringify(Object.fromEntries(Object.entries(full).filter(([k]) => requiredOf(schema!).includes(k))));
    const url = fill({});
    const probes: Probe[] = [
      { url, body: example, token: 'fp_not-a-token' },
      { url, body: example, token: null },
      { url: `${url}?zzz=%00`, body: example },
      { url: `${url}?zzz=1`, body: example },
      ...params.map((name) => ({ url: fill({ [name]: 'nope' }), body: example })),
      ...(params.includes('gameId') ? [games.foreign, games.watched, games.finished, games.seating].map((gameId) => ({ url: fill({ gameId }), body: example })) : []),
      // With a body that asks nothing (every field of a settings patch is optional), so the game is what is judged.
      ...(operation.parameters ?? []).filter((p) => p.in === 'query' && p.name === 'gameId').flatMap((p) => [games.foreign, games.watched, 'nope', ''].map((gameId) => ({ url: `${url}?${p.name}=${gameId}`, body: schema ? '{}' : undefined }))),
    ];
    if (schema) {
      probes.push({ url, body: bare }, { url, body: '{}' }, { url, body: '{"zzz":1}' }, { url, body: 'zzz=1', contentType: 'application/x-www-form-urlencoded' }, { url, body: JSON.stringify({ zzz: 'z'.repeat(300_000) }) });
    }
    return probes;
  }

  function requiredOf(schema: SchemaObject): string[] {
    const s = schema.$ref ? resolveRef(doc, schema.$ref) : schema;
    return [...(s?.required ?? []), ...(s?.allOf ?? []).flatMap(requiredOf)];
  }

  function hasProperty(schema: SchemaObject, name: string): boolean {
    const s = schema.$ref ? resolveRef(doc, schema.$ref) : schema;
    return !!s && (!!s.properties?.[name] || (s.allOf ?? []).some((part) => hasProperty(part, name)));
  }

  /** A gameId in the body (a webhook for one game) names a game as the query's does. */
  function gameInBody(template: string, operation: OperationObject, gameIds: string[]): Probe[] {
    const schema = operation.requestBody?.content?.['application/json']?.schema;
    return schema && hasProperty(schema, 'gameId') ? gameIds.map((gameId) => ({ url: template, body: JSON.stringify({ ...(exampleOf(doc, schema) as object), gameId }) })) : [];
  }

  it('declares, for every REST operation, each error status the representative bad requests get', async () => {
    const rest = operations(doc).filter(({ key }) => key.split(' ')[1]!.startsWith('/api/v1/'));
    for (const { key, operation } of rest) {
      const [method, template] = key.split(' ') as [string, string];
      for (const probe of probesFor(template, operation)) await send(method.toLowerCase() as Method, probe);
    }

    // Joining: an unknown, a used, an expired and one's own invitation, a seat taken meanwhile, a seat already held.
    const join = (player: TestPlayer, body: object) => send('post', { token: player.token, url: '/api/v1/join', body: JSON.stringify(body) });
    const invite = async (gameId: string, kind = 'token') => (await send('post', { url: `/api/v1/games/${gameId}/invitations`, body: JSON.stringify({ side: kernelScript.joinerSide, kind }) })).body as { id: string; token: string | null };
    expect((await join(bob, { token: 'inv_nope' })).status).toBe(404);
    const game = async () => (await send('post', { url: '/api/v1/games', body: JSON.stringify({ scenarioId: kernelScript.scenarioId, side: kernelScript.creatorSide }) })).body.game.id as string;
    const twice = await game();
    const [first, second] = [await invite(twice), await invite(twice)];
    expect((await join(bob, { token: first.token })).status).toBe(200);
    expect([(await join(bob, { token: first.token })).body.code, (await join(eve, { token: second.token })).body.code]).toEqual(['invitation/used', 'invitation/seat_taken']);
    const late = await invite(await game());
    await app.running.app.get(PrismaService).invitation.update({ where: { id: late.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect((await join(bob, { token: late.token })).body.code).toBe('invitation/expired');
    const own = await game();
    expect((await join(alice, { invitationId: (await invite(own, 'open')).id })).body.code).toBe('invitation/own');
    expect((await join(alice, { token: (await invite(own)).token })).body.code).toBe('game/already_seated');

    // Signing in: a malformed address, and a server without mail; a code nobody issued.
    const anonymous = (url: string, body: object) => send('post', { token: null, url, body: JSON.stringify(body) });
    expect((await anonymous('/api/v1/auth/magic-links', { email: 'not-an-address' })).body.code).toBe('auth/invalid_email');
    expect((await anonymous('/api/v1/auth/magic-links', { email: `${uniqueId('docs')}@example.test` })).body.code).toBe('auth/mail_unavailable');
    expect((await anonymous('/api/v1/auth/magic-links/redeem', { token: 'fpml_nope' })).status).toBe(401);

    expect([...answers.undeclared].sort()).toEqual([]);
    // Every operation was reached, and answered with more than one kind of refusal.
    expect(rest.filter(({ key }) => [...(answers.probed.get(key) ?? [])].filter((s) => s >= 400).length < 2).map(({ key }) => key)).toEqual([]);
  });

  it('declares 429 for every REST operation, and 503 where a sign-in mail cannot be sent', async () => {
    const limitedAnswers = new ErrorAnswers(doc);
    const limited = await apiApp({ RATE_LIMIT_PER_TOKEN: '1', SMTP_HOST: '127.0.0.1', SMTP_PORT: String(await closedPort()), NOTIFY_HTTP_TIMEOUT_MS: '2000' }, { entries: [kernelScript.entry()] });
    try {
      const rita = await limited.player('Rita');
      expect((await request(limited.http).get('/api/v1/me').set('Authorization', `Bearer ${rita.token}`)).status).toBe(200);
      const rest = operations(doc).filter(({ key }) => key.split(' ')[1]!.startsWith('/api/v1/'));
      for (const { key } of rest) {
        const [method, template] = key.split(' ') as [string, string];
        const url = template.replace(/\{[^}]+\}/g, 'nope');
        const res = await request(limited.http)[method.toLowerCase() as Method](url).set('Authorization', `Bearer ${rita.token}`);
        expect([key, res.status]).toEqual([key, 429]);
        limitedAnswers.note(method, url, res);
      }
      const mail = await request(limited.http).post('/api/v1/auth/magic-links').send({ email: `${uniqueId('docs')}@example.test` });
      expect(mail.body.code).toBe('auth/mail_not_sent');
      limitedAnswers.note('post', '/api/v1/auth/magic-links', mail);
    } finally {
      await limited.close();
    }
    expect([...limitedAnswers.undeclared].sort()).toEqual([]);
  });
  it('declares 503 game/system_unavailable on the operations that answer it for a game whose game system the server lacks, and on no other', async () => {
    const invite = async (kind: string) => (await send('post', { url: `/api/v1/games/${games.seating}/invitations`, body: JSON.stringify({ side: kernelScript.joinerSide, kind }) })).body as { id: string; token: string | null };
    const [token, challenge] = [await invite('token'), await invite('open')];
    // The same database served by an app whose catalog has no scenario of the kernel test system.
    const lacking = { app: await apiApp({ RATE_LIMIT_PER_TOKEN: '1000000' }, { entries: [] }), answers: new ErrorAnswers(doc) };
    const unavailable = new Set<string>();
    try {
      const rest = operations(doc).filter(({ key }) => key.split(' ')[1]!.startsWith('/api/v1/'));
      const note = (key: string, res: request.Response) => res.body?.code === 'game/system_unavailable' && unavailable.add(key);
      for (const { key, operation } of rest) {
        const [method, template] = key.split(' ') as [string, string];
        const inBody = gameInBody(template, operation, [games.active, games.foreign, games.watched]);
        for (const probe of [...probesFor(template, operation), ...inBody]) note(key, await send(method.toLowerCase() as Method, probe, lacking));
      }
      for (const body of [{ token: token.token }, { invitationId: challenge.id }]) note('POST /api/v1/join', await send('post', { token: bob.token, url: '/api/v1/join', body: JSON.stringify(body) }, lacking));
    } finally {
      await lacking.app.close();
    }
    expect([...lacking.answers.undeclared].sort()).toEqual([]);
    // Declared where it is answered, and only there.
    const declaring = operations(doc).filter(({ operation }) => String(operation.responses['503']?.description).includes('`game/system_unavailable`')).map(({ key }) => key);
    expect(declaring.sort()).toEqual([...unavailable].sort());
  });

  it('answers a player who may not see a game whose game system the server lacks as for a game that does not exist, on every operation', async () => {
    const lacking = { app: await apiApp({ RATE_LIMIT_PER_TOKEN: '1000000' }, { entries: [] }), answers: new ErrorAnswers(doc) };
    const missing = uniqueId('game');
    // Strangers all: Alice to Eve's game waiting for players, Eve to two of Alice and Bob's, one in play and one ended.
    const strangers = [
      { token: alice.token, gameId: games.foreign },
      { token: eve.token, gameId: games.active },
      { token: eve.token, gameId: games.finished },
    ];
    const answer = (res: request.Response, gameId: string) => {
      // Which request it answers (its path) aside.
      const body: Record<string, unknown> = { ...res.body };
      delete body['instance'];
      return { status: res.status, type: res.headers['content-type'], body: JSON.stringify(body).replaceAll(gameId, '<gameId>') };
    };
    const differing: string[] = [];
    let compared = 0;
    try {
      const rest = operations(doc).filter(({ key }) => key.split(' ')[1]!.startsWith('/api/v1/'));
      for (const { key, operation } of rest) {
        const method = key.split(' ')[0]!.toLowerCase() as Method;
        const template = key.split(' ')[1]!;
        const naming = [...probesFor(template, operation), ...gameInBody(template, operation, [games.foreign])].filter((p) => `${p.url} ${p.body ?? ''}`.includes(games.foreign));
        for (const probe of naming) {
          for (const { token, gameId } of strangers) {
            const asking = (id: string): Probe => ({ ...probe, token, url: probe.url.replaceAll(games.foreign, id), body: probe.body?.replaceAll(games.foreign, id) });
            const [seen, none] = [answer(await send(method, asking(gameId), lacking), gameId), answer(await send(method, asking(missing), lacking), missing)];
            compared++;
            if (JSON.stringify(seen) !== JSON.stringify(none)) differing.push(`${key} ${asking(gameId).url} ${asking(gameId).body ?? ''}: ${JSON.stringify(seen)} vs ${JSON.stringify(none)}`);
          }
        }
      }
    } finally {
      await lacking.app.close();
    }
    expect(differing).toEqual([]);
    expect(compared).toBeGreaterThan(60);
    expect([...lacking.answers.undeclared].sort()).toEqual([]);
  });

  it('answers a path asked with a method none of its operations takes with the 405 the document declares, naming the methods it takes', async () => {
    const declared = doc.components.responses?.['MethodNotAllowed'];
    expect({ allow: declared?.headers?.['Allow'] !== undefined, problem: declared?.content?.['application/problem+json'] !== undefined }).toEqual({ allow: true, problem: true });
    const wrong: string[] = [];
    for (const template of Object.keys(doc.paths)) {
      const url = template.replace(/\{[^}]+\}/g, 'nope');
      const taken = methodsAt(doc, url);
      const allow = [...new Set([...taken, ...(taken.includes('GET') ? ['HEAD'] : [])])].sort().join(', ');
      for (const method of (['get', 'put', 'post', 'delete', 'patch', 'head'] as const).filter((m) => !taken.includes(m.toUpperCase()) && !(m === 'head' && taken.includes('GET')))) {
        const res = await request(app.http)[method](url).set('Authorization', `Bearer ${alice.token}`);
        // A HEAD answer has no body to check.
        const mismatches = method === 'head' ? [] : schemaMismatches(doc, declared!.content!['application/problem+json']!.schema!, res.body);
        const got = { status: res.status, type: String(res.headers['content-type']).split(';')[0], allow: res.headers['allow'], mismatches };
        const want = { status: 405, type: 'application/problem+json', allow, mismatches: [] };
        if (JSON.stringify(got) !== JSON.stringify(want)) wrong.push(`${method.toUpperCase()} ${template}: ${JSON.stringify(got)}`);
      }
    }
    expect(wrong).toEqual([]);
  });
});
