import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG } from '../../config/config.module';
import type { AppConfig } from '../../config/config.schema';
import { Clock, NOTIFICATION_CLOCK } from '../clock';
import { PrismaService, type Tx } from '../../database/prisma.service';
import { Cte, SqlParams, withCtes } from '../../database/sql-params';
import { CALLS_TO_ACT, type NotificationIntent, type NotificationKind, type NotificationOutbox, type PreparedNotifications, type PrepareOptions, type RecipientSettings } from '../notification-intent';
import { effectivePreferences, rowFromJson } from '../preferences/preferences';
import { safeTimeZone } from '../schedule/local-time';
import { itemFromIntent, OutboxItem } from './outbox-item';
import { PlannedDelivery, PlannedDigest, planDeliveries, RecipientContext } from './plan';
import { pgRunner, SqlRunner, txRunner } from './sql-runner';

/**
 * Each recipient's display name, time zone, settings (default and game override) and endpoints (all-games and
 * this game's, disabled ones too: planning picks, see endpointsFor), in one round trip.
 */
const CONTEXT_SQL = `
SELECT x.player_id, x.game_id, p.time_zone, p.display_name, to_jsonb(d) AS player_prefs, to_jsonb(o) AS game_prefs,
  (SELECT coalesce(jsonb_agg(jsonb_build_object('id', e.id, 'kind', e.kind, 'gameId', e.game_id, 'enabled', e.enabled) ORDER BY e.created_at, e.id), '[]'::jsonb)
     FROM notification_endpoints e WHERE e.player_id = x.player_id AND (e.game_id IS NULL OR e.game_id = x.game_id)) AS endpoints
FROM jsonb_to_recordset($1::jsonb) AS x(player_id text, game_id text)
JOIN players p ON p.id = x.player_id
LEFT JOIN notification_preferences d ON d.player_id = x.player_id AND d.game_id = ''
LEFT JOIN notification_preferences o ON x.game_id IS NOT NULL AND o.player_id = x.player_id AND o.game_id = x.game_id`;

/**
 * The outbox rows as parts of one statement: the digests, then the notifications and their
 * deliveries, written only when `guard` holds (the caller's events went in).
 * - Deliveries are only written for notifications this statement inserted: a repeat is a no-op.
 * - A held mail joins its digest only while no worker has claimed the digest. FOR SHARE makes
 *   a claim wait for this statement's transaction, so a held mail is either in the digest the
 *   worker reads or goes out alone (at aloneAt). A digest this statement creates is open.
 * - Digest rows are the only rows two games' commits both write (the same players' day), and an
 *   insert that meets another transaction's uncommitted one waits for it: they go in id order,
 *   so that two commits listing the same players in other orders queue instead of deadlocking.
 */
function outboxCtes(p: SqlParams, guard: string, rows: unknown[], planned: unknown[], digests: unknown[], now: string): Cte[] {
  const at = `${p.add(now)}::timestamptz`;
  const ctes: Cte[] = [];
  let open = 'SELECT NULL::text AS id WHERE false';
  if (digests.length > 0) {
    const d = p.json(digests);
    ctes.push(
      {
        name: 'ob_digest_n',
        sql: `INSERT INTO notifications (id, player_id, game_id, kind, content, created_at)
SELECT notification_id, player_id, NULL, 'digest', jsonb_build_object('day', day), ${at}
FROM jsonb_to_recordset(${d}) AS x(notification_id text, player_id text, day text) WHERE ${guard}
ORDER BY notification_id
ON CONFLICT (id) DO NOTHING`,
      },
      {
        name: 'ob_digest_d',
        sql: `INSERT INTO notification_deliveries (id, notification_id, player_id, channel, status, not_before, created_at)
SELECT delivery_id, notification_id, player_id, 'email', 'pending', at, ${at}
FROM jsonb_to_recordset(${d}) AS x(notification_id text, delivery_id text, player_id text, at timestamptz) WHERE ${guard}
ORDER BY delivery_id
ON CONFLICT (id) DO NOTHING
RETURNING id`,
      },
      {
        name: 'ob_digest_open',
        sql: `SELECT id FROM notification_deliveries
WHERE id IN (SELECT x.delivery_id FROM jsonb_to_recordset(${d}) AS x(delivery_id text)) AND status = 'pending'
  AND (locked_until IS NULL OR locked_until <= ${at})
FOR SHARE`,
      },
    );
    open = 'SELECT id FROM ob_digest_d UNION ALL SELECT id FROM ob_digest_open';
  }
  ctes.push(
    {
      name: 'ob_n',
      sql: `INSERT INTO notifications (id, player_id, game_id, kind, side, game_version, content, created_at)
SELECT id, player_id, game_id, kind, side, game_version, content, ${at}
FROM jsonb_to_recordset(${p.json(rows)}) AS x(id text, player_id text, game_id text, kind text, side text, game_version int, content jsonb)
WHERE ${guard}
ON CONFLICT (id) DO NOTHING
RETURNING id`,
    },
    {
      name: 'ob_d',
      sql: `INSERT INTO notification_deliveries (id, notification_id, player_id, channel, endpoint_id, status, not_before, digest_id, created_at)
SELECT x.id, x.notification_id, x.player_id, x.channel, x.endpoint_id,
  CASE WHEN x.digest_id IS NULL OR x.digest_id IN (${open}) THEN x.status ELSE 'pending' END,
  CASE WHEN x.digest_id IS NULL OR x.digest_id IN (${open}) THEN x.not_before ELSE coalesce(x.alone_at, ${at}) END,
  CASE WHEN x.digest_id IN (${open}) THEN x.digest_id END,
  ${at}
FROM jsonb_to_recordset(${p.json(planned)}) AS x(id text, notification_id text, player_id text, channel text, endpoint_id text, status text, not_before timestamptz, digest_id text, alone_at timestamptz)
WHERE x.notification_id IN (SELECT id FROM ob_n)
ON CONFLICT (id) DO NOTHING`,
    },
  );
  return ctes;
}

/**
 * Withdraws the game's reminders still waiting to go out. One a worker is sending (leased) is
 * left to finish; it is too late to stop. Sibling parts see the table as it was before the
 * statement, so a reminder this statement writes is never touched.
 */
function staleRemindersCte(p: SqlParams, guard: string, gameId: string, now: string, players?: readonly string[]): Cte {
  return players
    ? withdrawCte('ob_withdrawn_reminders', p, guard, gameId, now, ['deadline_reminder'], 'its side has acted', false, players)
    : withdrawCte('ob_withdrawn_reminders', p, guard, gameId, now, ['deadline_reminder'], 'the deadline it was about has changed', false);
}

/** As staleRemindersCte, for the notices of an undo proposal that is closed; mail held for a digest goes too. */
function closedUndoCte(p: SqlParams, guard: string, gameId: string, now: string): Cte {
  return withdrawCte('ob_withdrawn_undo', p, guard, gameId, now, ['undo_proposed'], 'the proposal is closed', true);
}

/**
 * As staleRemindersCte, for every call to act of a game that ended. Mail held for a digest goes
 * too, unless a worker is sending that digest: it has read the mail into it already.
 */
function endedGameCte(p: SqlParams, guard: string, gameId: string, now: string): Cte {
  return withdrawCte('ob_withdrawn', p, guard, gameId, now, CALLS_TO_ACT, 'the game is over', true);
}

function withdrawCte(name: string, p: SqlParams, guard: string, gameId: string, now: string, kinds: readonly NotificationKind[], reason: string, held: boolean, players?: readonly string[]): Cte {
  const at = `${p.add(now)}::timestamptz`;
  const waiting = `(d.status = 'pending' AND (d.locked_until IS NULL OR d.locked_until <= ${at}))`;
  return {
    name,
    sql: `UPDATE notification_deliveries d SET status = 'cancelled', finished_at = ${at}, last_error = ${p.add(reason)}, locked_until = NULL
FROM notifications n
WHERE ${guard} AND ${held ? `(${waiting} OR (d.status = 'held' AND NOT EXISTS (SELECT 1 FROM notification_deliveries g WHERE g.id = d.digest_id AND g.locked_until > ${at})))` : waiting}
  AND n.id = d.notification_id AND n.game_id = ${p.add(gameId)} AND n.kind = ANY(${p.add(kinds)}::text[])${players ? ` AND n.player_id = ANY(${p.add(players)}::text[])` : ''}`,
  };
}

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
    private readonly prisma: PrismaService,
  ) {}

  async settingsFor(gameId: string, playerIds: readonly string[]): Promise<RecipientSettings> {
    const pairs = playerIds.map((playerId) => ({ playerId, gameId }));
    return new ReadSettings(gameId, await this.contexts(pgRunner(this.prisma.pool), pairs));
  }

  /** Plans from the settings given, reading the rest now (one round trip); the rows go into the caller's statement. */
  async prepare(intents: NotificationIntent[], settings?: RecipientSettings, options: PrepareOptions = {}): Promise<PreparedNotifications> {
    const known = settings instanceof ReadSettings ? settings.contexts : undefined;
    const planned = await this.plan(pgRunner(this.prisma.pool), intents.map(itemFromIntent), known);
    // A statement must not update one row twice: the withdrawals cover kinds apart, and the end's covers them all.
    const { gameEndedIn: ended, deadlineChangedIn: changed, undoClosedIn: undone } = options;
    if (ended === undefined && changed === undefined && undone === undefined) return planned;
    const now = this.clock.now().toISOString();
    const withdraw = (p: SqlParams, guard: string): Cte[] =>
      ended !== undefined
        ? [endedGameCte(p, guard, ended, now)]
        : [
            ...(changed !== undefined ? [staleRemindersCte(p, guard, changed, now, options.remindersOf)] : []),
            ...(undone !== undefined ? [closedUndoCte(p, guard, undone, now)] : []),
          ];
    return { ctes: (p, guard) => [...planned.ctes(p, guard), ...withdraw(p, guard)] };
  }

  async enqueue(tx: Tx, intents: NotificationIntent[]): Promise<void> {
    await this.write(txRunner(tx), intents.map(itemFromIntent));
  }

  /** Also used by the worker for its own notices, on its own transaction. */
  async write(run: SqlRunner, items: OutboxItem[]): Promise<void> {
    if (items.length === 0) return;
    const p = new SqlParams();
    await run(withCtes((await this.plan(run, items)).ctes(p, 'true'), 'SELECT 1'), p.values);
  }

  private async plan(run: SqlRunner, items: OutboxItem[], known?: ReadonlyMap<string, RecipientContext>): Promise<PreparedNotifications> {
    if (items.length === 0) return { ctes: () => [] };
    const now = this.clock.now();
    const missing = known ? items.filter((i) => !known.has(key(i.playerId, i.gameId))) : items;
    const read = missing.length > 0 ? await this.contexts(run, missing) : new Map<string, RecipientContext>();
    const contexts = known ? new Map([...known, ...read]) : read;
    const deliveries: PlannedDelivery[] = [];
    const digests = new Map<string, PlannedDigest>();
    for (const item of items) {
      const ctx = contexts.get(key(item.playerId, item.gameId));
      if (!ctx) continue; // unknown player: the notifications row's foreign key refuses it below
      const plan = planDeliveries(item, ctx, { now, emailAvailable: this.config.notifications.smtp !== null, digestHour: this.config.notifications.digestHour });
      deliveries.push(...plan.deliveries);
      if (plan.digest) digests.set(plan.digest.deliveryId, plan.digest);
    }
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
      alone_at: d.aloneAt?.toISOString() ?? null,
    }));
    const digestRows = [...digests.values()].map((d) => ({ notification_id: d.notificationId, delivery_id: d.deliveryId, player_id: d.playerId, day: d.day, at: d.at.toISOString() }));
    return { ctes: (p, guard) => outboxCtes(p, guard, rows, planned, digestRows, now.toISOString()) };
  }

  private async contexts(run: SqlRunner, wanted: ReadonlyArray<{ playerId: string; gameId: string | null }>): Promise<Map<string, Recipient>> {
    const pairs = [...new Map(wanted.map((i) => [key(i.playerId, i.gameId), { player_id: i.playerId, game_id: i.gameId }])).values()];
    // The same statement every time: prepared once per connection, where names are allowed.
    const rows = await run(CONTEXT_SQL, [JSON.stringify(pairs)], await this.prisma.statementName('notifications_context'));
    const out = new Map<string, Recipient>();
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
        displayName: String(r.display_name),
      });
    }
    return out;
  }
}

interface Recipient extends RecipientContext {
  displayName: string;
}

/** What settingsFor read: the same contexts that planning uses. */
class ReadSettings implements RecipientSettings {
  constructor(
    readonly gameId: string,
    readonly contexts: ReadonlyMap<string, Recipient>,
  ) {}

  reminderLeadMinutes(playerId: string): number | undefined {
    return this.contexts.get(key(playerId, this.gameId))?.prefs.reminderLeadMinutes;
  }

  displayName(playerId: string): string | undefined {
    return this.contexts.get(key(playerId, this.gameId))?.displayName;
  }
}

function key(playerId: string, gameId: string | null): string {
  return `${playerId}\u0000${gameId ?? ''}`;
}
