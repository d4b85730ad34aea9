import type { PrismaService } from '../../database/prisma.service';

interface Counter {
  key: string;
  windowStart: number;
  /** The total of all instances that the last flush read back (ours included). */
  synced: number;
  /** Hits in the flush under way: not in `synced` until it answers. */
  sending: number;
  /** Hits let through since, not sent yet. */
  unsent: number;
}

/**
 * Adds this instance's new hits ($1-$4) and reads the totals back; also reads the totals of the
 * window before for those keys ($5, $6), which this instance has no hits to add to when the
 * caller's requests of that window went to other instances, and would otherwise never learn.
 * ORDER BY: instances flushing overlapping keys lock the rows in the same order, so two flushes
 * wait for each other instead of deadlocking (which would cost a second and a retry).
 */
const FLUSH_SQL = `
WITH added AS (
  INSERT INTO api_rate_counters (key, window_start, window_seconds, hits)
  SELECT k, w, $3::int, h FROM unnest($1::text[], $2::timestamptz[], $4::int[]) AS t(k, w, h)
  ORDER BY k, w
  ON CONFLICT (key, window_start, window_seconds) DO UPDATE SET hits = api_rate_counters.hits + EXCLUDED.hits
  RETURNING key, window_start, hits
)
SELECT key, window_start, hits FROM added
UNION ALL
SELECT c.key, c.window_start, c.hits
FROM unnest($5::text[], $6::timestamptz[]) AS r(k, w)
JOIN api_rate_counters c ON c.key = r.k AND c.window_start = r.w AND c.window_seconds = $3::int`;

/** Any window length, so rows left by instances configured differently go too. */
const PRUNE_SQL = `DELETE FROM api_rate_counters WHERE window_start + window_seconds * interval '2 seconds' <= $1`;

/**
 * Request counts per key and fixed window, as this instance knows them: the total of all
 * instances read back at its last flush of that key, plus what it let through since.
 * Counting never touches the database; flush() adds this instance's new hits for every key in
 * one statement and reads the new totals back.
 */
export class SharedRateCounts {
  private readonly windows = new Map<number, Map<string, Counter>>();

  constructor(
    private readonly prisma: PrismaService,
    private readonly windowMs: number,
  ) {}

  count(key: string, windowStart: number): number {
    const c = this.windows.get(windowStart)?.get(key);
    return c ? c.synced + c.sending + c.unsent : 0;
  }

  add(key: string, windowStart: number): void {
    this.counter(key, windowStart).unsent += 1;
  }

  /** Rejects when the database does; the hits it tried to send are then kept for the next try. */
  async flush(): Promise<void> {
    const batch: Counter[] = [];
    for (const window of this.windows.values()) {
      for (const c of window.values()) {
        if (c.unsent === 0) continue;
        c.sending = c.unsent;
        c.unsent = 0;
        batch.push(c);
      }
    }
    if (batch.length === 0) return;
    const newest = Math.max(...this.windows.keys());
    const before = batch.filter((c) => c.windowStart === newest && !this.windows.get(newest - this.windowMs)?.get(c.key)?.sending);
    const iso = (ms: number) => new Date(ms).toISOString();
    try {
      const name = await this.prisma.statementName('api_rate_counters_flush');
      const { rows } = await this.prisma.pool.query<{ key: string; window_start: Date; hits: number }>({
        ...(name ? { name } : {}),
        text: FLUSH_SQL,
        values: [
          batch.map((c) => c.key),
          batch.map((c) => iso(c.windowStart)),
          this.windowMs / 1000,
          batch.map((c) => c.sending),
          before.map((c) => c.key),
          before.map((c) => iso(c.windowStart - this.windowMs)),
        ],
      });
      for (const row of rows) this.counter(row.key, row.window_start.getTime(), false).synced = row.hits;
      for (const c of batch) c.sending = 0;
    } catch (err) {
      for (const c of batch) {
        c.unsent += c.sending;
        c.sending = 0;
      }
      throw err;
    }
  }

  /** Deletes the rows of windows that ended before the previous one, of every instance. */
  async prune(now: number): Promise<void> {
    await this.prisma.pool.query(PRUNE_SQL, [new Date(now)]);
  }

  private counter(key: string, windowStart: number, newest = true): Counter {
    let window = this.windows.get(windowStart);
    if (!window) {
      this.windows.set(windowStart, (window = new Map()));
      // Only the newest window and the one before decide anything; this also bounds memory
      // while the database is unreachable.
      if (newest) for (const start of this.windows.keys()) if (start < windowStart - this.windowMs) this.windows.delete(start);
    }
    let c = window.get(key);
    if (!c) window.set(key, (c = { key, windowStart, synced: 0, sending: 0, unsent: 0 }));
    return c;
  }
}
