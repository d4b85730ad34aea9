/**
 * A Gators! movement phase of 30 unit moves and a combat phase of 10 attacks, submitted through
 * the service layer (load, validate, resolve with server dice, one transaction with the events,
 * read model, jobs and notifications), at 1 and 20 concurrent games, beside a bare event append
 * measured in the same run at the same concurrency. Target: p50 at most 3x the bare append.
 *
 * Rounds before BENCH_WARMUP (default 30) are played the same way but not recorded: the figures
 * are those of a server that has been running, not of its first requests (JIT compilation).
 *
 * Context lines, not targets: the phase's events appended bare; the commit statement's own round
 * trip (the database's share); the rules engine's decision (the CPU share no tuning of the rest
 * removes); how busy this process's one thread was.
 * Run: npm run bench:submit
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { performance } from 'node:perf_hooks';
import type pg from 'pg';
import { catalogEntry } from '../src/games/catalog-builder';
import { SubmitPhaseHandler } from '../src/games/commands/submit-phase.handler';
import { StaticCatalog } from '../src/games/game-catalog';
import { gators } from '../src/rules/systems/gators';
import { gatorsBenchScenario } from './gators-bench-scenario';
import { plan } from './gators-bench-phases';
import { gamesContext } from './games-context';
import { benchDatabase, fmt, stats, timed } from './support';

const WARMUP = Number(process.env.BENCH_WARMUP ?? 30);

/** What one timed submission spent in its two big parts, beside the whole of it. */
interface Parts {
  /** The commit statement's round trip (the one that claims an idempotency key): the database's share. */
  commit: number[];
  /** The rules engine's decision (parse, validate, resolve with server dice), on the event loop. */
  engine: number[];
}

/**
 * Times the parts of each submission run inside `watching`: the commit statement, by wrapping the
 * pool's query, and the decision, by wrapping the handler's (private) decide. Bench-only wrappers:
 * nothing in the server is changed to be measured.
 */
function watchParts(pool: pg.Pool) {
  const samples = new AsyncLocalStorage<Parts>();
  const query = pool.query.bind(pool) as (...args: unknown[]) => Promise<unknown>;
  (pool as unknown as { query: unknown }).query = (q: unknown, ...rest: unknown[]) => {
    const into = samples.getStore();
    const text = typeof q === 'object' && q !== null ? (q as { text?: unknown }).text : undefined;
    if (into === undefined || rest.length > 0 || typeof text !== 'string' || !text.includes('es_key')) return query(q, ...rest);
    return timed(() => query(q), into.commit);
  };
  const handler = SubmitPhaseHandler.prototype as unknown as { decide: (...args: unknown[]) => unknown };
  const decide = handler.decide;
  handler.decide = function (this: unknown, ...args: unknown[]) {
    const start = performance.now();
    try {
      return decide.apply(this, args);
    } finally {
      samples.getStore()?.engine.push(performance.now() - start);
    }
  };
  return <T>(into: Parts, fn: () => Promise<T>) => samples.run(into, fn);
}

async function main(): Promise<void> {
  const { scenario, movers, attacks } = gatorsBenchScenario();
  const { moves, combat } = plan(gators, scenario, movers.slice(0, 30), attacks);
  const url = await benchDatabase('fieldpost_bench_submit');
  const ctx = await gamesContext(url, new StaticCatalog([catalogEntry(scenario, gators)]), 40);
  const watching = watchParts(ctx.prisma.pool);
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
    const all = { moveMs: [] as number[], combatMs: [] as number[], bare: [] as number[], sameMoves: [] as number[], moveParts: { commit: [] as number[], engine: [] as number[] }, combatParts: { commit: [] as number[], engine: [] as number[] } };
    let movesEvents = 0;
    const rounds = concurrency === 1 ? Number(process.env.BENCH_ROUNDS ?? 100) : 5;
    // The single game runs first and warms the process; one untimed round settles the pool at 20.
    let loop = performance.eventLoopUtilization();
    for (let round = concurrency === 1 ? -WARMUP : -1; round < rounds; round++) {
      if (round === 0) loop = performance.eventLoopUtilization();
      const moveMs: number[] = [];
      const combatMs: number[] = [];
      const bare: number[] = [];
      const sameMoves: number[] = [];
      const moveParts: Parts = { commit: [], engine: [] };
      const combatParts: Parts = { commit: [], engine: [] };
      await Promise.all(
        Array.from({ length: concurrency }, async (_, w) => {
          const { gameId } = await ctx.create.execute({ scenarioId: 'gators-bench', side: 'P1' }, us);
          const inv = await ctx.invitations.invite(gameId, 'P2', 'token', us);
          await ctx.invitations.join({ token: inv.token! }, island);
          await (await submit(gameId, us, []))();
          await (await submit(gameId, us, []))();
          const at = await ctx.store.currentVersion(gameId);
          const submitMoves = await submit(gameId, us, moves);
          await watching(moveParts, () => timed(submitMoves, moveMs));
          // Context, not the target's baseline: the same events the phase wrote, appended bare.
          const written = (await ctx.store.readStream(gameId, at + 1)).map((e) => ({ type: e.type, data: e.data, meta: e.meta }));
          movesEvents = written.length;
          await timed(() => ctx.store.append(`copy-${concurrency}-${round}-${w}`, 0, written as never), sameMoves);
          const submitCombat = await submit(gameId, us, combat);
          await watching(combatParts, () => timed(submitCombat, combatMs));
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
      for (const k of ['commit', 'engine'] as const) {
        all.moveParts[k].push(...moveParts[k]);
        all.combatParts[k].push(...combatParts[k]);
      }
    }
    const busy = performance.eventLoopUtilization(loop).utilization;
    const b = stats(all.bare);
    const m = stats(all.moveMs);
    const c = stats(all.combatMs);
    console.log(`${concurrency} concurrent game(s)`);
    console.log(`  bare event append      ${fmt(b)}`);
    console.log(`  movement, 30 moves     ${fmt(m)}   p50 ${(m.p50 / b.p50).toFixed(1)}x  p99 ${(m.p99 / b.p99).toFixed(1)}x`);
    console.log(`  combat, 10 attacks     ${fmt(c)}   p50 ${(c.p50 / b.p50).toFixed(1)}x  p99 ${(c.p99 / b.p99).toFixed(1)}x   (target p50 <= 3x)`);
    const s = stats(all.sameMoves);
    console.log(`  (context: the movement phase's ${movesEvents} events appended bare: ${fmt(s)}; movement p50 is ${(m.p50 / s.p50).toFixed(1)}x that)`);
    const part = (xs: number[]) => stats(xs).p50;
    const [mc, cc] = [part(all.moveParts.commit), part(all.combatParts.commit)];
    const [me, ce] = [part(all.moveParts.engine), part(all.combatParts.engine)];
    const x = (ms: number) => `${ms.toFixed(3)} ms, ${(ms / b.p50).toFixed(1)}x`;
    console.log(`  (context: the commit statement's round trip alone, p50: movement ${x(mc)}; combat ${x(cc)})`);
    console.log(`  (context: the rules engine's decision alone, p50: movement ${x(me)}; combat ${x(ce)})`);
    console.log(`  (context: those two parts together, sum of their p50s: movement ${x(mc + me)}; combat ${x(cc + ce)})`);
    console.log(`  (context: this process's event loop was busy ${(busy * 100).toFixed(0)}% of the timed rounds, game setup included)\n`);
  }
  await ctx.app.close();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
