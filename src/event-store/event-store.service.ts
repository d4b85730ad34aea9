import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { PrismaService, Tx } from '../database/prisma.service';
import { IdempotencyKeyReusedError, VersionConflictError } from './event-store.errors';
import type { AppendResult, Checkpoint, GlobalEvent, NewEvent, StoredEvent } from './event-store.types';
import { START } from './event-store.types';

export interface AppendOptions {
  /** A retry with the same key and request returns the first result and writes nothing. */
  idempotencyKey?: string;
  /** What "the same request" means; defaults to a hash of the events' types and data. */
  requestHash?: string;
  /** Run inside the caller's transaction (for example to write outbox rows atomically). */
  tx?: Tx;
}

/**
 * The append is one SQL statement, so an unkeyed append costs one round trip and writes one
 * row per event:
 * - `ok` passes only if the expected version is the game's latest event (or 0 for a new game);
 * - the first new event (version expected+1) is inserted with ON CONFLICT DO NOTHING: the
 *   unique key on (game_id, version) is the concurrency guard, and a writer that lost the race
 *   inserts nothing and raises no error (a failed statement would cost a reconnect);
 * - the other events follow only if the first went in. No rival can hold their versions: to
 *   write expected+2 it would need expected+1 committed, and that row is ours.
 */
const APPEND_SQL = `
WITH ok AS (
  SELECT 1 WHERE $2::int = 0 OR EXISTS (SELECT 1 FROM events WHERE game_id = $1 AND version = $2::int)
), batch AS (
  SELECT e.value, e.ord::int AS ord FROM jsonb_array_elements($3::jsonb) WITH ORDINALITY AS e(value, ord)
), first AS (
  INSERT INTO events (game_id, version, type, data, meta)
  SELECT $1, $2::int + 1, value->>'type', value->'data', value->'meta' FROM ok, batch WHERE ord = 1
  ON CONFLICT (game_id, version) DO NOTHING
  RETURNING 1
), rest AS (
  INSERT INTO events (game_id, version, type, data, meta)
  SELECT $1, $2::int + ord, value->>'type', value->'data', value->'meta' FROM batch
  WHERE ord > 1 AND EXISTS (SELECT 1 FROM first)
  RETURNING 1
)
SELECT (SELECT count(*) FROM first)::int + (SELECT count(*) FROM rest)::int AS inserted`;

const CLAIM_KEY_SQL = `
INSERT INTO idempotency_keys (key, game_id, request_hash, from_version, to_version)
VALUES ($1, $2, $3, $4, $5)
ON CONFLICT (key) DO NOTHING
RETURNING 1 AS claimed`;

const UNIQUE_VIOLATION = '23505';

/** Something that runs SQL: the shared pg pool, or a Prisma transaction. */
type Runner = (sql: string, params: unknown[], name?: string) => Promise<Array<Record<string, unknown>>>;

interface EventRow {
  position: bigint | string;
  game_id: string;
  version: number;
  type: string;
  data: unknown;
  meta: StoredEvent['meta'];
}

@Injectable()
export class EventStore {
  constructor(private readonly prisma: PrismaService) {}

  async append(gameId: string, expectedVersion: number, events: NewEvent[], options: AppendOptions = {}): Promise<AppendResult> {
    const run = this.runner(options.tx);
    if (events.length === 0) {
      const current = await this.versionOf(run, gameId);
      if (current !== expectedVersion) throw new VersionConflictError(gameId, expectedVersion, current);
      return { gameId, fromVersion: current + 1, toVersion: current, replayed: false };
    }
    const payload = JSON.stringify(events.map((e) => ({ type: e.type, data: e.data ?? null, meta: e.meta })));
    const key = options.idempotencyKey;
    if (!key) return this.appendOnce(run, gameId, expectedVersion, payload, events.length);

    const hash = options.requestHash ?? hashEvents(gameId, expectedVersion, events);
    // The key row and the events commit together or not at all. A concurrent request with the
    // same key blocks on the key row until the first commits, then returns its result.
    const keyed = async (tx: Tx): Promise<AppendResult> => {
      const inTx = this.runner(tx);
      const claimed = await inTx(CLAIM_KEY_SQL, [key, gameId, hash, expectedVersion + 1, expectedVersion + events.length]);
      if (claimed.length === 0) {
        const earlier = await tx.idempotencyKey.findUnique({ where: { key } });
        if (!earlier || earlier.gameId !== gameId || earlier.requestHash !== hash) throw new IdempotencyKeyReusedError(key);
        return { gameId, fromVersion: earlier.fromVersion, toVersion: earlier.toVersion, replayed: true };
      }
      return this.appendOnce(inTx, gameId, expectedVersion, payload, events.length);
    };
    return options.tx ? keyed(options.tx) : this.prisma.$transaction(keyed);
  }

  private runner(tx?: Tx): Runner {
    if (tx) return (sql, params) => tx.$queryRawUnsafe<Array<Record<string, unknown>>>(sql, ...params);
    return async (sql, params, name) => {
      const statement = name ? await this.prisma.statementName(name) : undefined;
      return (await this.prisma.pool.query({ text: sql, values: params, ...(statement ? { name: statement } : {}) })).rows as Array<Record<string, unknown>>;
    };
  }

  private async appendOnce(run: Runner, gameId: string, expectedVersion: number, payload: string, count: number): Promise<AppendResult> {
    let inserted = 0;
    try {
      inserted = Number((await run(APPEND_SQL, [gameId, expectedVersion, payload], 'fieldpost_append'))[0]?.['inserted'] ?? 0);
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
    }
    if (inserted !== count) throw new VersionConflictError(gameId, expectedVersion, await this.versionOf(run, gameId));
    return { gameId, fromVersion: expectedVersion + 1, toVersion: expectedVersion + count, replayed: false };
  }

  async currentVersion(gameId: string, tx?: Tx): Promise<number> {
    return this.versionOf(this.runner(tx), gameId);
  }

  private async versionOf(run: Runner, gameId: string): Promise<number> {
    const rows = await run('SELECT coalesce(max(version), 0)::int AS v FROM events WHERE game_id = $1', [gameId]);
    return Number(rows[0]?.['v'] ?? 0);
  }

  /** A game's events with fromVersion <= version <= toVersion, in order. */
  async readStream(gameId: string, fromVersion = 1, toVersion?: number, tx?: Tx): Promise<StoredEvent[]> {
    const rows = await this.runner(tx)(
      `SELECT position, game_id, version, type, data, meta FROM events
       WHERE game_id = $1 AND version >= $2 AND ($3::int IS NULL OR version <= $3::int)
       ORDER BY version`,
      [gameId, fromVersion, toVersion ?? null],
    );
    return (rows as unknown as EventRow[]).map(toStored);
  }

  /**
   * Up to `limit` events after `after`, across all games, in commit-safe order. Events of
   * transactions that might still commit are held back, so a reader that keeps the returned
   * checkpoint never skips an event.
   */
  async readAll(after: Checkpoint = START, limit = 500): Promise<GlobalEvent[]> {
    const rows = (await this.runner()(
      `SELECT position, game_id, version, type, data, meta, transaction_id::text AS transaction_id FROM events
       WHERE (transaction_id, position) > ($1::text::xid8, $2::bigint)
         AND transaction_id < pg_snapshot_xmin(pg_current_snapshot())
       ORDER BY transaction_id, position
       LIMIT $3`,
      [after.transactionId, after.position, limit],
    )) as unknown as Array<EventRow & { transaction_id: string }>;
    return rows.map((r) => ({
      ...toStored(r),
      checkpoint: { transactionId: r.transaction_id, position: String(r.position) },
    }));
  }

  async saveSnapshot(gameId: string, version: number, state: unknown, tx?: Tx): Promise<void> {
    await (tx ?? this.prisma).snapshot.upsert({
      where: { gameId_version: { gameId, version } },
      create: { gameId, version, state: state as object },
      update: {},
    });
  }

  /** The newest snapshot at or below `atOrBelow` (default: the newest). */
  async latestSnapshot(gameId: string, atOrBelow?: number, tx?: Tx): Promise<{ version: number; state: unknown } | null> {
    const row = await (tx ?? this.prisma).snapshot.findFirst({
      where: { gameId, ...(atOrBelow !== undefined ? { version: { lte: atOrBelow } } : {}) },
      orderBy: { version: 'desc' },
    });
    return row ? { version: row.version, state: row.state } : null;
  }
}

function toStored(r: EventRow): StoredEvent {
  return { position: String(r.position), gameId: r.game_id, version: r.version, type: r.type, data: r.data, meta: r.meta };
}

function hashEvents(gameId: string, expectedVersion: number, events: NewEvent[]): string {
  const canonical = JSON.stringify([gameId, expectedVersion, events.map((e) => [e.type, e.data ?? null])]);
  return createHash('sha256').update(canonical).digest('hex');
}

function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: unknown; meta?: { code?: unknown; driverAdapterError?: { cause?: { originalCode?: unknown; kind?: unknown } } }; message?: unknown };
  if (e?.code === 'P2002') return true;
  if (e?.meta?.code === UNIQUE_VIOLATION) return true;
  const cause = e?.meta?.driverAdapterError?.cause;
  if (cause?.originalCode === UNIQUE_VIOLATION || cause?.kind === 'UniqueConstraintViolation') return true;
  return typeof e?.message === 'string' && e.message.includes(UNIQUE_VIOLATION);
}
