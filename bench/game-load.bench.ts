/**
 * Loading a game of 5,000 events (newest snapshot plus the events after it, folded), beside
 * the bare reads of the same rows through pg in the same run. Target: at most 10 ms p50.
 * Run: npm run bench:load
 */
import { catalogEntry } from '../src/games/catalog-builder';
import { StaticCatalog } from '../src/games/game-catalog';
import { GameLoader } from '../src/games/game-loader';
import { testScenario } from '../src/rules/testing/scenario-files';
import { testSystem } from '../src/rules/testing/test-system';
import { gamesContext } from './games-context';
import { benchDatabase, fmt, stats, timed } from './support';

const EVENTS = 5000;

async function main(): Promise<void> {
  const url = await benchDatabase('fieldpost_bench_load');
  const catalog = new StaticCatalog([catalogEntry(testScenario(), testSystem)]);
  const ctx = await gamesContext(url, catalog);
  const alice = await ctx.player('alice');
  const bob = await ctx.player('bob');
  const { gameId } = await ctx.create.execute({ scenarioId: 'kernel-test', side: 'A' }, alice);
  const inv = await ctx.invitations.invite(gameId, 'B', 'token', alice);
  await ctx.invitations.join({ token: inv.token! }, bob);
  // A vacation may be started and ended at any time: each is a real commit of one or two events.
  // (Standing orders, which once served here, are no longer written to the log.)
  let away = false;
  while ((await ctx.store.currentVersion(gameId)) < EVENTS) {
    const expectedVersion = await ctx.store.currentVersion(gameId);
    await (away ? ctx.actions.endVacation(gameId, expectedVersion, alice) : ctx.actions.startVacation(gameId, expectedVersion, alice));
    away = !away;
  }
  const version = await ctx.store.currentVersion(gameId);
  const snaps = await ctx.prisma.snapshot.count({ where: { gameId } });
  console.log(`Game of ${version} events, ${snaps} snapshots (one every 100 events)\n`);

  const cold: number[] = [];
  const warm: number[] = [];
  const bare: number[] = [];
  for (let round = 0; round < 300; round++) {
    await timed(async () => {
      const snap = await ctx.prisma.pool.query('SELECT version, state FROM snapshots WHERE game_id = $1 ORDER BY version DESC LIMIT 1', [gameId]);
      await ctx.prisma.pool.query('SELECT version, type, data, meta FROM events WHERE game_id = $1 AND version > $2 ORDER BY version', [gameId, snap.rows[0].version]);
    }, bare);
    // A loader that has never seen the game reads the snapshot and the events after it.
    await timed(() => new GameLoader(ctx.store, catalog, ctx.standing).load(gameId), cold);
    await timed(() => ctx.loader.load(gameId), warm);
  }
  const b = stats(bare);
  const c = stats(cold);
  const w = stats(warm);
  console.log(`  bare reads (pg)                   ${fmt(b)}`);
  console.log(`  load: snapshot + events + fold    ${fmt(c)}   p50 ${(c.p50 / b.p50).toFixed(2)}x   (target: p50 <= 10 ms)`);
  console.log(`  load of a game this process holds ${fmt(w)}\n`);
  await ctx.app.close();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
