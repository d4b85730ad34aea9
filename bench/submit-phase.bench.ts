/**
 * A Gators! movement phase of 30 unit moves and a combat phase of 10 attacks, submitted through
 * the service layer (load, validate, resolve with server dice, one transaction with the events,
 * read model, jobs and notifications), at 1 and 20 concurrent games, beside a bare event append
 * measured in the same run at the same concurrency. Target: p50 at most 3x the bare append.
 *
 * Rounds before BENCH_WARMUP (default 30) are played the same way but not recorded: the figures
 * are those of a server that has been running, not of its first requests (JIT compilation).
 * Run: npm run bench:submit
 */
import { catalogEntry } from '../src/games/catalog-builder';
import { StaticCatalog } from '../src/games/game-catalog';
import { gators } from '../src/rules/systems/gators';
import { gatorsBenchScenario } from './gators-bench-scenario';
import { plan } from './gators-bench-phases';
import { gamesContext } from './games-context';
import { benchDatabase, fmt, stats, timed } from './support';

const WARMUP = Number(process.env.BENCH_WARMUP ?? 30);

async function main(): Promise<void> {
  const { scenario, movers, attacks } = gatorsBenchScenario();
  const { moves, combat } = plan(gators, scenario, movers.slice(0, 30), attacks);
  const url = await benchDatabase('fieldpost_bench_submit');
  const ctx = await gamesContext(url, new StaticCatalog([catalogEntry(scenario, gators)]), 40);
  const us = await ctx.player('us');
  const island = await ctx.player('island');
  let key = 0;
  // A client knows the version from its last answer; reading it here stays outside the timing.
  const submit = async (gameId: string, player: string, orders: unknown) => {
    const expectedVersion = await ctx.store.currentVersion(gameId);
    return () => ctx.submit.execute({ gameId, expectedVersion, submission: { kind: 'orders', orders }, idempotencyKey: `b${key++}` }, player);
  };

  console.log(`Submitting ${moves.length} moves, then ${combat.length} attacks, per game (Gators!, ${scenario.map.columns}x${scenario.map.rows} map)\n`);
  for (const concurrency of (process.env.BENCH_CONCURRENCY ?? '1,20').split(',').map(Number)) {
    const all = { moveMs: [] as number[], combatMs: [] as number[], bare: [] as number[], sameMoves: [] as number[] };
    let movesEvents = 0;
    const rounds = concurrency === 1 ? Number(process.env.BENCH_ROUNDS ?? 100) : 5;
    // The single game runs first and warms the process; one untimed round settles the pool at 20.
    for (let round = concurrency === 1 ? -WARMUP : -1; round < rounds; round++) {
      const moveMs: number[] = [];
      const combatMs: number[] = [];
      const bare: number[] = [];
      const sameMoves: number[] = [];
      await Promise.all(
        Array.from({ length: concurrency }, async (_, w) => {
          const { gameId } = await ctx.create.execute({ scenarioId: 'gators-bench', side: 'P1' }, us);
          const inv = await ctx.invitations.invite(gameId, 'P2', 'token', us);
          await ctx.invitations.join({ token: inv.token! }, island);
          await (await submit(gameId, us, []))();
          await (await submit(gameId, us, []))();
          const at = await ctx.store.currentVersion(gameId);
          const submitMoves = await submit(gameId, us, moves);
          await timed(submitMoves, moveMs);
          // Context, not the target's baseline: the same events the phase wrote, appended bare.
          const written = (await ctx.store.readStream(gameId, at + 1)).map((e) => ({ type: e.type, data: e.data, meta: e.meta }));
          movesEvents = written.length;
          await timed(() => ctx.store.append(`copy-${concurrency}-${round}-${w}`, 0, written as never), sameMoves);
          const submitCombat = await submit(gameId, us, combat);
          await timed(submitCombat, combatMs);
          const stream = `bare-${concurrency}-${round}-${w}`;
          for (let v = 0; v < 2; v++) {
            await timed(() => ctx.store.append(stream, v, [{ type: 'UnitMoved', data: { unit: 'p1-truck-1', path: ['1010', '1011'] }, meta: { actor: 'bench', correlationId: 'b', time: new Date().toISOString() } }]), bare);
          }
        }),
      );
      if (round < 0) continue;
      all.moveMs.push(...moveMs);
      all.combatMs.push(...combatMs);
      all.bare.push(...bare);
      all.sameMoves.push(...sameMoves);
    }
    const b = stats(all.bare);
    const m = stats(all.moveMs);
    const c = stats(all.combatMs);
    console.log(`${concurrency} concurrent game(s)`);
    console.log(`  bare event append      ${fmt(b)}`);
    console.log(`  movement, 30 moves     ${fmt(m)}   p50 ${(m.p50 / b.p50).toFixed(1)}x  p99 ${(m.p99 / b.p99).toFixed(1)}x`);
    console.log(`  combat, 10 attacks     ${fmt(c)}   p50 ${(c.p50 / b.p50).toFixed(1)}x  p99 ${(c.p99 / b.p99).toFixed(1)}x   (target p50 <= 3x)`);
    const s = stats(all.sameMoves);
    console.log(`  (context: the movement phase's ${movesEvents} events appended bare: ${fmt(s)}; movement p50 is ${(m.p50 / s.p50).toFixed(1)}x that)\n`);
  }
  await ctx.app.close();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
