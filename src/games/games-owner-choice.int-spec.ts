import { forcedDice, gamesHarness, GamesHarness } from '../../test/support/games-harness';
import { play, setupA, setupB as kernelSetupB, startedGame } from '../../test/support/kernel-game';

/** B stacks an infantry platoon with its AA team (equal defense) on the beach at 0404. */
const setupB = kernelSetupB(0, { 'b-inf-3': '0404', 'b-aa': '0404', 'b-m48': '0905' });

describe('the defender chooses its defending counter and its retreat through the service layer (Q-GT-44, Q-GT-35, kernel test system, real Postgres)', () => {
  let h: GamesHarness;
  beforeAll(async () => {
    h = await gamesHarness({ dice: forcedDice([{ purpose: /^attack on 0404/, value: 6 }]) });
  });
  afterAll(async () => {
    await h.close();
  });

  it('asks B for the counter, then for the path, and shows A neither the choices nor the answers', async () => {
    const { gameId, alice, bob } = await startedGame(h);
    await play(h, gameId, alice, setupA);
    await play(h, gameId, bob, setupB);
    await play(h, gameId, bob, { 'stack-defender': 'ask', retreat: 'ask' }, 'standing-orders');
    await play(h, gameId, alice, [
      { kind: 'move', unit: 'a-ship', path: ['0204'] },
      { kind: 'unload', unit: 'a-apc-1', hex: '0304' },
    ]);

    const paused = await play(h, gameId, alice, [{ kind: 'attack', attackers: [{ unit: 'a-apc-1' }], target: '0404' }]);
    // A reads the public question (as its history's ReactionRequested), not B's candidates.
    expect(paused.phase).toMatchObject({ mode: 'reaction', acting: ['B'], reaction: { side: 'B', kind: 'stack-defender', prompt: { hex: '0404' } } });
    expect(JSON.stringify(paused.phase)).not.toContain('candidates');
    expect(paused.events.some((e) => e.type === 'DiceRolled')).toBe(false);
    const bAsked = await h.queries.summary(gameId, bob);
    expect(bAsked.reaction).toMatchObject({ side: 'B', kind: 'stack-defender', prompt: { hex: '0404' } });
    const bView = (await h.queries.view(gameId, bob)).board as { own: { reaction: { details: { candidates: string[] } } } };
    expect(bView.own.reaction.details.candidates).toEqual(['b-inf-3', 'b-aa']);

    const aSees = async () => JSON.stringify([await h.queries.summary(gameId, alice), await h.queries.view(gameId, alice), await h.queries.history(gameId, alice, 1, 1000)]);
    const whileAsked = await aSees();
    expect(whileAsked).toContain('stack-defender');
    expect(whileAsked).not.toMatch(/candidates|privatePrompt|"ask"/);
    // A real check: B's own reads do carry them (the choices in its history, its standing orders,
    // which are kept beside the log, on its board).
    expect(JSON.stringify(await h.queries.history(gameId, bob, 1, 1000))).toContain('candidates');
    expect(JSON.stringify((await h.queries.view(gameId, bob)).board)).toContain('"ask"');

    const answered = await play(h, gameId, bob, { unit: 'b-aa' }, 'reaction');
    const resolved = answered.events.find((e) => e.type === 'AttackResolved')!.data as { defender: string; result: string };
    expect(resolved).toMatchObject({ defender: 'b-aa', result: 'D R2' });
    // The D R2 that follows is a second question, about the path.
    expect(answered.phase).toMatchObject({ mode: 'reaction', acting: ['B'] });
    const retreat = ((await h.queries.view(gameId, bob)).board as { own: { reaction: { kind: string; details: { paths: string[][] } } } }).own.reaction;
    expect(retreat.kind).toBe('retreat');
    expect(retreat.details.paths.length).toBeGreaterThan(1);
    const chosen = retreat.details.paths[retreat.details.paths.length - 1]!;
    expect(await aSees()).not.toMatch(/candidates|privatePrompt|"paths"|"ask"/);

    const moved = await play(h, gameId, bob, { path: chosen }, 'reaction');
    expect(moved.events.find((e) => e.type === 'UnitRetreated')!.data).toMatchObject({ unit: 'b-inf-3', with: ['b-aa'], path: ['0404', ...chosen] });
    expect(moved.phase.mode).not.toBe('reaction');

    const after = await aSees();
    expect(after).toContain('ReactionAnswered');
    expect(after).not.toMatch(/candidates|privatePrompt|"paths"|"answer"|"ask"/);
  });
});
