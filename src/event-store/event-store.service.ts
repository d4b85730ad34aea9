import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { PrismaService, Tx } from '../database/prisma.service';
import { Cte, SqlParams, withCtes } from '../database/sql-params';
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
  /**
   * Rows that must commit with the events, as further parts of the same statement. Each part
   * must write only when `guard` (an SQL condition) holds: it is true only if the events went in.
   */
  alsoWrite?: (params: SqlParams, guard: string) => Cte[];
}

/**
 * The append is one SQL statement, so an append costs one round trip and writes one row per
 * event:
 * - `es_ok` passes only if the expected version is the game's latest event (or 0 for a new game);
 * - the first new event (version expected+1) is inserted with ON CONFLICT DO NOTHING: the
 *   unique key on (game_id, version) is the concurrency guard, and a writer that lost the race
 *   inserts nothing and raises no error;
 * - the other events follow only if the first went in. No rival can hold their versions: to
 *   write expected+2 it would need expected+1 committed, and that row is ours;
 * - the idempotency key is claimed only if the events went in. A key already taken makes the
 *   insert fail, which undoes the whole statement; the key's first result is then looked up.
 * Other modules add rows that must commit with the events (`alsoWrite`) as further parts of the
 * same statement, each guarded by EVENTS_APPENDED.
 */
export const EVENTS_APPENDED = 'EXISTS (SELECT 1 FROM es_first)';

export interface KeyedResult {
  gameId: string;
  requestHash: string;
  fromVersion: number;
  toVersion: number;
}

interface KeyClaim {
  key: string;
  hash: string;
}

function appendCtes(p: SqlParams, gameId: string, expectedVersion: number, payload: string, claim?: KeyClaim): Cte[] {
  const game = p.add(gameId);
  const expected = `${p.add(expectedVersion)}::int`;
  // json, not jsonb: each event's text is stored as written, its keys in their order.
  const batch = `${p.add(payload)}::json`;
  const ctes: Cte[] = [
    { name: 'es_ok', sql: `SELECT 1 WHERE ${expected} = 0 OR EXISTS (SELECT 1 FROM events WHERE game_id = ${game} AND version = ${expected})` },
    { name: 'es_batch', sql: `SELECT e.value, e.ord::int AS ord FROM json_array_elements(${batch}) WITH ORDINALITY AS e(value, ord)` },
    {
      name: 'es_first',
      sql: `INSERT INTO events (game_id, version, type, data, meta)
SELECT ${game}, ${expected} + 1, value->>'type', value->'data', value->'meta' FROM es_ok, es_batch WHERE ord = 1
ON CONFLICT (game_id, version) DO NOTHING
RETURNING 1`,
    },
    {
      name: 'es_rest',
      sql: `INSERT INTO events (game_id, version, type, data, meta)
SELECT ${game}, ${expected} + ord, value->>'type', value->'data', value->'meta' FROM es_batch
WHERE ord > 1 AND ${EVENTS_APPENDED}
RETURNING 1`,
    },
  ];
  if (claim) {
    ctes.push({
      name: 'es_key',
      sql: `INSERT INTO idempotency_keys (key, game_id, request_hash, from_version, to_version)
SELECT ${p.add(claim.key)}, ${game}, ${p.add(claim.hash)}, ${expected} + 1, ${expected} + (SELECT count(*) FROM es_batch)::int
WHERE ${EVENTS_APPENDED}`,
    });
  }
  return ctes;
}

const INSERTED = 'SELECT (SELECT count(*) FROM es_first)::int + (SELECT count(*) FROM es_rest)::int AS inserted';

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
    const claim = key ? { key, hash: options.requestHash ?? hashEvents(gameId, expectedVersion, events) } : undefined;
    const p = new SqlParams();
    const ctes = appendCtes(p, gameId, expectedVersion, payload, claim);
    if (options.alsoWrite) ctes.push(...options.alsoWrite(p, EVENTS_APPENDED));
    const sql = withCtes(ctes, INSERTED);
    // Prepared once per connection: planning this statement takes longer than running it.
    const name = claim || options.alsoWrite ? this.prisma.nameFor(sql) : 'fieldpost_append';

    // In the caller's transaction a failed statement would abort it, and with a pool of one
    // connection (the embedded database) nothing else could read: keep it usable.
    if (options.tx) await run('SAVEPOINT fieldpost_append', []);
    let inserted = 0;
    try {
      inserted = Number((await run(sql, p.values, name))[0]?.['inserted'] ?? 0);
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      if (options.tx) await run('ROLLBACK TO SAVEPOINT fieldpost_append', []);
    }
    if (inserted === events.length) return { gameId, fromVersion: expectedVersion + 1, toVersion: expectedVersion + events.length, replayed: false };
    // Nothing was written: a retry of a committed request, a reused key, or a lost race.
    if (claim) {
      const earlier = await this.keyedResult(claim.key, options.tx);
      if (earlier) {
        if (earlier.gameId !== gameId || earlier.requestHash !== claim.hash) throw new IdempotencyKeyReusedError(claim.key);
        return { gameId, fromVersion: earlier.fromVersion, toVersion: earlier.toVersion, replayed: true };
      }
    }
    throw new VersionConflictError(gameId, expectedVersion, await this.versionOf(run, gameId));
  }

  /** What the first append with this idempotency key wrote, if it committed. */
  async keyedResult(key: string, tx?: Tx): Promise<KeyedResult | null> {
    const row = (await this.runner(tx)('SELECT game_id, request_hash, from_version, to_version FROM idempotency_keys WHERE key = $1', [key], 'fieldpost_key'))[0];
    return row ? { gameId: String(row['game_id']), requestHash: String(row['request_hash']), fromVersion: Number(row['from_version']), toVersion: Number(row['to_version']) } : null;
  }

  private runner(tx?: Tx): Runner {
    if (tx) return (sql, params) => tx.$queryRawUnsafe<Array<Record<string, unknown>>>(sql, ...params);
    return async (sql, params, name) => {
      const statement = name ? await this.prisma.statementName(name) : undefined;
      return (await this.prisma.pool.query({ text: sql, values: params, ...(statement ? { name: statement } : {}) })).rows as Array<Record<string, unknown>>;
    };
  }

  async currentVersion(gameId: string, tx?: Tx): Promise<number> {
    return this.versionOf(this.runner(tx), gameId);
  }

  private async versionOf(run: Runner, gameId: string): Promise<number> {
    const rows = await run('SELECT coalesce(max(version), 0)::int AS v FROM events WHERE game_id = $1', [gameId]);
    return Number(rows[0]?.['v'] ?? 0);
  }

  /**
   * The last version written by the append that wrote `version` (its events share a correlation
   * id and follow each other): the first version at which that append's effect could be read.
   * The index walk stops at the next append's first event, however long the game.
   */
  async commitEnd(gameId: string, version: number, tx?: Tx): Promise<number> {
    const rows = await this.runner(tx)(
      `SELECT coalesce(
         (SELECT e.version - 1 FROM events e
           WHERE e.game_id = $1 AND e.version > $2
             AND e.meta->>'correlationId' IS DISTINCT FROM (SELECT n.meta->>'correlationId' FROM events n WHERE n.game_id = $1 AND n.version = $2)
           ORDER BY e.version LIMIT 1),
         (SELECT max(version) FROM events WHERE game_id = $1 AND version >= $2))::int AS v`,
      [gameId, version],
    );
    return Number(rows[0]?.['v'] ?? version);
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
  if (e?.code === 'P2002' || e?.code === UNIQUE_VIOLATION) return true;
  if (e?.meta?.code === UNIQUE_VIOLATION) return true;
  const cause = e?.meta?.driverAdapterError?.cause;
  if (cause?.originalCode === UNIQUE_VIOLATION || cause?.kind === 'UniqueConstraintViolation') return true;
  return typeof e?.message === 'string' && e.message.includes(UNIQUE_VIOLATION);
}
