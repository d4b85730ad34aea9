import { addDays, localParts, zonedTimeToUtcFrom } from './local-time';

/** Quiet hours in minutes after local midnight. start > end wraps midnight; start == end is none. */
export interface QuietHours {
  start: number;
  end: number;
}

export function inQuietHours(minuteOfDay: number, quiet: QuietHours): boolean {
  if (quiet.start === quiet.end) return false;
  return quiet.start < quiet.end
    ? minuteOfDay >= quiet.start && minuteOfDay < quiet.end
    : minuteOfDay >= quiet.start || minuteOfDay < quiet.end;
}

/** The earliest instant at or after `at` that is outside the quiet hours in the zone. */
export function afterQuietHours(at: Date, timeZone: string, quiet: QuietHours | null): Date {
  if (!quiet) return at;
  const local = localParts(at, timeZone);
  const minute = local.hour * 60 + local.minute;
  if (!inQuietHours(minute, quiet)) return at;
  const endsTomorrow = quiet.start > quiet.end && minute >= quiet.start;
  const day = endsTomorrow ? addDays(local, 1) : local;
  return zonedTimeToUtcFrom({ ...day, hour: Math.floor(quiet.end / 60), minute: quiet.end % 60 }, timeZone, at);
}

/** "22:30" -> 1350. Returns null for anything that is not a 24-hour HH:MM. */
export function parseClockTime(text: string): number | null {
  const m = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(text);
  return m ? Number(m[1]) * 60 + Number(m[2]) : null;
}

export function formatClockTime(minutes: number): string {
  return `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}
