import { Client, createClient } from 'graphql-ws';
import WebSocket from 'ws';

export interface Collected<T = any> {
  results: Array<{ data?: T; errors?: Array<{ message: string; extensions?: Record<string, any> }> }>;
  completed: boolean;
  error: unknown;
  dispose: () => void;
}

/** A graphql-ws client authenticating with `token` in the connection_init payload. */
export function wsClient(url: string, token: string | null, onClosed?: (event: { code: number; reason: string }) => void): Client {
  return createClient({
    url,
    webSocketImpl: WebSocket,
    connectionParams: token ? { authorization: `Bearer ${token}` } : {},
    retryAttempts: 0,
    lazy: true,
    on: onClosed ? { closed: (e) => onClosed(e as { code: number; reason: string }) } : {},
  });
}

/** Subscribes and collects every result (data or errors) until disposed. */
export function collect<T = any>(client: Client, query: string, variables: Record<string, unknown>): Collected<T> {
  const c: Collected<T> = { results: [], completed: false, error: null, dispose: () => undefined };
  c.dispose = client.subscribe<T>(
    { query, variables },
    {
      next: (r) => c.results.push(r as Collected<T>['results'][number]),
      error: (e) => {
        c.error = e;
      },
      complete: () => {
        c.completed = true;
      },
    },
  );
  return c;
}

export async function waitFor(check: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

export const GAME_UPDATED = 'subscription($id: ID!, $from: Int) { gameUpdated(gameId: $id, fromVersion: $from) { gameId fromVersion version events { version type data } game { version status turn phase mode acting mySide reaction { side kind } view { units { id hex } markers { hex } } } } }';
