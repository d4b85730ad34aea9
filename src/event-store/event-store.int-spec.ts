import { testPrisma, testPoolMax, uniqueId } from '../../test/support/database';
import type { PrismaService } from '../database/prisma.service';
import type { Cte, SqlParams } from '../database/sql-params';
import { IdempotencyKeyReusedError, VersionConflictError } from './event-store.errors';
import { EventStore } from './event-store.service';
import type { Checkpoint, NewEvent } from './event-store.types';
import { START } from './event-store.types';

const meta = (actor: string) => ({ actor, correlationId: 'c-' + actor, time: '2026-11-30T00:00:00.000Z' });
const ev = (type: string, data: unknown, actor = 'tester'): NewEvent => ({ type, data, meta: meta(actor) });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('EventStore (real Postgres)', () => {
  let prisma: PrismaService;
  let store: EventStore;

  beforeAll(async () => {
    prisma = testPrisma(Math.max(testPoolMax(), testPoolMax() > 1 ? 40 : 1));
    store = new EventStore(prisma);
  });
  afterAll(async () => {
    await prisma.$disconnect();
  });

  it('appends with dense versions, reads them back, and reports the current version', async () => {
    const g = uniqueId();
    const r1 = await store.append(g, 0, [ev('GameCreated', { n: 1 }), ev('SeatClaimed', { n: 2 })]);
    expect(r1).toEqual({ gameId: g, fromVersion: 1, toVersion: 2, replayed: false });
    const r2 = await store.append(g, 2, [ev('PhaseAdvanced', { n: 3 })]);
    expect(r2.toVersion).toBe(3);
    const events = await store.readStream(g);
    expect(events.map((e) => [e.version, e.type, e.data])).toEqual([
      [1, 'GameCreated', { n: 1 }],
      [2, 'SeatClaimed', { n: 2 }],
      [3, 'PhaseAdvanced', { n: 3 }],
    ]);
    expect(events[0]!.meta).toEqual(meta('tester'));
    expect(await store.currentVersion(g)).toBe(3);
    expect((await store.readStream(g, 2, 2)).map((e) => e.version)).toEqual([2]);
  });

  it('raises a typed conflict carrying the current version for a stale or future expected version', async () => {
    const g = uniqueId();
    await store.append(g, 0, [ev('A', 1), ev('B', 2)]);
    for (const expected of [0, 1, 3, 7]) {
      const err = await store.append(g, expected, [ev('C', 3)]).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(VersionConflictError);
      expect((err as VersionConflictError).currentVersion).toBe(2);
      expect((err as VersionConflictError).expectedVersion).toBe(expected);
    }
    expect((await store.readStream(g)).map((e) => e.version)).toEqual([1, 2]);
  });

  it('never changes the version for a zero-event append, and still checks the expected version', async () => {
    const g = uniqueId();
    await store.append(g, 0, [ev('A', 1)]);
    expect(await store.append(g, 1, [])).toEqual({ gameId: g, fromVersion: 2, toVersion: 1, replayed: false });
    expect(await store.currentVersion(g)).toBe(1);
    await expect(store.append(g, 0, [])).rejects.toBeInstanceOf(VersionConflictError);
    const fresh = uniqueId();
    expect(await store.append(fresh, 0, [])).toEqual({ gameId: fresh, fromVersion: 1, toVersion: 0, replayed: false });
    expect(await store.readStream(fresh)).toEqual([]);
  });

  it('returns the original result for a repeated idempotency key and writes nothing', async () => {
    const g = uniqueId();
    const key = uniqueId('key');
    const first = await store.append(g, 0, [ev('A', { x: 1 })], { idempotencyKey: key });
    expect(first.replayed).toBe(false);
    const again = await store.append(g, 0, [ev('A', { x: 1 })], { idempotencyKey: key });
    expect(again).toEqual({ ...first, replayed: true });
    await store.append(g, 1, [ev('B', {})]);
    const later = await store.append(g, 0, [ev('A', { x: 1 })], { idempotencyKey: key });
    expect(later).toEqual({ ...first, replayed: true });
    expect((await store.readStream(g)).map((e) => e.type)).toEqual(['A', 'B']);
  });

  it('rejects the same idempotency key with a different request, for this game or another', async () => {
    const g = uniqueId();
    const key = uniqueId('key');
    await store.append(g, 0, [ev('A', { x: 1 })], { idempotencyKey: key });
    await expect(store.append(g, 1, [ev('A', { x: 2 })], { idempotencyKey: key })).rejects.toBeInstanceOf(IdempotencyKeyReusedError);
    await expect(store.append(uniqueId(), 0, [ev('A', { x: 1 })], { idempotencyKey: key })).rejects.toBeInstanceOf(IdempotencyKeyReusedError);
    expect(await store.currentVersion(g)).toBe(1);
  });

  it('writes nothing, key included, when a keyed append conflicts', async () => {
    const g = uniqueId();
    const key = uniqueId('key');
    await store.append(g, 0, [ev('A', 1)]);
    await expect(store.append(g, 0, [ev('B', 2)], { idempotencyKey: key })).rejects.toBeInstanceOf(VersionConflictError);
    const ok = await store.append(g, 1, [ev('B', 2)], { idempotencyKey: key });
    expect(ok).toEqual({ gameId: g, fromVersion: 2, toVersion: 2, replayed: false });
  });

  it('writes the rows added with alsoWrite in the same statement, and none of them when the append fails', async () => {
    const g = uniqueId();
    const key = uniqueId('key');
    const snapshotAt = (version: number) => (p: SqlParams, guard: string): Cte[] => [
      { name: 'test_snapshot', sql: `INSERT INTO snapshots (game_id, version, state) SELECT ${p.add(g)}, ${p.add(version)}::int, '{}'::jsonb WHERE ${guard}` },
    ];
    const snapshots = async () => (await prisma.snapshot.findMany({ where: { gameId: g }, orderBy: { version: 'asc' } })).map((s) => s.version);

    await store.append(g, 0, [ev('A', 1)], { idempotencyKey: key, alsoWrite: snapshotAt(1) });
    expect(await snapshots()).toEqual([1]);
    // A lost race (stale version): neither events nor the other rows.
    await expect(store.append(g, 0, [ev('B', 2)], { alsoWrite: snapshotAt(2) })).rejects.toBeInstanceOf(VersionConflictError);
    // A reused key at the right version: the events would go in, so the key's insert fails and undoes the whole statement.
    await expect(store.append(g, 1, [ev('B', 2)], { idempotencyKey: key, alsoWrite: snapshotAt(3) })).rejects.toBeInstanceOf(IdempotencyKeyReusedError);
    expect(await snapshots()).toEqual([1]);
    expect(await store.currentVersion(g)).toBe(1);
    // The same key and request again: the first result, nothing written.
    expect(await store.append(g, 0, [ev('A', 1)], { idempotencyKey: key, alsoWrite: snapshotAt(4) })).toEqual({ gameId: g, fromVersion: 1, toVersion: 1, replayed: true });
    expect(await snapshots()).toEqual([1]);
  });

  it('prepares a statement assembled from parts once per distinct text, where names are allowed', async () => {
    const one = testPrisma(1);
    try {
      const local = new EventStore(one);
      const g = uniqueId();
      const mark = (name: string, version: number) => (p: SqlParams, guard: string): Cte[] => [
        { name, sql: `INSERT INTO snapshots (game_id, version, state) SELECT ${p.add(g)}, ${p.add(version)}::int, '{}'::jsonb WHERE ${guard}` },
      ];
      // Two shapes, each used twice: two prepared statements, each reused.
      for (const [v, name] of [[0, 'mark_a'], [1, 'mark_b'], [2, 'mark_a'], [3, 'mark_b']] as const) await local.append(g, v, [ev('E', v)], { alsoWrite: mark(name, v + 1) });
      expect((await one.snapshot.findMany({ where: { gameId: g } })).map((s) => s.version).sort()).toEqual([1, 2, 3, 4]);
      const prepared = await one.pool.query<{ statement: string }>("SELECT statement FROM pg_prepared_statements WHERE name LIKE 'fieldpost_assembled_%'");
      const named = (await one.statementName('probe')) !== undefined;
      expect(prepared.rows.filter((r) => /mark_a|mark_b/.test(r.statement))).toHaveLength(named ? 2 : 0);
      expect(one.nameFor('SELECT 1')).toBe(one.nameFor('SELECT 1'));
      expect(one.nameFor('SELECT 1')).not.toBe(one.nameFor('SELECT 2'));
    } finally {
      await one.$disconnect();
    }
  });

  it('lets exactly one of many concurrent same-key appends write', async () => {
    const g = uniqueId();
    const key = uniqueId('key');
    const results = await Promise.all(Array.from({ length: 12 }, () => store.append(g, 0, [ev('A', 1), ev('B', 2)], { idempotencyKey: key })));
    expect(results.filter((r) => !r.replayed)).toHaveLength(1);
    expect(results.every((r) => r.fromVersion === 1 && r.toVersion === 2)).toBe(true);
    expect(await store.currentVersion(g)).toBe(2);
  });

  it('rolls back with the caller transaction and keeps the transaction usable after a conflict', async () => {
    const g = uniqueId();
    await store.append(g, 0, [ev('A', 1)]);
    await expect(
      prisma.$transaction(async (tx) => {
        await store.append(g, 1, [ev('B', 2)], { tx });
        throw new Error('caller failed after appending');
      }),
    ).rejects.toThrow('caller failed');
    expect(await store.currentVersion(g)).toBe(1);
    const seen = await prisma.$transaction(async (tx) => {
      const err = await store.append(g, 0, [ev('X', 0)], { tx }).catch((e: unknown) => e);
      return { err, version: await store.currentVersion(g, tx) };
    });
    expect(seen.err).toBeInstanceOf(VersionConflictError);
    expect((seen.err as VersionConflictError).currentVersion).toBe(1);
    expect(seen.version).toBe(1);
  });

  it('refuses to update or delete stored events (append-only in the database)', async () => {
    const g = uniqueId();
    await store.append(g, 0, [ev('A', 1)]);
    await expect(prisma.$executeRawUnsafe(`UPDATE events SET type = 'Z' WHERE game_id = $1`, g)).rejects.toThrow(/append-only/);
    await expect(prisma.$executeRawUnsafe(`DELETE FROM events WHERE game_id = $1`, g)).rejects.toThrow(/append-only/);
  });

  it('stores and finds snapshots by version', async () => {
    const g = uniqueId();
    await store.saveSnapshot(g, 5, { at: 5 });
    await store.saveSnapshot(g, 10, { at: 10 });
    expect(await store.latestSnapshot(g)).toEqual({ version: 10, state: { at: 10 } });
    expect(await store.latestSnapshot(g, 9)).toEqual({ version: 5, state: { at: 5 } });
    expect(await store.latestSnapshot(g, 4)).toBeNull();
  });

  it('1,000 rounds of 2-32 concurrent appends at the same version: one winner each, dense, nothing lost', async () => {
    const g = uniqueId('race');
    const winners: string[] = [];
    let conflicts = 0;
    for (let round = 0; round < 1000; round++) {
      const writers = 2 + (round * 7919) % 31;
      const outcomes = await Promise.allSettled(
        Array.from({ length: writers }, (_, w) => store.append(g, round, [ev('Written', { round, writer: w })])),
      );
      const won = outcomes.filter((o) => o.status === 'fulfilled');
      const lost = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
      expect(won).toHaveLength(1);
      for (const l of lost) {
        expect(l.reason).toBeInstanceOf(VersionConflictError);
        expect((l.reason as VersionConflictError).currentVersion).toBe(round + 1);
      }
      conflicts += lost.length;
      winners.push(`${round}`);
    }
    const events = await store.readStream(g);
    expect(events.map((e) => e.version)).toEqual(Array.from({ length: 1000 }, (_, i) => i + 1));
    expect(events.map((e) => (e.data as { round: number }).round)).toEqual(Array.from({ length: 1000 }, (_, i) => i));
    expect(conflicts).toBeGreaterThan(1000);
  }, 600_000);

  it('a reader following the global order never skips an event while 8 writers commit with random delays', async () => {
    const prefix = uniqueId('follow');
    const games = Array.from({ length: 8 }, (_, i) => `${prefix}-w${i}`);
    const perWriter = 25;
    const seen: string[] = [];
    let checkpoint: Checkpoint = START;
    let last: Checkpoint | null = null;

    // Follows until its checkpoint has passed the writers' last event: an event of theirs not
    // seen by then was skipped. An empty batch alone does not mean caught up: while an older
    // transaction anywhere in the database (another suite's) is open, newer commits are held back.
    const passed = (c: Checkpoint, end: Checkpoint) =>
      BigInt(c.transactionId) > BigInt(end.transactionId) || (c.transactionId === end.transactionId && BigInt(c.position) >= BigInt(end.position));
    const follow = async () => {
      const deadline = Date.now() + 90_000;
      while (last === null || !passed(checkpoint, last)) {
        if (Date.now() > deadline) throw new Error(`the reader is stuck at ${JSON.stringify(checkpoint)}, short of ${JSON.stringify(last)}`);
        const batch = await store.readAll(checkpoint, 200);
        for (const e of batch) {
          if (e.gameId.startsWith(prefix)) seen.push(`${e.gameId}#${e.version}`);
          checkpoint = e.checkpoint;
        }
        if (batch.length === 0) await sleep(2);
      }
    };
    // Catch up past everything already in the database so the loop only sees new work.
    for (let b = await store.readAll(checkpoint, 5000); b.length > 0; b = await store.readAll(checkpoint, 5000)) checkpoint = b[b.length - 1]!.checkpoint;

    const writer = async (gameId: string) => {
      for (let v = 0; v < perWriter; v++) {
        await prisma.$transaction(
          async (tx) => {
            await store.append(gameId, v, [ev('Written', { v })], { tx });
            // The position is taken now; the commit comes later, often after other writers'.
            await sleep(Math.floor(Math.random() * 15));
          },
          { timeout: 20_000 },
        );
      }
    };
    const reader = follow();
    await Promise.all(games.map(writer));
    const end = await prisma.pool.query<{ transaction_id: string; position: string }>(
      'SELECT transaction_id::text, position::text FROM events WHERE game_id = ANY($1) ORDER BY transaction_id DESC, position DESC LIMIT 1',
      [games],
    );
    last = { transactionId: end.rows[0]!.transaction_id, position: end.rows[0]!.position };
    await reader;

    const expected = games.flatMap((gm) => Array.from({ length: perWriter }, (_, i) => `${gm}#${i + 1}`));
    expect([...seen].sort()).toEqual([...expected].sort());
    expect(new Set(seen).size).toBe(seen.length);
    for (const gm of games) {
      const versions = seen.filter((s) => s.startsWith(gm + '#')).map((s) => Number(s.split('#')[1]));
      expect(versions).toEqual([...versions].sort((a, b) => a - b));
    }
  }, 120_000);
});
