import { backoffDelay, nextAttemptAt, parseRetryAfter } from './backoff';
import { nextDigestSlot } from './digest-time';
import { localParts, zonedTimeToUtc } from './local-time';
import { afterQuietHours, inQuietHours, parseClockTime } from './quiet-hours';

const at = (iso: string) => new Date(iso);
const policy = { baseMs: 1000, maxDelayMs: 60_000, periodMs: 3_600_000 };

describe('local time', () => {
  it('converts wall time to the instant across DST in both directions', () => {
    expect(zonedTimeToUtc({ year: 2026, month: 7, day: 1, hour: 9, minute: 0 }, 'Europe/Berlin').toISOString()).toBe('2026-07-01T07:00:00.000Z');
    expect(zonedTimeToUtc({ year: 2026, month: 12, day: 1, hour: 9, minute: 0 }, 'Europe/Berlin').toISOString()).toBe('2026-12-01T08:00:00.000Z');
    expect(zonedTimeToUtc({ year: 2026, month: 12, day: 1, hour: 9, minute: 30 }, 'Asia/Kolkata').toISOString()).toBe('2026-12-01T04:00:00.000Z');
    expect(localParts(at('2026-03-29T01:30:00Z'), 'Europe/Berlin')).toMatchObject({ hour: 3, minute: 30 });
  });
});

describe('quiet hours', () => {
  const night = { start: parseClockTime('22:00')!, end: parseClockTime('07:30')! };

  it('knows a window that wraps midnight and one that does not', () => {
    expect(inQuietHours(23 * 60, night)).toBe(true);
    expect(inQuietHours(7 * 60, night)).toBe(true);
    expect(inQuietHours(7 * 60 + 30, night)).toBe(false);
    expect(inQuietHours(12 * 60, { start: 12 * 60, end: 13 * 60 })).toBe(true);
    expect(inQuietHours(13 * 60, { start: 12 * 60, end: 13 * 60 })).toBe(false);
    expect(inQuietHours(5, { start: 60, end: 60 })).toBe(false);
  });

  it('moves a time inside quiet hours to their local end, today or tomorrow', () => {
    // 23:00 in Berlin (UTC+1 in December) -> 07:30 next morning Berlin = 06:30Z.
    expect(afterQuietHours(at('2026-12-01T22:00:00Z'), 'Europe/Berlin', night).toISOString()).toBe('2026-12-02T06:30:00.000Z');
    // 03:00 Berlin -> 07:30 the same day.
    expect(afterQuietHours(at('2026-12-02T02:00:00Z'), 'Europe/Berlin', night).toISOString()).toBe('2026-12-02T06:30:00.000Z');
    // Outside quiet hours, or without them: unchanged.
    expect(afterQuietHours(at('2026-12-02T12:00:00Z'), 'Europe/Berlin', night).toISOString()).toBe('2026-12-02T12:00:00.000Z');
    expect(afterQuietHours(at('2026-12-01T22:00:00Z'), 'Europe/Berlin', null).toISOString()).toBe('2026-12-01T22:00:00.000Z');
    // 22:00Z is 07:00 in Tokyo, still quiet until 07:30; 12:00Z (21:00 there) is not.
    expect(afterQuietHours(at('2026-12-01T22:00:00Z'), 'Asia/Tokyo', night).toISOString()).toBe('2026-12-01T22:30:00.000Z');
    expect(afterQuietHours(at('2026-12-01T12:00:00Z'), 'Asia/Tokyo', night).toISOString()).toBe('2026-12-01T12:00:00.000Z');
  });

  it('ends quiet hours in the second pass of the hour the clocks repeat in autumn, never before now', () => {
    // 2026-11-01 New York: 01:00-02:00 comes twice (EDT, then EST). 06:15Z is 01:15 EST, the second pass.
    const quiet = { start: 0, end: 90 };
    expect(afterQuietHours(at('2026-11-01T06:15:00Z'), 'America/New_York', quiet).toISOString()).toBe('2026-11-01T06:30:00.000Z');
    // 05:15Z is 01:15 EDT, the first pass: quiet hours end at its 01:30.
    expect(afterQuietHours(at('2026-11-01T05:15:00Z'), 'America/New_York', quiet).toISOString()).toBe('2026-11-01T05:30:00.000Z');
  });

  it('parses only 24-hour HH:MM', () => {
    expect(parseClockTime('00:00')).toBe(0);
    expect(parseClockTime('23:59')).toBe(1439);
    for (const bad of ['24:00', '7:30', '07:60', 'x']) expect(parseClockTime(bad)).toBeNull();
  });
});

describe('digest slot', () => {
  it('is the next local digest hour after now, keyed by the local day', () => {
    expect(nextDigestSlot(at('2026-12-01T10:00:00Z'), 'Europe/Berlin', 18, null)).toEqual({ at: at('2026-12-01T17:00:00Z'), day: '2026-12-01' });
    expect(nextDigestSlot(at('2026-12-01T17:00:00Z'), 'Europe/Berlin', 18, null)).toEqual({ at: at('2026-12-02T17:00:00Z'), day: '2026-12-02' });
    // 23:30 in New York is already the 2nd in UTC; the digest day is local.
    expect(nextDigestSlot(at('2026-12-02T04:30:00Z'), 'America/New_York', 8, null)).toEqual({ at: at('2026-12-02T13:00:00Z'), day: '2026-12-02' });
  });

  it('waits for the end of quiet hours when the digest hour falls inside them', () => {
    const slot = nextDigestSlot(at('2026-12-01T10:00:00Z'), 'UTC', 6, { start: 22 * 60, end: 7 * 60 });
    expect(slot).toEqual({ at: at('2026-12-02T07:00:00Z'), day: '2026-12-02' });
  });
});

describe('backoff', () => {
  it('is exponential with full jitter, capped', () => {
    expect(backoffDelay(1, policy, () => 0.999)).toBe(999);
    expect(backoffDelay(4, policy, () => 0.5)).toBe(4000);
    expect(backoffDelay(30, policy, () => 0.999)).toBe(59_940);
    expect(backoffDelay(3, policy, () => 0)).toBe(0);
  });

  it('gives up once the next attempt would fall outside the retry period', () => {
    const first = at('2026-12-01T00:00:00Z');
    expect(nextAttemptAt({ attempts: 2, firstAttemptAt: first, now: at('2026-12-01T00:10:00Z') }, policy, () => 0.5)).toEqual(at('2026-12-01T00:10:01Z'));
    expect(nextAttemptAt({ attempts: 9, firstAttemptAt: first, now: at('2026-12-01T00:59:50Z') }, policy, () => 0.5)).toBeNull();
  });

  it('waits at least as long as Retry-After asks, and never less than the backoff', () => {
    const first = at('2026-12-01T00:00:00Z');
    expect(nextAttemptAt({ attempts: 1, firstAttemptAt: first, now: first, retryAfterMs: 30_000 }, policy, () => 0)).toEqual(at('2026-12-01T00:00:30Z'));
    expect(nextAttemptAt({ attempts: 3, firstAttemptAt: first, now: first, retryAfterMs: 0 }, policy, () => 0.5)).toEqual(at('2026-12-01T00:00:02Z'));
    expect(parseRetryAfter('2', first)).toBe(2000);
    expect(parseRetryAfter('0.25', first)).toBe(250);
    expect(parseRetryAfter('Tue, 01 Dec 2026 00:01:00 GMT', first)).toBe(60_000);
    expect(parseRetryAfter('soon', first)).toBeUndefined();
    expect(parseRetryAfter(undefined, first)).toBeUndefined();
  });
});
