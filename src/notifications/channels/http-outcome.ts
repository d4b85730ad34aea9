import { parseRetryAfter } from '../schedule/backoff';
import { PrivateTargetError } from '../security/target-url';
import type { SendOutcome } from './channel';
import type { HttpResponse } from './http-client';

/** Requests that will fail the same way however often they are repeated. */
const HOPELESS = new Set([400, 413, 415, 422]);

/**
 * 2xx delivered; a "gone" status disables the target; 429 waits as long as the receiver asks;
 * hopeless 4xx are dead-lettered at once; everything else (5xx, 408, other 4xx, 3xx) is retried
 * with backoff, since a receiver may be mid-deploy or misconfigured for a while.
 */
export function outcomeForResponse(res: HttpResponse, gone: ReadonlySet<number>, now: Date): SendOutcome {
  const status = res.status;
  if (status >= 200 && status < 300) return { kind: 'delivered', status };
  const error = `HTTP ${status}`;
  if (gone.has(status)) return { kind: 'gone', error, status };
  if (status === 429) {
    const header = res.headers['retry-after'];
    const retryAfterMs = parseRetryAfter(Array.isArray(header) ? header[0] : header, now) ?? retryAfterFromBody(res.body);
    return { kind: 'retry', error, status, ...(retryAfterMs !== undefined ? { retryAfterMs } : {}) };
  }
  if (HOPELESS.has(status)) return { kind: 'rejected', error: `${error}: ${res.body.slice(0, 200)}`, status };
  return { kind: 'retry', error, status };
}

/** Discord also puts the wait in the body, in seconds: `{"retry_after": 0.5}`. */
function retryAfterFromBody(body: string): number | undefined {
  try {
    const value = (JSON.parse(body) as { retry_after?: unknown }).retry_after;
    return typeof value === 'number' && value >= 0 ? Math.ceil(value * 1000) : undefined;
  } catch {
    return undefined;
  }
}

export function outcomeForError(err: unknown): SendOutcome {
  if (err instanceof PrivateTargetError) return { kind: 'gone', error: err.message };
  const e = err as { message?: string; code?: string };
  return { kind: 'retry', error: e.code ? `${e.code}: ${e.message ?? ''}` : String(e.message ?? err) };
}
