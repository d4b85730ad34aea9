import { Inject, Injectable } from '@nestjs/common';
import { BadInputError, NotFoundError } from '../../common/errors';
import { APP_CONFIG } from '../../config/config.module';
import type { AppConfig } from '../../config/config.schema';
import { PrismaService } from '../../database/prisma.service';
import { Clock, NOTIFICATION_CLOCK } from '../clock';
import { bindingDeadline } from '../outbox/outbox-item';
import { whenReadable } from '../outbox/plan';
import { digestTime } from '../schedule/digest-time';
import { parseClockTime, QuietHours } from '../schedule/quiet-hours';
import type { UnsubscribeScope } from '../unsubscribe/unsubscribe-tokens';
import { effectivePreferences, NotificationPreferences, PreferenceRow, PreferencesPatch, toView } from './preferences';

const PLAYER_DEFAULT = '';
const MAX_REMINDER_MINUTES = 30 * 24 * 60;

/** A delivery not yet tried, of a channel quiet hours hold, due later; one being sent (leased) is left alone. */
const QUIET_ONLY = `d.status = 'pending' AND d.attempts = 0 AND d.channel IN ('email', 'discord') AND d.not_before > $2 AND (d.locked_until IS NULL OR d.locked_until <= $2)`;

/**
 * After a change, mail and messages already queued follow it: a channel turned off cancels
 * what was waiting on it, a digest turned off lets the held mail go, and what waits only for
 * quiet hours goes when the quiet hours now say ($3: the planned times, by delivery id). Mail
 * held for a digest that moved goes with it, or on its own if the digest now comes too late
 * for its deadline ($4: those, by delivery id).
 */
const RECONCILE_SQL = `
WITH eff AS (
  SELECT d.id, d.channel, d.status,
         coalesce(o.email_enabled, p.email_enabled, true) AS email,
         coalesce(o.webhook_enabled, p.webhook_enabled, true) AS webhook,
         coalesce(o.discord_enabled, p.discord_enabled, true) AS discord,
         coalesce(o.digest, p.digest, false) AS digest
  FROM notification_deliveries d
  JOIN notifications n ON n.id = d.notification_id
  LEFT JOIN notification_preferences o ON o.player_id = n.player_id AND o.game_id = n.game_id
  LEFT JOIN notification_preferences p ON p.player_id = n.player_id AND p.game_id = ''
  WHERE d.player_id = $1 AND d.status IN ('pending', 'held')
), off AS (
  UPDATE notification_deliveries d SET status = 'cancelled', finished_at = $2, last_error = 'turned off by the player', locked_until = NULL
  FROM eff WHERE d.id = eff.id
    AND ((eff.channel = 'email' AND NOT eff.email) OR (eff.channel = 'webhook' AND NOT eff.webhook) OR (eff.channel = 'discord' AND NOT eff.discord))
  RETURNING d.id
), quiet AS (
  UPDATE notification_deliveries d SET not_before = ($3::jsonb ->> d.id)::timestamptz
  FROM eff WHERE d.id = eff.id AND eff.status = 'pending' AND d.id NOT IN (SELECT id FROM off)
    AND ${QUIET_ONLY} AND $3::jsonb ? d.id
), held AS (
  UPDATE notification_deliveries d SET not_before = ($3::jsonb ->> d.digest_id)::timestamptz
  FROM eff WHERE d.id = eff.id AND eff.status = 'held' AND eff.email AND eff.digest AND d.id NOT IN (SELECT id FROM off)
    AND NOT $4::jsonb ? d.id AND $3::jsonb ? d.digest_id
)
UPDATE notification_deliveries d SET status = 'pending', digest_id = NULL, not_before = coalesce(($3::jsonb ->> d.id)::timestamptz, $2)
FROM eff WHERE d.id = eff.id AND eff.status = 'held' AND eff.email AND (NOT eff.digest OR $4::jsonb ? d.id) AND d.id NOT IN (SELECT id FROM off)`;

/**
 * The mail a player has held for a digest, and the mail and Discord messages that wait only for
 * quiet hours or for their digest's hour (never tried, so no backoff), with what decides when
 * they may go out.
 */
const WAITING_SQL = `
SELECT d.id, d.status, d.digest_id, n.game_id, n.kind, n.content, p.time_zone
FROM notification_deliveries d JOIN notifications n ON n.id = d.notification_id JOIN players p ON p.id = d.player_id
WHERE d.player_id = $1 AND (d.status = 'held' OR ${QUIET_ONLY})`;

interface Waiting {
  id: string;
  status: 'pending' | 'held';
  digest_id: string | null;
  game_id: string | null;
  kind: string;
  content: { yourTurn?: unknown; deadlineAt?: unknown; day?: unknown };
  time_zone: string;
}

/** A player's notification settings: defaults, and overrides per game. */
@Injectable()
export class NotificationsService {
  constructor(
    private readonly prisma: PrismaService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(NOTIFICATION_CLOCK) private readonly clock: Clock,
  ) {}

  /** The effective settings: for a game (its overrides over the player's defaults), or the defaults. */
  async getPreferences(playerId: string, gameId?: string): Promise<NotificationPreferences> {
    await this.requirePlayer(playerId);
    const [player, game] = await this.rows(playerId, gameId);
    return toView(effectivePreferences(player, game, this.config.notifications.defaultReminderMinutes));
  }

  /** Changes the player's defaults, or (with a game id) their settings for that game only. */
  async setPreferences(playerId: string, patch: PreferencesPatch, gameId?: string): Promise<NotificationPreferences> {
    const data = toRow(patch);
    // Nothing to change: no row of nulls for a player who never set anything, no reconciliation.
    if (Object.keys(data).length === 0) return this.getPreferences(playerId, gameId);
    await this.save(playerId, data, gameId);
    return this.getPreferences(playerId, gameId);
  }

  private async save(playerId: string, data: Partial<PreferenceRow>, gameId: string | undefined, opts: { clearGamesEmail?: boolean } = {}): Promise<void> {
    await this.requirePlayer(playerId);
    const key = { playerId, gameId: gameId ?? PLAYER_DEFAULT };
    const upsert = this.prisma.notificationPreference.upsert({ where: { playerId_gameId: key }, create: { ...key, ...data }, update: data });
    // Both or neither: games cleared without the default turned off would follow a later "mail on".
    if (opts.clearGamesEmail) {
      const clear = this.prisma.notificationPreference.updateMany({ where: { playerId, gameId: { not: PLAYER_DEFAULT } }, data: { emailEnabled: null } });
      await this.prisma.$transaction([clear, upsert]);
    } else await upsert;
    await this.reconcile(playerId);
  }

  /**
   * Brings what waits in line with the settings now saved: cancels what a channel turned off no
   * longer sends, sends on its own the mail held for a digest turned off, when it would have
   * gone without one (after quiet hours, unless its deadline comes first), not at once, and moves
   * what waits only for quiet hours to when the quiet hours now end (now, if none apply).
   */
  private async reconcile(playerId: string): Promise<void> {
    const now = this.clock.now();
    const waiting = (await this.prisma.pool.query<Waiting>(WAITING_SQL, [playerId, now])).rows;
    const at: Record<string, string> = {};
    if (waiting.length > 0) {
      const rows = await this.prisma.notificationPreference.findMany({ where: { playerId } });
      const defaults = rows.find((r) => r.gameId === PLAYER_DEFAULT) ?? null;
      for (const m of waiting) {
        const prefs = effectivePreferences(defaults, rows.find((r) => r.gameId === m.game_id) ?? null, this.config.notifications.defaultReminderMinutes);
        at[m.id] = this.readableAt(now, m, prefs.quiet).toISOString();
      }
    }
    // As planDeliveries: mail is not held for a digest that comes at or after its deadline.
    const alone = waiting.filter((m) => {
      const digestAt = m.status === 'held' && m.digest_id ? at[m.digest_id] : undefined;
      const deadline = bindingDeadline(m.content);
      return digestAt !== undefined && deadline !== null && Date.parse(digestAt) >= Date.parse(deadline);
    });
    await this.prisma.pool.query(RECONCILE_SQL, [playerId, now, JSON.stringify(at), JSON.stringify(alone.map((m) => m.id))]);
  }

  /**
   * When a waiting message may go out now: a digest at its day's hour, out of the quiet hours
   * (at once, quiet hours allowing, if that is past: its mail has waited long enough); anything
   * else at the end of the quiet hours, unless its deadline would pass first.
   */
  private readableAt(now: Date, m: Waiting, quiet: QuietHours | null): Date {
    if (m.kind === 'digest' && typeof m.content.day === 'string') {
      const slot = digestTime(m.content.day, m.time_zone, this.config.notifications.digestHour, quiet);
      if (slot > now) return slot;
    }
    const binding = bindingDeadline(m.content);
    return whenReadable(now, m.time_zone, quiet, binding === null ? null : new Date(binding));
  }

  /** The player's time zone changed: quiet hours, and what waits for them, follow it. */
  timeZoneChanged(playerId: string): Promise<void> {
    return this.reconcile(playerId);
  }

  /** Drops a game's overrides: the player's defaults apply to it again. */
  async clearGamePreferences(playerId: string, gameId: string): Promise<void> {
    await this.prisma.notificationPreference.deleteMany({ where: { playerId, gameId } });
    await this.reconcile(playerId);
  }

  /** One-click unsubscribe: no more mail about one game, or none at all. */
  async unsubscribe(scope: UnsubscribeScope): Promise<void> {
    // "All mail" means all: a game whose mail the player once turned on would otherwise keep
    // its own setting over the default. Its other overrides stay.
    await this.save(scope.playerId, { emailEnabled: false }, scope.gameId ?? undefined, { clearGamesEmail: scope.gameId === null });
  }

  private async rows(playerId: string, gameId?: string): Promise<[PreferenceRow | null, PreferenceRow | null]> {
    const rows = await this.prisma.notificationPreference.findMany({ where: { playerId, gameId: { in: [PLAYER_DEFAULT, ...(gameId ? [gameId] : [])] } } });
    return [rows.find((r) => r.gameId === PLAYER_DEFAULT) ?? null, (gameId && rows.find((r) => r.gameId === gameId)) || null];
  }

  private async requirePlayer(playerId: string): Promise<void> {
    const found = await this.prisma.player.findUnique({ where: { id: playerId }, select: { id: true } });
    if (!found) throw new NotFoundError('player/not_found', 'No such player.');
  }
}

function toRow(patch: PreferencesPatch): Partial<PreferenceRow> {
  const row: Partial<PreferenceRow> = {};
  if (patch.channels) {
    if (patch.channels.email !== undefined) row.emailEnabled = patch.channels.email;
    if (patch.channels.webhook !== undefined) row.webhookEnabled = patch.channels.webhook;
    if (patch.channels.discord !== undefined) row.discordEnabled = patch.channels.discord;
  }
  if (patch.quietHours === 'inherit') {
    Object.assign(row, { quietHoursEnabled: null, quietStart: null, quietEnd: null });
  } else if (patch.quietHours === null) {
    Object.assign(row, { quietHoursEnabled: false, quietStart: null, quietEnd: null });
  } else if (patch.quietHours) {
    const start = parseClockTime(patch.quietHours.start);
    const end = parseClockTime(patch.quietHours.end);
    if (start === null || end === null || start === end) {
      // Both APIs name the two times quietStart and quietEnd; an end equal to the start is the end's fault.
      throw new BadInputError('notifications/invalid_quiet_hours', 'Quiet hours are two different local times as HH:MM, e.g. 22:00 to 07:30.', { field: start === null ? 'quietStart' : 'quietEnd' });
    }
    Object.assign(row, { quietHoursEnabled: true, quietStart: start, quietEnd: end });
  }
  if (patch.reminderLeadMinutes !== undefined) {
    const m = patch.reminderLeadMinutes;
    if (m !== null && (!Number.isInteger(m) || m < 0 || m > MAX_REMINDER_MINUTES)) {
      throw new BadInputError('notifications/invalid_reminder', `The reminder comes 0 to ${MAX_REMINDER_MINUTES} whole minutes before the deadline.`, { field: 'reminderLeadMinutes' });
    }
    row.reminderLeadMinutes = m;
  }
  if (patch.digest !== undefined) row.digest = patch.digest;
  return row;
}
