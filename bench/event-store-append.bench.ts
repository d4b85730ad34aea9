/**
 * Append latency of the event store beside a bare INSERT through pg on the same database, in
 * the same run, at 1 and 10 concurrent writers. Target: p50 at most 1.5x the bare insert.
 * Run: npm run bench:append
 */
import pg from 'pg';
import { PrismaService } from '../src/database/prisma.service';
import { EventStore } from '../src/event-store/event-store.service';
import { benchDatabase, fmt, stats, timed } from './support';

const PER_WRITER = Number(process.env.BENCH_APPENDS ?? 400);
const BLOCK = 50;
const meta = { actor: 'bench', correlationId: 'bench', time: '2026-11-30T00:00:00.000Z' };
const data = { unit: 'P1-AAV-3', path: ['0507', '0508', '0609'] };

async function main(): Promise<void> {
  const url = await benchDatabase('fieldpost_bench_append');
  const pool = new pg.Pool({ connectionString: url, max: 12 });
  await pool.query('CREATE TABLE bare_events (LIKE events INCLUDING DEFAULTS INCLUDING CONSTRAINTS INCLUDING INDEXES)');
  const prisma = new PrismaService({ kind: 'postgres', url, poolMax: 12, close: async () => undefined });
  const store = new EventStore(prisma);
  await prisma.$queryRawUnsafe('SELECT 1');

  console.log(`Event store append vs a bare prepared INSERT (autocommit) through pg, ${PER_WRITER} per writer, alternating blocks of ${BLOCK}\n`);
  for (const writers of [1, 10]) {
    const bare: number[] = [];
    const appends: number[] = [];
    await Promise.all(
      Array.from({ length: writers }, async (_, w) => {
        const game = `bench-${writers}-${w}`;
        let version = 0;
        for (let done = 0; done < PER_WRITER; done += BLOCK) {
          for (let i = 0; i < BLOCK; i++) {
            const v = done + i + 1;
            await timed(
              () =>
                pool.query({
                  name: 'bare_insert',
                  text: 'INSERT INTO bare_events (game_id, version, type, data, meta) VALUES ($1, $2, $3, $4, $5)',
                  values: [game, v, 'UnitMoved', data, meta],
                }),
              bare,
            );
          }
          for (let i = 0; i < BLOCK; i++) {
            await timed(() => store.append(game, version, [{ type: 'UnitMoved', data, meta }]), appends);
            version += 1;
          }
        }
      }),
    );
    const b = stats(bare);
    const a = stats(appends);
    console.log(`${writers} writer(s)`);
    console.log(`  bare insert   ${fmt(b)}`);
    console.log(`  append        ${fmt(a)}`);
    console.log(`  ratio         p50 ${(a.p50 / b.p50).toFixed(2)}x  p99 ${(a.p99 / b.p99).toFixed(2)}x  (target p50 <= 1.5x)\n`);
  }
  await prisma.$disconnect();
  await pool.end();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
