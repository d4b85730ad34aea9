import type { Random } from '../clock';

export interface RetryPolicy {
  baseMs: number;
  maxDelayMs: number;
  /** Retries stop this long after the first attempt; the delivery is then dead-lettered. */
  periodMs: number;
}

/** "Full jitter": a uniform wait in [0, min(cap, base * 2^(attempt-1))], so retries spread out. */
export function backoffDelay(attempt: number, policy: RetryPolicy, random: Random): number {
  const exp = policy.baseMs * 2 ** Math.min(Math.max(attempt - 1, 0), 40);
  return Math.floor(random() * Math.min(policy.maxDelayMs, exp));
}

export interface RetryInput {
  /** Attempts made so far, this one included. */
  attempts: number;
  firstAttemptAt: Date;
  now: Date;
  /** The receiver's Retry-After: the least wait it asks for. */
  retryAfterMs?: number | undefined;
}

/**
 * When to try again, or null when the next attempt would fall outside the retry period. A
 * Retry-After is a floor (RFC 9110 10.2.3), not a replacement for the backoff: a receiver that
 * keeps answering 429 with "Retry-After: 0" would otherwise be hit in a tight loop for the
 * whole retry period, holding a worker's slot all the while.
 */
export function nextAttemptAt(input: RetryInput, policy: RetryPolicy, random: Random): Date | null {
  const delay = Math.max(input.retryAfterMs ?? 0, backoffDelay(input.attempts, policy, random));
  const at = input.now.getTime() + delay;
  return at - input.firstAttemptAt.getTime() > policy.periodMs ? null : new Date(at);
}

/** Retry-After is either delta-seconds or an HTTP date (RFC 9110 10.2.3). */
export function parseRetryAfter(value: string | undefined, now: Date): number | undefined {
  if (!value) return undefined;
  const text = value.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Math.ceil(Number(text) * 1000);
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now.getTime());
}
