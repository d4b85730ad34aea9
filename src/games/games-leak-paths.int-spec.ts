import type { DiceSourceFactory } from './dice/dice-source';
import { gamesHarness, GamesHarness, workerDatabase } from '../../test/support/games-harness';
import { play, setupA, setupB, startedGame } from '../../test/support/kernel-game';

/** The same rolls in every game, whatever its seed, so two games differ only in their secrets. */
const fixedDice: DiceSourceFactory = () => (n, sides) => ((n * 5 + 3) % sides) + 1;
const HOUR = 3_600_000;

/**
 * The read paths games-leak.int-spec.ts does not walk: the notifications the games module
 * writes for each player, the game listing, the export refused before the end, a spectator's
 * reads, a reaction window that expires under secret standing orders; and the other way round,
 * what B reads while A's remaining orders wait, suspended, for B's answer.
 */
describe('no read path tells a side (or a spectator) the other side secrets', () => {
  let h: GamesHarness;
  let db: Awaited<ReturnType<typeof workerDatabase>>;
  beforeAll(async () => {
    // Its own database: the test runs the deadline worker.
    db = await workerDatabase('leak-paths');
    h = await gamesHarness({ dice: fixedDice, databaseUrl: db.url, notifications: true });
  });
  afterAll(async () => {
    await h.close();
    await db.drop();
  });

  const settle = (p: Promise<unknown>) => p.then((v) => v, (e: Error & { code?: string }) => ({ refused: e.code ?? e.message }));

  /** `bSecret` changes B's hidden units and standing orders; `aSecret` the orders A leaves suspended. */
  async function play2(bSecret: 0 | 1, aSecret: 0 | 1) {
    const g = await startedGame(h, { spectators: true });
    const carol = await h.player('Carol');
    const norm = (x: unknown) => JSON.stringify(x).split(g.gameId).join('<game>').split(g.seedCommitment).join('<commitment>').split(g.alice).join('<a>').split(g.bob).join('<b>').split(carol).join('<c>');
    const reads = async (player: string) =>
      norm([
        await h.queries.summary(g.gameId, player),
        await h.queries.view(g.gameId, player),
        await h.queries.history(g.gameId, player),
        (await h.queries.myGames(player, 'all', 10)).items,
        await settle(h.queries.export(g.gameId, player)),
        await h.prisma.notification.findMany({ where: { playerId: player, gameId: g.gameId }, orderBy: [{ gameVersion: 'asc' }], select: { id: true, kind: true, side: true, gameVersion: true, content: true } }),
      ]);
    const out = { a: [] as string[], b: [] as string[], spectator: [] as string[], aBoard: '', bBoard: '' };
    const look = async (...who: Array<'a' | 'b' | 'spectator'>) => {
      for (const w of who) out[w].push(await reads(w === 'a' ? g.alice : w === 'b' ? g.bob : carol));
    };
    await play(h, g.gameId, g.alice, setupA);
    await look('b', 'spectator');
    await play(h, g.gameId, g.bob, setupB(bSecret));
    // Neither covers the landing: the window below opens and expires alike.
    await play(h, g.gameId, g.bob, bSecret === 0 ? { 'stack-defender': 'ask' } : { retreat: 'ask', 'stack-defender': 'auto' }, 'standing-orders');
    await look('a', 'spectator');
    await play(h, g.gameId, g.alice, [{ kind: 'move', unit: 'a-ship', path: ['0204'] }, { kind: 'unload', unit: 'a-apc-1', hex: '0304' }]);
    await play(h, g.gameId, g.alice, []);
    await play(h, g.gameId, g.bob, []);
    await play(h, g.gameId, g.bob, []);
    const rest = aSecret === 0 ? [] : [{ kind: 'move', unit: 'a-ship', path: ['0205'] }];
    out.a.push(norm(await play(h, g.gameId, g.alice, [{ kind: 'move', unit: 'a-apc-1', path: ['0404'] }, ...rest])));
    expect((await h.queries.summary(g.gameId, g.bob)).reaction).toMatchObject({ side: 'B', kind: 'landing-fire' });
    await look('a', 'b', 'spectator');
    out.b.push(norm(await h.queries.options(g.gameId, g.bob, 'b-m48')));
    out.aBoard = norm((await h.queries.view(g.gameId, g.alice)).board);
    out.bBoard = norm((await h.queries.view(g.gameId, g.bob)).board);
    // B lets the window run out: "no reaction" applies, and A's suspended orders go on. The
    // reminder first, then the expiry, so both games see the same jobs in the same order.
    try {
      for (const hours of [13, 12]) {
        h.clock.advance(hours * HOUR);
        while ((await h.worker.tick()) > 0);
      }
    } finally {
      h.clock.advance(-25 * HOUR);
    }
    expect((await h.queries.summary(g.gameId, g.alice)).mode).not.toBe('reaction');
    await look('a', 'spectator');
    return out;
  }

  it('gives A and a spectator the same answers and notifications whatever B hid, and B the same whatever A left suspended', async () => {
    const base = await play2(0, 0);
    const bOther = await play2(1, 0);
    const aOther = await play2(0, 1);
    // The secrets really differ: each side's own board shows it.
    expect(bOther.bBoard).not.toBe(base.bBoard);
    expect(aOther.aBoard).not.toBe(base.aBoard);
    expect(base.a.join()).toContain('"your_turn"');
    expect(base.b.join()).toContain('"reaction_requested"');
    const same = (one: string[], two: string[]) => {
      const i = one.findIndex((r, n) => r !== two[n]);
      if (i === -1 && one.length === two.length) return 'identical';
      const at = [...(one[i] ?? '')].findIndex((c, n) => c !== two[i]?.[n]);
      return `answer ${i} differs at ...${one[i]?.slice(Math.max(0, at - 150), at + 150)}... vs ...${two[i]?.slice(Math.max(0, at - 150), at + 150)}...`;
    };
    expect(same(base.a, bOther.a)).toBe('identical');
    expect(same(base.spectator, bOther.spectator)).toBe('identical');
    expect(same(base.b, aOther.b)).toBe('identical');
  });
});
