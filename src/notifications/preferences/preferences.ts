import type { QuietHours } from '../schedule/quiet-hours';
import { formatClockTime } from '../schedule/quiet-hours';

/** A player's effective settings for one game (or their defaults), as the API shows them. */
export interface NotificationPreferences {
  channels: { email: boolean; webhook: boolean; discord: boolean };
  /** Local times "HH:MM" in the player's time zone; null: no quiet hours. */
  quietHours: { start: string; end: string } | null;
  reminderLeadMinutes: number;
  digest: boolean;
}

/** A change: absent fields stay as they are; on a game, `null` goes back to the player's default. */
export interface PreferencesPatch {
  channels?: Partial<Record<'email' | 'webhook' | 'discord', boolean | null>>;
  quietHours?: { start: string; end: string } | null | 'inherit';
  reminderLeadMinutes?: number | null;
  digest?: boolean | null;
}

/** A notification_preferences row as stored (null fields inherit). */
export interface PreferenceRow {
  emailEnabled: boolean | null;
  webhookEnabled: boolean | null;
  discordEnabled: boolean | null;
  quietHoursEnabled: boolean | null;
  quietStart: number | null;
  quietEnd: number | null;
  reminderLeadMinutes: number | null;
  digest: boolean | null;
}

/** What delivery planning needs, in minutes rather than strings. */
export interface EffectivePreferences {
  email: boolean;
  webhook: boolean;
  discord: boolean;
  quiet: QuietHours | null;
  reminderLeadMinutes: number;
  digest: boolean;
}

/** Game override, then the player's default, then the server's. */
export function effectivePreferences(player: PreferenceRow | null, game: PreferenceRow | null, defaultReminderMinutes: number): EffectivePreferences {
  const pick = <K extends keyof PreferenceRow>(key: K): PreferenceRow[K] | null => game?.[key] ?? player?.[key] ?? null;
  // Quiet hours come as a whole from the level that set them, never start from one and end from another.
  const quietLevel = game?.quietHoursEnabled != null ? game : player;
  const quiet =
    quietLevel?.quietHoursEnabled && quietLevel.quietStart != null && quietLevel.quietEnd != null && quietLevel.quietStart !== quietLevel.quietEnd
      ? { start: quietLevel.quietStart, end: quietLevel.quietEnd }
      : null;
  return {
    email: pick('emailEnabled') ?? true,
    webhook: pick('webhookEnabled') ?? true,
    discord: pick('discordEnabled') ?? true,
    quiet,
    reminderLeadMinutes: pick('reminderLeadMinutes') ?? defaultReminderMinutes,
    digest: pick('digest') ?? false,
  };
}

export function toView(p: EffectivePreferences): NotificationPreferences {
  return {
    channels: { email: p.email, webhook: p.webhook, discord: p.discord },
    quietHours: p.quiet ? { start: formatClockTime(p.quiet.start), end: formatClockTime(p.quiet.end) } : null,
    reminderLeadMinutes: p.reminderLeadMinutes,
    digest: p.digest,
  };
}

/** The same row from a raw snake_case JSON object (to_jsonb of the table row). */
export function rowFromJson(json: Record<string, unknown> | null): PreferenceRow | null {
  if (!json) return null;
  const b = (v: unknown) => (typeof v === 'boolean' ? v : null);
  const n = (v: unknown) => (typeof v === 'number' ? v : null);
  return {
    emailEnabled: b(json.email_enabled),
    webhookEnabled: b(json.webhook_enabled),
    discordEnabled: b(json.discord_enabled),
    quietHoursEnabled: b(json.quiet_hours_enabled),
    quietStart: n(json.quiet_start),
    quietEnd: n(json.quiet_end),
    reminderLeadMinutes: n(json.reminder_lead_minutes),
    digest: b(json.digest),
  };
}
