import { Injectable } from '@nestjs/common';
import { PrismaService, Tx } from '../database/prisma.service';
import { IdempotencyKeyReusedError, VersionConflictError } from '../event-store/event-store.errors';
import { EventStore, KeyedResult } from '../event-store/event-store.service';
import type { JsonObject } from '../rules/model/json';

export { STANDING_ORDERS_SET, type StandingOrdersSetData } from './standing-overlay';

/** Each side's standing orders as the engine's StandingOrdersSet event would have set them. */
export type StoredStanding = Readonly<Record<string, JsonObject>>;

/**
 * Each side's current standing reaction orders, kept beside the log rather than in it. A side
 * may set them at any time, so a version of the log for each would tell the other side that it
 * did (every side reads every version, redacted or not). The loader lays them over the folded
 * state it hands out (GameLoader), so the engine decides with them as if the log held them.
 */
@Injectable()
export class StandingOrdersStore {
  constructor(
    private readonly prisma: PrismaService,
    private readonly store: EventStore,
  ) {}

  async read(gameId: string, tx?: Tx): Promise<StoredStanding> {
    const sql = 'SELECT side, orders FROM standing_orders WHERE game_id = $1 ORDER BY side';
    const rows = tx
      ? await tx.$queryRawUnsafe<Array<{ side: string; orders: JsonObject }>>(sql, gameId)
      : (await this.prisma.pool.query<{ side: string; orders: JsonObject }>({ text: sql, values: [gameId], ...(await this.named('fieldpost_standing')) })).rows;
    return Object.fromEntries(rows.map((r) => [r.side, r.orders]));
  }

  /**
   * Replaces the side's orders, checked against the game at `expectedVersion`: only while the
   * game is still there (the games row is locked against a commit until this one ends, and one
   * that won the race makes this write nothing: a conflict). The idempotency key is claimed in
   * the same statement, with the empty range of versions `expectedVersion + 1 .. expectedVersion`
   * (nothing was appended), so a retry answers as the first request did and writes nothing.
   */
  async save(gameId: string, side: string, orders: JsonObject, expectedVersion: number, key: { key: string; hash: string }): Promise<{ replayed: false } | { replayed: true; earlier: KeyedResult }> {
    const sql = `WITH so_game AS (SELECT 1 FROM games WHERE id = $1 AND version = $2 FOR SHARE),
so_key AS (
  INSERT INTO idempotency_keys (key, game_id, request_hash, from_version, to_version)
  SELECT $3, $1, $4, $2 + 1, $2 FROM so_game RETURNING 1
)
INSERT INTO standing_orders (game_id, side, orders, updated_at)
SELECT $1, $5, $6::json, now() FROM so_key
ON CONFLICT (game_id, side) DO UPDATE SET orders = EXCLUDED.orders, updated_at = EXCLUDED.updated_at
RETURNING 1`;
    let saved = 0;
    try {
      saved = (await this.prisma.pool.query({ text: sql, values: [gameId, expectedVersion, key.key, key.hash, side, JSON.stringify(orders)], ...(await this.named('fieldpost_standing_save')) })).rowCount ?? 0;
    } catch (err) {
      if ((err as { code?: string }).code !== '23505') throw err;
    }
    if (saved === 1) return { replayed: false };
    const earlier = await this.store.keyedResult(key.key);
    if (earlier) {
      if (earlier.gameId !== gameId || earlier.requestHash !== key.hash) throw new IdempotencyKeyReusedError(key.key);
      return { replayed: true, earlier };
    }
    throw new VersionConflictError(gameId, expectedVersion, await this.store.currentVersion(gameId));
  }

  private async named(name: string): Promise<{ name?: string }> {
    const statement = await this.prisma.statementName(name);
    return statement ? { name: statement } : {};
  }
}
