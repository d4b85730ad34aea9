import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { ApiTokensService } from '../../../src/auth/api-tokens.service';
import { PlayersService } from '../../../src/auth/players.service';
import { createApp, RunningApp } from '../../../src/bootstrap';
import { CatalogEntry, StaticCatalog } from '../../../src/games/game-catalog';
import type { DestinationStream } from 'pino';
import type { Clock } from '../../../src/games/game-clock';
import type { DiceSourceFactory } from '../../../src/games/dice/dice-source';
import { testConfig, uniqueId } from '../../support/database';
import { kernelTestEntry } from '../../support/games-harness';

export interface TestPlayer {
  id: string;
  name: string;
  email: string;
  token: string;
  tokenId: string;
}

export interface GqlResult {
  status: number;
  body: { data?: Record<string, any> | null; errors?: Array<{ message: string; extensions?: Record<string, any>; path?: unknown[] }> };
  headers: Record<string, string>;
}

export interface ApiApp {
  running: RunningApp;
  http: Server;
  /** A player with a fresh API token, made directly through the auth services. */
  player(name: string, timeZone?: string): Promise<TestPlayer>;
  gql(token: string | null, query: string, variables?: Record<string, unknown>): Promise<GqlResult>;
  /** Listens on a loopback port (for WebSocket clients); returns the graphql-ws URL. */
  listen(): Promise<string>;
  close(): Promise<void>;
}

/** The whole app over HTTP on the test database, offering the kernel test scenario (or `entries`). */
export async function apiApp(env: Record<string, string> = {}, options: { entries?: CatalogEntry[]; logs?: DestinationStream; clock?: Clock; dice?: DiceSourceFactory } = {}): Promise<ApiApp> {
  const running = await createApp(testConfig({ WORKERS_ENABLED: 'false', ...env }), options.logs, {
    catalog: new StaticCatalog(options.entries ?? [kernelTestEntry()]),
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.dice ? { dice: options.dice } : {}),
  });
  const http = running.app.getHttpServer() as Server;
  const players = running.app.get(PlayersService);
  const tokens = running.app.get(ApiTokensService);
  return {
    running,
    http,
    async player(name, timeZone = 'Europe/Berlin') {
      const email = `${uniqueId(name.toLowerCase().replace(/[^a-z0-9]+/g, '-'))}@example.test`;
      const { player } = await players.findOrCreate({ email, displayName: name, timeZone });
      const issued = await tokens.issue(player.id, 'test');
      return { id: player.id, name, email, token: issued.token, tokenId: issued.apiToken.id };
    },
    async gql(token, query, variables) {
      const req = request(http).post('/graphql').set('Content-Type', 'application/json');
      if (token) req.set('Authorization', `Bearer ${token}`);
      const res = await req.send(JSON.stringify({ query, ...(variables ? { variables } : {}) }));
      return { status: res.status, body: res.body, headers: res.headers as Record<string, string> };
    },
    async listen() {
      if (!http.listening) await running.app.listen(0, '127.0.0.1');
      return `ws://127.0.0.1:${(http.address() as AddressInfo).port}/graphql`;
    },
    close: () => running.close(),
  };
}

/** The data of a GraphQL answer, failing with the errors if there are any. */
export function data(r: GqlResult): Record<string, any> {
  if (r.body.errors?.length) throw new Error(`GraphQL errors (HTTP ${r.status}): ${JSON.stringify(r.body.errors)}`);
  return r.body.data!;
}

/** The first error of a GraphQL answer. */
export function firstError(r: GqlResult) {
  const e = r.body.errors?.[0];
  if (!e) throw new Error(`expected an error, got ${JSON.stringify(r.body)}`);
  return e;
}
