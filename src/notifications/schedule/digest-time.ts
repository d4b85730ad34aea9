import { addDays, isoDay, LocalParts, localParts, zonedTimeToUtc } from './local-time';
import { afterQuietHours, QuietHours } from './quiet-hours';

export interface DigestSlot {
  /** When the digest mail goes out. */
  at: Date;
  /** The player's local day it belongs to (YYYY-MM-DD): one digest per player and day. */
  day: string;
}

type LocalDay = Pick<LocalParts, 'year' | 'month' | 'day'>;

/** The next digest strictly after `now`: the local `hour`:00, moved out of quiet hours. */
export function nextDigestSlot(now: Date, timeZone: string, hour: number, quiet: QuietHours | null): DigestSlot {
  const local = localParts(now, timeZone);
  const day = zonedTimeToUtc({ ...local, hour, minute: 0 }, timeZone).getTime() > now.getTime() ? local : addDays(local, 1);
  return { at: digestTime(day, timeZone, hour, quiet), day: isoDay(day) };
}

/**
 * When the digest of a local day (a DigestSlot's `day`, or its parts) goes out: at `hour`:00 of
 * that day, moved out of quiet hours. Read again when the quiet hours or the time zone change.
 */
export function digestTime(day: LocalDay | string, timeZone: string, hour: number, quiet: QuietHours | null): Date {
  const parts = typeof day === 'string' ? parseDay(day) : day;
  return afterQuietHours(zonedTimeToUtc({ ...parts, hour, minute: 0 }, timeZone), timeZone, quiet);
}

function parseDay(day: string): LocalDay {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  return { year, month, day: date };
}
