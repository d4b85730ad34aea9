import request from 'supertest';
import type { ApiApp, TestPlayer } from './api-app';
import { data } from './api-app';

export interface GameState {
  id: string;
  version: number;
  status: string;
  turn: number;
  phase: string;
  mode: string;
  acting: string[];
  mySide: string | null;
  deadlineAt: string | null;
  seedCommitment: string;
  seed: string | null;
  reaction: { side: string; kind: string } | null;
  result: { winner: string | null; reason: string } | null;
}

export type SubmitResult =
  | { ok: true; version: number; events: Array<{ version: number; type: string; data: unknown }> }
  | { ok: false; code: string; errorCode: string; violations?: Violation[]; currentVersion?: number };

export type Violation = { ruleId: string; code: string; message: string; orderIndex: number | null };

/** A dry run's answer, or its refusal in the shape a refused submission has. */
export type CheckResult = { ok: true; valid: boolean; version: number; violations: Violation[] } | Extract<SubmitResult, { ok: false }>;

/** What a game client does; the GraphQL and the REST client do it over their transport only. */
export interface GameClient {
  readonly player: TestPlayer;
  createGame(scenarioId: string, side: string, settings?: Record<string, unknown>): Promise<GameState>;
  invite(gameId: string, side: string): Promise<string>;
  join(token: string): Promise<{ gameId: string; side: string; started: boolean }>;
  game(gameId: string): Promise<GameState>;
  view(gameId: string): Promise<{ units: Array<{ id: string; hex: string | null }>; markers: Array<{ hex: string }>; stacks: unknown[]; hexes: number; raw: unknown }>;
  options(gameId: string, unitId: string, targetHex?: string): Promise<{ moves: Array<{ hex: string; cost: number }>; attacks: Array<{ targetHex: string; preview: unknown }> }>;
  submit(gameId: string, expectedVersion: number, kind: 'orders' | 'reaction' | 'standing-orders', orders: unknown, idempotencyKey: string): Promise<SubmitResult>;
  check(gameId: string, expectedVersion: number, kind: 'orders' | 'reaction' | 'standing-orders', orders: unknown): Promise<CheckResult>;
  history(gameId: string): Promise<{ events: Array<{ version: number; type: string; data: unknown }>; phases: Array<{ turn: number; phase: string }> }>;
  resign(gameId: string, expectedVersion: number): Promise<SubmitResult>;
}

const GAME_FIELDS = 'id version status turn phase mode acting mySide deadlineAt seedCommitment seed reaction { side kind } result { winner reason }';
const ENUMS: Record<string, string> = { SEATING: 'seating', ACTIVE: 'active', FINISHED: 'finished', SEQUENTIAL: 'sequential', SIMULTANEOUS: 'simultaneous', REACTION: 'reaction', ENDED: 'ended' };
const lower = (g: Record<string, any>): GameState => ({ ...(g as GameState), status: ENUMS[g['status']] ?? g['status'], mode: ENUMS[g['mode']] ?? g['mode'] });

export class GraphqlClient implements GameClient {
  constructor(
    private readonly app: ApiApp,
    readonly player: TestPlayer,
  ) {}

  private async q(query: string, variables?: Record<string, unknown>) {
    return data(await this.app.gql(this.player.token, query, variables));
  }

  async createGame(scenarioId: string, side: string, settings?: Record<string, unknown>) {
    const d = await this.q(`mutation($input: CreateGameInput!) { createGame(input: $input) { ${GAME_FIELDS} } }`, { input: { scenarioId, side, ...(settings ? { settings } : {}) } });
    return lower(d['createGame']);
  }

  async invite(gameId: string, side: string) {
    const d = await this.q('mutation($input: InviteInput!) { invite(input: $input) { token kind side } }', { input: { gameId, side } });
    return d['invite'].token as string;
  }

  async join(token: string) {
    const d = await this.q('mutation($token: String) { joinGame(token: $token) { gameId side started game { mySide } } }', { token });
    return d['joinGame'];
  }

  async game(gameId: string) {
    return lower((await this.q(`query($id: ID!) { game(id: $id) { ${GAME_FIELDS} } }`, { id: gameId }))['game']);
  }

  async view(gameId: string) {
    const d = await this.q(
      `query($id: ID!) { game(id: $id) { view { map { hexes { hex terrain } } units { id type side at hex heldBy values flags concealedAs } markers { hex marker side } stacks { hex unitIds markers { marker } } own raw } } }`,
      { id: gameId },
    );
    const v = d['game'].view;
    return { units: v.units, markers: v.markers, stacks: v.stacks, hexes: v.map?.hexes.length ?? 0, raw: v.raw };
  }

  async options(gameId: string, unitId: string, targetHex?: string) {
    const d = await this.q(
      'query($id: ID!, $unit: String!, $target: String) { game(id: $id) { options(unitId: $unit, targetHex: $target) { unitId moves { hex cost path } attacks { targetHex targetIds preview } violations { ruleId } } } }',
      { id: gameId, unit: unitId, target: targetHex ?? null },
    );
    return d['game'].options;
  }

  async submit(gameId: string, expectedVersion: number, kind: 'orders' | 'reaction' | 'standing-orders', orders: unknown, idempotencyKey: string): Promise<SubmitResult> {
    const r = await this.app.gql(this.player.token, 'mutation($input: SubmitPhaseInput!) { submitPhase(input: $input) { version events { version type data } game { version } } }', {
      input: { gameId, expectedVersion, kind: GQL_KIND[kind], orders, idempotencyKey },
    });
    return outcomeOf(r.body, 'submitPhase');
  }

  async check(gameId: string, expectedVersion: number, kind: 'orders' | 'reaction' | 'standing-orders', orders: unknown): Promise<CheckResult> {
    const r = await this.app.gql(this.player.token, 'query($input: CheckPhaseInput!) { checkPhase(input: $input) { valid version violations { ruleId code message orderIndex unit } } }', {
      input: { gameId, expectedVersion, kind: GQL_KIND[kind], orders },
    });
    return refusalOf(r.body) ?? { ok: true, ...r.body.data!['checkPhase'] };
  }

  async history(gameId: string) {
    const events: Array<{ version: number; type: string; data: unknown }> = [];
    const phases: Array<{ turn: number; phase: string }> = [];
    let after: string | null = null;
    for (;;) {
      const d = await this.q('query($id: ID!, $after: String) { game(id: $id) { history(first: 100, after: $after) { nodes { version type data time } phases { turn phase mode acting fromVersion } pageInfo { hasNextPage endCursor } } } }', { id: gameId, after });
      const h = d['game'].history;
      events.push(...h.nodes);
      phases.push(...h.phases);
      if (!h.pageInfo.hasNextPage) return { events, phases };
      after = h.pageInfo.endCursor;
    }
  }

  async resign(gameId: string, expectedVersion: number) {
    const r = await this.app.gql(this.player.token, 'mutation($id: ID!, $v: Int!) { resign(gameId: $id, expectedVersion: $v) { version events { version type data } } }', { id: gameId, v: expectedVersion });
    return outcomeOf(r.body, 'resign');
  }
}

/** The GraphQL enum value of a submission kind. */
const GQL_KIND = { orders: 'ORDERS', reaction: 'REACTION', 'standing-orders': 'STANDING_ORDERS' } as const;

/** A refused GraphQL answer in the shape a refused submission has, or null when it was not refused. */
function refusalOf(body: { errors?: any[] }): Extract<SubmitResult, { ok: false }> | null {
  const e = body.errors?.[0];
  return e ? { ok: false, code: e.extensions?.code, errorCode: e.extensions?.errorCode, violations: e.extensions?.violations, currentVersion: e.extensions?.currentVersion } : null;
}

function outcomeOf(body: { data?: any; errors?: any[] }, field: string): SubmitResult {
  const refused = refusalOf(body);
  if (refused) return refused;
  const o = body.data[field];
  return { ok: true, version: o.version, events: o.events };
}

export class RestClient implements GameClient {
  constructor(
    private readonly app: ApiApp,
    readonly player: TestPlayer,
  ) {}

  private req(method: 'get' | 'post' | 'put', path: string, body?: unknown) {
    const r = request(this.app.http)[method](path).set('Authorization', `Bearer ${this.player.token}`);
    return body === undefined ? r : r.send(body as object);
  }

  private async ok(method: 'get' | 'post' | 'put', path: string, body?: unknown) {
    const res = await this.req(method, path, body);
    if (res.status >= 300) throw new Error(`${method.toUpperCase()} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  }

  async createGame(scenarioId: string, side: string, settings?: Record<string, unknown>) {
    return (await this.ok('post', '/api/v1/games', { scenarioId, side, ...(settings ? { settings } : {}) })).game as GameState;
  }

  async invite(gameId: string, side: string) {
    return (await this.ok('post', `/api/v1/games/${gameId}/invitations`, { side })).token as string;
  }

  async join(token: string) {
    return this.ok('post', '/api/v1/join', { token });
  }

  async game(gameId: string) {
    return (await this.ok('get', `/api/v1/games/${gameId}`)) as GameState;
  }

  async view(gameId: string) {
    const v = await this.ok('get', `/api/v1/games/${gameId}/view`);
    return { units: v.units, markers: v.markers, stacks: v.stacks, hexes: v.map?.hexes.length ?? 0, raw: v.raw };
  }

  async options(gameId: string, unitId: string, targetHex?: string) {
    return this.ok('get', `/api/v1/games/${gameId}/units/${unitId}/options${targetHex ? `?targetHex=${targetHex}` : ''}`);
  }

  async submit(gameId: string, expectedVersion: number, kind: 'orders' | 'reaction' | 'standing-orders', orders: unknown, idempotencyKey: string): Promise<SubmitResult> {
    const res = await this.req('post', `/api/v1/games/${gameId}/phases`, { expectedVersion, kind, orders }).set('Idempotency-Key', idempotencyKey);
    return restOutcome(res);
  }

  async check(gameId: string, expectedVersion: number, kind: 'orders' | 'reaction' | 'standing-orders', orders: unknown): Promise<CheckResult> {
    const res = await this.req('post', `/api/v1/games/${gameId}/phases/check`, { expectedVersion, kind, orders });
    if (res.status >= 300) return restOutcome(res) as Extract<SubmitResult, { ok: false }>;
    expect(res.status).toBe(200);
    return { ok: true, ...res.body };
  }

  async history(gameId: string) {
    const events: Array<{ version: number; type: string; data: unknown }> = [];
    const phases: Array<{ turn: number; phase: string }> = [];
    let cursor: string | null = null;
    for (;;) {
      const h = await this.ok('get', `/api/v1/games/${gameId}/history?limit=100${cursor ? `&cursor=${cursor}` : ''}`);
      events.push(...h.events);
      phases.push(...h.phases);
      if (!h.nextCursor) return { events, phases };
      cursor = h.nextCursor;
    }
  }

  async resign(gameId: string, expectedVersion: number) {
    return restOutcome(await this.req('post', `/api/v1/games/${gameId}/resign`, { expectedVersion }));
  }
}

function restOutcome(res: request.Response): SubmitResult {
  if (res.status >= 300) {
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    const codes: Record<number, string> = { 400: 'BAD_USER_INPUT', 401: 'UNAUTHENTICATED', 403: 'FORBIDDEN', 404: 'NOT_FOUND', 409: 'CONFLICT', 429: 'RATE_LIMITED' };
    return { ok: false, code: codes[res.status] ?? String(res.status), errorCode: res.body.code, violations: res.body.violations, currentVersion: res.body.currentVersion };
  }
  return { ok: true, version: res.body.version, events: res.body.events };
}
