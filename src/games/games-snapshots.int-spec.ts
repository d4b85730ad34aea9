import fc from 'fast-check';
import { gamesHarness, GamesHarness } from '../../test/support/games-harness';
import { play, setupA, setupB, startedGame } from '../../test/support/kernel-game';
import type { GameEnvelope } from './game-envelope';
import { foldGame } from './game-fold';

describe('snapshots', () => {
  let h: GamesHarness;
  beforeAll(async () => {
    h = await gamesHarness();
  });
  afterAll(async () => {
    await h.close();
  });

  it('rebuilding from any snapshot equals folding from the first event', async () => {
    const g = await startedGame(h, { snapshotInterval: 10 });
    await play(h, g.gameId, g.alice, setupA);
    await play(h, g.gameId, g.bob, setupB());
    for (let turn = 0; turn < 3; turn++) {
      await play(h, g.gameId, g.alice, turn === 0 ? [{ kind: 'move', unit: 'a-ship', path: ['0204'] }] : []);
      await play(h, g.gameId, g.alice, []);
      await play(h, g.gameId, g.bob, []);
      await play(h, g.gameId, g.bob, []);
    }
    const events = await h.store.readStream(g.gameId);
    const snapshots = await h.prisma.snapshot.findMany({ where: { gameId: g.gameId }, orderBy: { version: 'asc' } });
    expect(snapshots.length).toBeGreaterThanOrEqual(3);
    const system = h.loader.systemFor('kernel-test');
    const foldTo = (v: number) => {
      let s: GameEnvelope | undefined;
      for (const e of events.slice(0, v)) s = foldGame(system, s, e as never);
      return s!;
    };
    for (const snap of snapshots) expect(JSON.parse(JSON.stringify(foldTo(snap.version)))).toEqual(snap.state);
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: events.length }), async (v) => {
        const loaded = await h.loader.load(g.gameId, v);
        expect(loaded.version).toBe(v);
        expect(JSON.parse(JSON.stringify(loaded.state))).toEqual(JSON.parse(JSON.stringify(foldTo(v))));
      }),
      { numRuns: 40 },
    );
  });
});
