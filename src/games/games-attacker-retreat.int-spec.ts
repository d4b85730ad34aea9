import { DomainError } from '../common/errors';
import { forcedDice, gamesHarness, GamesHarness } from '../../test/support/games-harness';
import { play, setupA, setupB as kernelSetupB, startedGame } from '../../test/support/kernel-game';

/** B's infantry alone on the beach at 0404, next to where A's APC lands. */
const setupB = kernelSetupB(0, { 'b-inf-3': '0404', 'b-m48': '0905' });

describe("the attacker names its own retreat in its attack order through the service layer (Q-GT-35, kernel test system, real Postgres)", () => {
  let h: GamesHarness;
  beforeAll(async () => {
    // 3 on column 1: A R1.
    h = await gamesHarness({ dice: forcedDice([{ purpose: /^attack on 0404/, value: 3 }]) });
  });
  afterAll(async () => {
    await h.close();
  });

  it('refuses a malformed choice with Q-GT-35; a choice that is not legal then gives the engine path, and only A reads that its choice was ignored', async () => {
    const { gameId, alice, bob } = await startedGame(h);
    await play(h, gameId, alice, setupA);
    await play(h, gameId, bob, setupB);
    await play(h, gameId, alice, [
      { kind: 'move', unit: 'a-ship', path: ['0204'] },
      { kind: 'unload', unit: 'a-apc-1', hex: '0304' },
    ]);

    const bad = await play(h, gameId, alice, [{ kind: 'attack', attackers: [{ unit: 'a-apc-1', retreat: { path: '0303' } }], target: '0404' }]).then(
      () => null,
      (e: unknown) => e as DomainError,
    );
    expect(bad?.code).toBe('orders/malformed');
    expect(bad?.details['violations']).toEqual([expect.objectContaining({ ruleId: 'Q-GT-35', code: 'input/malformed', orderIndex: 0 })]);

    // 0204 (the ship's hex) is not among the APC's legal retreats: the engine's path (0303) is taken.
    const out = await play(h, gameId, alice, [{ kind: 'attack', attackers: [{ unit: 'a-apc-1', retreat: { to: '0204' } }], target: '0404' }]);
    expect(out.events.find((e) => e.type === 'AttackResolved')!.data).toMatchObject({ result: 'A R1' });
    expect(out.events.find((e) => e.type === 'UnitRetreated')!.data).toEqual({ unit: 'a-apc-1', path: ['0304', '0303'], retreatChoice: 'ignored' });

    const aHistory = JSON.stringify(await h.queries.history(gameId, alice, 1, 1000));
    expect(aHistory).toContain('"retreatChoice":"ignored"');
    const bReads = JSON.stringify([await h.queries.summary(gameId, bob), await h.queries.view(gameId, bob), await h.queries.history(gameId, bob, 1, 1000)]);
    expect(bReads).toContain('"path":["0304","0303"]');
    expect(bReads).not.toMatch(/retreatChoice|"retreat"|"ignored"/);
  });
});
