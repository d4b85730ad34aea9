/** Wall-clock time in an IANA time zone, with Intl only (no time zone database of our own). */
export interface LocalParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
}

const formats = new Map<string, Intl.DateTimeFormat>();

function formatFor(timeZone: string): Intl.DateTimeFormat {
  let f = formats.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formats.set(timeZone, f);
  }
  return f;
}

/** The player's zone if Intl knows it, else UTC: a bad zone must not stop a notification. */
export function safeTimeZone(timeZone: string | null | undefined): string {
  if (!timeZone) return 'UTC';
  try {
    formatFor(timeZone);
    return timeZone;
  } catch {
    return 'UTC';
  }
}

export function localParts(instant: Date, timeZone: string): LocalParts & { second: number } {
  const parts: Record<string, number> = {};
  for (const p of formatFor(timeZone).formatToParts(instant)) if (p.type !== 'literal') parts[p.type] = Number(p.value);
  return { year: parts.year!, month: parts.month!, day: parts.day!, hour: parts.hour!, minute: parts.minute!, second: parts.second! };
}

function offsetAt(epochMs: number, timeZone: string): number {
  const p = localParts(new Date(epochMs), timeZone);
  const asUtc = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
  return asUtc - Math.floor(epochMs / 1000) * 1000;
}

/**
 * The instant at which the zone's clocks show this wall time. Two passes settle the offset
 * across a DST change; a wall time that does not exist (spring forward) lands an hour later.
 */
export function zonedTimeToUtc(local: LocalParts, timeZone: string): Date {
  const guess = Date.UTC(local.year, local.month - 1, local.day, local.hour, local.minute);
  const first = guess - offsetAt(guess, timeZone);
  const second = guess - offsetAt(first, timeZone);
  return new Date(second);
}

/**
 * The same, for a wall time that may repeat (autumn back): the first pass that is not before
 * `notBefore`. An hour the clocks go through twice resolves to its first pass otherwise, which
 * can lie before an instant in its second.
 */
export function zonedTimeToUtcFrom(local: LocalParts, timeZone: string, notBefore: Date): Date {
  const first = zonedTimeToUtc(local, timeZone);
  if (first.getTime() >= notBefore.getTime()) return first;
  const guess = Date.UTC(local.year, local.month - 1, local.day, local.hour, local.minute);
  const second = new Date(guess - offsetAt(notBefore.getTime(), timeZone));
  return second.getTime() >= notBefore.getTime() ? second : notBefore;
}

/** The calendar day after (or `days` after) a local date. */
export function addDays(local: Pick<LocalParts, 'year' | 'month' | 'day'>, days: number): Pick<LocalParts, 'year' | 'month' | 'day'> {
  const d = new Date(Date.UTC(local.year, local.month - 1, local.day + days));
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
}

export function isoDay(local: Pick<LocalParts, 'year' | 'month' | 'day'>): string {
  return `${local.year}-${String(local.month).padStart(2, '0')}-${String(local.day).padStart(2, '0')}`;
}
