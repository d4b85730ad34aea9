import { Injectable } from '@nestjs/common';
import type pg from 'pg';
import { PrismaService } from '../../database/prisma.service';
import type { NotificationKind } from '../notification-intent';
import { OUTDATED_CALL_PARAMS, outdatedCallSql } from '../outdated-call';
import type { DigestItem } from '../templates/renderable';
import type { ClaimedDelivery, Settlement } from './claimed-delivery';

/**
 * Claims due deliveries for one worker: the inner SELECT locks rows FOR UPDATE SKIP LOCKED, so
 * concurrent workers (in this process or another instance) take disjoint rows, and the UPDATE
 * sets a lease. A worker that dies mid-send leaves the lease to run out; then the row is due
 * again and another worker sends it (at-least-once, same delivery id).
 */
const CLAIM_SQL = `
WITH due AS (
  SELECT id FROM notification_deliveries
  WHERE status = 'pending' AND not_before <= $1 AND (locked_until IS NULL OR locked_until <= $1)
  ORDER BY not_before
  LIMIT $2
  FOR UPDATE SKIP LOCKED
), claimed AS (
  UPDATE notification_deliveries d
  SET locked_until = $3, claim_token = $4, attempts = d.attempts + 1, first_attempt_at = coalesce(d.first_attempt_at, $1)
  FROM due WHERE d.id = due.id
  RETURNING d.id, d.notification_id, d.player_id, d.channel, d.endpoint_id, d.attempts, d.first_attempt_at
)
SELECT c.*, n.kind, n.game_id, n.side, n.game_version, n.content, n.created_at,
       p.email, p.display_name, p.time_zone,
       e.url, e.secret, e.previous_secret, e.previous_secret_until, e.enabled AS endpoint_enabled,
       ${outdatedCallSql('$5', '$6')} AS outdated
FROM claimed c
JOIN notifications n ON n.id = c.notification_id
JOIN players p ON p.id = c.player_id
LEFT JOIN notification_endpoints e ON e.id = c.endpoint_id
LEFT JOIN games g ON g.id = n.game_id`;


/** Only the holder of the current lease may settle a delivery. */
const SETTLE_SQL = `
UPDATE notification_deliveries
SET status = $3, not_before = coalesce($4, not_before), finished_at = $5, last_error = $6, last_status = $7, locked_until = NULL
WHERE id = $1 AND claim_token = $2 AND status = 'pending'
RETURNING id`;

/** Only while the lease is still this worker's, like SETTLE_SQL. */
const RENEW_SQL = `
UPDATE notification_deliveries SET locked_until = $3
WHERE id = $1 AND claim_token = $2 AND status = 'pending'`;

/**
 * A held notice's game has gone on when what the notice tells (the turn, whose turn, the deadline,
 * an end) is no longer so: a longer log alone (a reminder sent, an undo proposed) leaves it true.
 */
const HELD_SQL = `
SELECT d.id, n.id AS notification_id, n.kind, n.game_id, n.content, n.created_at,
  coalesce(g.version > n.game_version AND (
    g.status = 'finished'
    OR g.turn IS DISTINCT FROM (n.content->>'turn')::int
    OR g.deadline_at IS DISTINCT FROM (n.content->>'deadlineAt')::timestamptz
    OR (SELECT coalesce(jsonb_agg(s ORDER BY s), '[]') FROM jsonb_array_elements_text(g.acting) s)
       IS DISTINCT FROM (SELECT coalesce(jsonb_agg(w->>'side' ORDER BY w->>'side'), '[]') FROM jsonb_array_elements(n.content->'whoseTurn') w)
  ), false) AS moved_on
FROM notification_deliveries d JOIN notifications n ON n.id = d.notification_id
LEFT JOIN games g ON g.id = n.game_id
WHERE d.digest_id = $1 AND d.status = 'held'
ORDER BY n.created_at, n.id`;

const SETTLE_HELD_SQL = `
UPDATE notification_deliveries SET status = $2, finished_at = $3, last_error = $4, not_before = $3
WHERE id IN (SELECT jsonb_array_elements_text($1::jsonb)) AND status = 'held'`;

/** Mail that joined a digest after it was read (a lease ran out) goes out on its own. */
const RELEASE_HELD_SQL = `
UPDATE notification_deliveries SET status = 'pending', digest_id = NULL, not_before = $2
WHERE digest_id = $1 AND status = 'held'`;

const DISABLE_ENDPOINT_SQL = `
UPDATE notification_endpoints SET enabled = false, disabled_at = $2, disabled_reason = $3
WHERE id = $1 AND enabled
RETURNING id, player_id, kind, url, game_id`;

const CANCEL_ENDPOINT_SQL = `
UPDATE notification_deliveries SET status = 'cancelled', finished_at = $2, last_error = 'the endpoint was disabled', locked_until = NULL
WHERE endpoint_id = $1 AND status = 'pending' AND id <> $3`;

export interface DisabledEndpoint {
  id: string;
  playerId: string;
  kind: 'webhook' | 'discord';
  url: string;
  /** The one game it was for; null: all the player's games. */
  gameId: string | null;
}

@Injectable()
export class DeliveryRepository {
  constructor(private readonly prisma: PrismaService) {}

  async claim(limit: number, now: Date, leaseMs: number, claimToken: string): Promise<ClaimedDelivery[]> {
    const name = await this.prisma.statementName('notifications_claim');
    const { rows } = await this.prisma.pool.query({
      ...(name ? { name } : {}),
      text: CLAIM_SQL,
      values: [now, limit, new Date(now.getTime() + leaseMs), claimToken, ...OUTDATED_CALL_PARAMS],
    });
    return rows.map((r: Record<string, unknown>) => toClaimed(r, claimToken));
  }

  /** False when the lease was lost (another worker has the row now). */
  async settle(d: ClaimedDelivery, s: Settlement, now: Date, client: pg.ClientBase | pg.Pool = this.prisma.pool): Promise<boolean> {
    const finished = s.status === 'retry' ? null : now;
    const name = await this.prisma.statementName('notifications_settle');
    const { rowCount } = await client.query({
      ...(name ? { name } : {}),
      text: SETTLE_SQL,
      values: [d.id, d.claimToken, s.status === 'retry' ? 'pending' : s.status, s.status === 'retry' ? s.at : null, finished, 'error' in s ? storable(s.error) : null, s.lastStatus ?? null],
    });
    return rowCount === 1;
  }

  /** Moves the lease of a delivery this worker still holds; false when another worker has it. */
  async renew(d: ClaimedDelivery, until: Date): Promise<boolean> {
    const { rowCount } = await this.prisma.pool.query(RENEW_SQL, [d.id, d.claimToken, until]);
    return rowCount === 1;
  }

  async heldFor(digestId: string): Promise<Array<DigestItem & { deliveryId: string }>> {
    const { rows } = await this.prisma.pool.query(HELD_SQL, [digestId]);
    return rows.map((r: Record<string, unknown>) => ({
      deliveryId: String(r.id),
      notificationId: String(r.notification_id),
      kind: r.kind as NotificationKind,
      gameId: String(r.game_id),
      content: r.content as DigestItem['content'],
      createdAt: (r.created_at as Date).toISOString(),
      movedOn: r.moved_on === true,
    }));
  }

  /** Settles a digest and the mail it carried together. */
  async settleDigest(d: ClaimedDelivery, s: Settlement, carried: string[], now: Date): Promise<void> {
    await this.inTransaction(async (client) => {
      if (!(await this.settle(d, s, now, client)) || s.status === 'retry') return;
      await client.query(SETTLE_HELD_SQL, [JSON.stringify(carried), s.status, now, 'error' in s ? storable(s.error) : null]);
      await client.query(RELEASE_HELD_SQL, [d.id, now]);
    });
  }

  /** Disables an endpoint once; returns it only to the caller that actually disabled it. */
  async disableEndpoint(client: pg.ClientBase, endpointId: string, reason: string, now: Date, exceptDeliveryId: string): Promise<DisabledEndpoint | null> {
    const { rows } = await client.query(DISABLE_ENDPOINT_SQL, [endpointId, now, storable(reason)]);
    await client.query(CANCEL_ENDPOINT_SQL, [endpointId, now, exceptDeliveryId]);
    const r = rows[0] as Record<string, unknown> | undefined;
    return r ? { id: String(r.id), playerId: String(r.player_id), kind: r.kind as DisabledEndpoint['kind'], url: String(r.url), gameId: (r.game_id as string | null) ?? null } : null;
  }

  async inTransaction<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    const client = await this.prisma.pool.connect();
    try {
      await client.query('BEGIN');
      const out = await work(client);
      await client.query('COMMIT');
      return out;
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      client.release();
    }
  }
}

/**
 * Errors quote what the receiver answered, and Postgres text cannot hold a NUL: a settle that
 * failed on one would leave the row to its lease, to be sent and fail again every lease period,
 * never reaching its dead letter.
 */
export function storable(error: string): string {
  return error.slice(0, 2000).replace(/\u0000/g, '\ufffd');
}

function toClaimed(r: Record<string, unknown>, claimToken: string): ClaimedDelivery {
  return {
    id: String(r.id),
    notificationId: String(r.notification_id),
    playerId: String(r.player_id),
    channel: r.channel as ClaimedDelivery['channel'],
    attempts: Number(r.attempts),
    firstAttemptAt: r.first_attempt_at as Date,
    claimToken,
    outdated: (r.outdated as string | null) ?? null,
    notification: {
      kind: String(r.kind),
      gameId: (r.game_id as string | null) ?? null,
      side: (r.side as string | null) ?? null,
      gameVersion: (r.game_version as number | null) ?? null,
      content: r.content,
      createdAt: r.created_at as Date,
    },
    recipient: { playerId: String(r.player_id), email: String(r.email), displayName: String(r.display_name), timeZone: String(r.time_zone) },
    endpoint: r.endpoint_id
      ? {
          id: String(r.endpoint_id),
          url: String(r.url),
          secret: (r.secret as string | null) ?? null,
          previousSecret: (r.previous_secret as string | null) ?? null,
          previousSecretUntil: (r.previous_secret_until as Date | null) ?? null,
          enabled: r.endpoint_enabled === true,
        }
      : null,
  };
}
