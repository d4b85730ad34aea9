/**
 * Loading a game of 5,000 events (newest snapshot plus the events after it, folded), beside
 * the bare reads of the same rows through pg in the same run. Target: at most 10 ms p50.
 * Run: npm run bench:load
 */
import { catalogEntry } from '../src/games/catalog-builder';
import { StaticCatalog } from '../src/games/game-catalog';
import { testScenario } from '../src/rules/testing/scenario-files';
import { testSystem } from '../src/rules/testing/test-system';
import { gamesContext } from './games-context';
import { benchDatabase, fmt, stats, timed } from './support';

const EVENTS = 5000;

async function main(): Promise<void> {
  const url = await benchDatabase('fieldpost_bench_load');
  const ctx = await gamesContext(url, new StaticCatalog([catalogEntry(testScenario(), testSystem)]));
  const alice = await ctx.player('alice');
  const bob = await ctx.player('bob');
  const { gameId } = await ctx.create.execute({ scenarioId: 'kernel-test', side: 'A' }, alice);
  const inv = await ctx.invitations.invite(gameId, 'B', 'token', alice);
  await ctx.invitations.join({ token: inv.token! }, bob);
  // Standing orders may be replaced at any time: each replacement is a real two-event commit.
  let i = 0;
  while ((await ctx.store.currentVersion(gameId)) < EVENTS) {
    const side = i % 2 === 0 ? bob : alice;
    const orders = side === bob ? { 'landing-fire': i % 4 === 0 ? 'all' : 'none' } : {};
    await ctx.submit.execute({ gameId, expectedVersion: await ctx.store.currentVersion(gameId), submission: { kind: 'standing-orders', orders }, idempotencyKey: `load-${i}` }, side);
    i += 1;
  }
  const version = await ctx.store.currentVersion(gameId);
  const snaps = await ctx.prisma.snapshot.count({ where: { gameId } });
  console.log(`Game of ${version} events, ${snaps} snapshots (one every 100 events)\n`);

  const load: number[] = [];
  const bare: number[] = [];
  for (let round = 0; round < 300; round++) {
    await timed(async () => {
      const snap = await ctx.prisma.pool.query('SELECT version, state FROM snapshots WHERE game_id = $1 ORDER BY version DESC LIMIT 1', [gameId]);
      await ctx.prisma.pool.query('SELECT version, type, data, meta FROM events WHERE game_id = $1 AND version > $2 ORDER BY version', [gameId, snap.rows[0].version]);
    }, bare);
    await timed(() => ctx.loader.load(gameId), load);
  }
  const l = stats(load);
  const b = stats(bare);
  console.log(`  bare reads (pg)   ${fmt(b)}`);
  console.log(`  load + fold       ${fmt(l)}`);
  console.log(`  ratio             p50 ${(l.p50 / b.p50).toFixed(2)}x   (target: load p50 <= 10 ms)\n`);
  await ctx.app.close();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
