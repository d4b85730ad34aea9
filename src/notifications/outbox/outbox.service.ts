import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG } from '../../config/config.module';
import type { AppConfig } from '../../config/config.schema';
import type { Tx } from '../../database/prisma.service';
import { Clock, NOTIFICATION_CLOCK } from '../clock';
import type { NotificationIntent, NotificationOutbox } from '../notification-intent';
import { effectivePreferences, rowFromJson } from '../preferences/preferences';
import { safeTimeZone } from '../schedule/local-time';
import { itemFromIntent, OutboxItem } from './outbox-item';
import { PlannedDelivery, PlannedDigest, planDeliveries, RecipientContext } from './plan';
import { SqlRunner, txRunner } from './sql-runner';

/**
 * Each recipient's time zone, settings (default and game override) and endpoints (all-games and
 * this game's, disabled ones too: planning picks, see endpointsFor), in one round trip.
 */
const CONTEXT_SQL = `
SELECT x.player_id, x.game_id, p.time_zone, to_jsonb(d) AS player_prefs, to_jsonb(o) AS game_prefs,
  (SELECT coalesce(jsonb_agg(jsonb_build_object('id', e.id, 'kind', e.kind, 'gameId', e.game_id, 'enabled', e.enabled) ORDER BY e.created_at, e.id), '[]'::jsonb)
     FROM notification_endpoints e WHERE e.player_id = x.player_id AND (e.game_id IS NULL OR e.game_id = x.game_id)) AS endpoints
FROM jsonb_to_recordset($1::jsonb) AS x(player_id text, game_id text)
JOIN players p ON p.id = x.player_id
LEFT JOIN notification_preferences d ON d.player_id = x.player_id AND d.game_id = ''
LEFT JOIN notification_preferences o ON x.game_id IS NOT NULL AND o.player_id = x.player_id AND o.game_id = x.game_id`;

const DIGESTS_SQL = `
WITH x AS (
  SELECT * FROM jsonb_to_recordset($1::jsonb) AS x(notification_id text, delivery_id text, player_id text, day text, at timestamptz)
), n AS (
  INSERT INTO notifications (id, player_id, game_id, kind, content, created_at)
  SELECT notification_id, player_id, NULL, 'digest', jsonb_build_object('day', day), $2::timestamptz FROM x
  ON CONFLICT (id) DO NOTHING
)
INSERT INTO notification_deliveries (id, notification_id, player_id, channel, status, not_before, created_at)
SELECT delivery_id, notification_id, player_id, 'email', 'pending', at, $2::timestamptz FROM x
ON CONFLICT (id) DO NOTHING`;

/**
 * A digest still takes mail only while no worker has claimed it. FOR SHARE makes a claim wait
 * for this transaction, so a held mail is either in the digest the worker reads or sent alone.
 */
const OPEN_DIGESTS_SQL = `
SELECT id FROM notification_deliveries
WHERE id IN (SELECT jsonb_array_elements_text($1::jsonb)) AND status = 'pending'
  AND (locked_until IS NULL OR locked_until <= $2::timestamptz)
FOR SHARE`;

/** Deliveries are only written for notifications this statement inserted: a repeat is a no-op. */
const WRITE_SQL = `
WITH n AS (
  INSERT INTO notifications (id, player_id, game_id, kind, side, game_version, content, created_at)
  SELECT id, player_id, game_id, kind, side, game_version, content, $3::timestamptz
  FROM jsonb_to_recordset($1::jsonb) AS x(id text, player_id text, game_id text, kind text, side text, game_version int, content jsonb)
  ON CONFLICT (id) DO NOTHING
  RETURNING id
)
INSERT INTO notification_deliveries (id, notification_id, player_id, channel, endpoint_id, status, not_before, digest_id, created_at)
SELECT x.id, x.notification_id, x.player_id, x.channel, x.endpoint_id, x.status, x.not_before, x.digest_id, $3::timestamptz
FROM jsonb_to_recordset($2::jsonb) AS x(id text, notification_id text, player_id text, channel text, endpoint_id text, status text, not_before timestamptz, digest_id text)
WHERE x.notification_id IN (SELECT id FROM n)
ON CONFLICT (id) DO NOTHING`;

/**
 * The transactional outbox. One `notifications` row per intent (its content, once) and one
 * `notification_deliveries` row per enabled channel and endpoint, both in the caller's
 * transaction: if the game's events commit, so do their notifications, and if not, neither.
 * Settings are read here, at enqueue time, to fan out and to schedule (quiet hours, digest).
 */
@Injectable()
export class PostgresNotificationOutbox implements NotificationOutbox {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(NOTIFICATION_CLOCK) private readonly clock: Clock,
  ) {}

  async enqueue(tx: Tx, intents: NotificationIntent[]): Promise<void> {
    await this.write(txRunner(tx), intents.map(itemFromIntent));
  }

  /** Also used by the worker for its own notices, on its own transaction. */
  async write(run: SqlRunner, items: OutboxItem[]): Promise<void> {
    if (items.length === 0) return;
    const now = this.clock.now();
    const contexts = await this.contexts(run, items);
    const deliveries: PlannedDelivery[] = [];
    const digests = new Map<string, PlannedDigest>();
    for (const item of items) {
      const ctx = contexts.get(key(item.playerId, item.gameId));
      if (!ctx) continue; // unknown player: the notifications row's foreign key refuses it below
      const plan = planDeliveries(item, ctx, { now, emailAvailable: this.config.notifications.smtp !== null, digestHour: this.config.notifications.digestHour });
      deliveries.push(...plan.deliveries);
      if (plan.digest) digests.set(plan.digest.deliveryId, plan.digest);
    }
    if (digests.size > 0) await this.openDigests(run, [...digests.values()], deliveries, now);
    const rows = items.map((i) => ({ id: i.id, player_id: i.playerId, game_id: i.gameId, kind: i.kind, side: i.side, game_version: i.gameVersion, content: i.content }));
    const planned = deliveries.map((d) => ({
      id: d.id,
      notification_id: d.notificationId,
      player_id: d.playerId,
      channel: d.channel,
      endpoint_id: d.endpointId,
      status: d.status,
      not_before: d.notBefore.toISOString(),
      digest_id: d.digestId,
    }));
    await run(WRITE_SQL, [JSON.stringify(rows), JSON.stringify(planned), now.toISOString()]);
  }

  private async contexts(run: SqlRunner, items: OutboxItem[]): Promise<Map<string, RecipientContext>> {
    const pairs = [...new Map(items.map((i) => [key(i.playerId, i.gameId), { player_id: i.playerId, game_id: i.gameId }])).values()];
    const rows = await run(CONTEXT_SQL, [JSON.stringify(pairs)]);
    const out = new Map<string, RecipientContext>();
    for (const r of rows) {
      const prefs = effectivePreferences(
        rowFromJson(r.player_prefs as Record<string, unknown> | null),
        rowFromJson(r.game_prefs as Record<string, unknown> | null),
        this.config.notifications.defaultReminderMinutes,
      );
      out.set(key(String(r.player_id), (r.game_id as string | null) ?? null), {
        timeZone: safeTimeZone(r.time_zone as string),
        prefs,
        endpoints: r.endpoints as RecipientContext['endpoints'],
      });
    }
    return out;
  }

  /** Creates the digests; a mail whose digest is already being sent goes out on its own. */
  private async openDigests(run: SqlRunner, digests: PlannedDigest[], deliveries: PlannedDelivery[], now: Date): Promise<void> {
    const rows = digests.map((d) => ({ notification_id: d.notificationId, delivery_id: d.deliveryId, player_id: d.playerId, day: d.day, at: d.at.toISOString() }));
    await run(DIGESTS_SQL, [JSON.stringify(rows), now.toISOString()]);
    const open = new Set((await run(OPEN_DIGESTS_SQL, [JSON.stringify(digests.map((d) => d.deliveryId)), now.toISOString()])).map((r) => String(r.id)));
    for (const d of deliveries) {
      if (d.status === 'held' && d.digestId && !open.has(d.digestId)) {
        d.status = 'pending';
        d.digestId = null;
        d.notBefore = d.aloneAt ?? now;
      }
    }
  }
}

function key(playerId: string, gameId: string | null): string {
  return `${playerId}\u0000${gameId ?? ''}`;
}
