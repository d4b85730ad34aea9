import { addDays, isoDay, localParts, zonedTimeToUtc } from './local-time';
import { afterQuietHours, QuietHours } from './quiet-hours';

export interface DigestSlot {
  /** When the digest mail goes out. */
  at: Date;
  /** The player's local day it belongs to (YYYY-MM-DD): one digest per player and day. */
  day: string;
}

/** The next digest strictly after `now`: the local `hour`:00, moved out of quiet hours. */
export function nextDigestSlot(now: Date, timeZone: string, hour: number, quiet: QuietHours | null): DigestSlot {
  const local = localParts(now, timeZone);
  const today = zonedTimeToUtc({ ...local, hour, minute: 0 }, timeZone);
  const day = today.getTime() > now.getTime() ? local : addDays(local, 1);
  const at = day === local ? today : zonedTimeToUtc({ ...day, hour, minute: 0 }, timeZone);
  return { at: afterQuietHours(at, timeZone, quiet), day: isoDay(day) };
}
