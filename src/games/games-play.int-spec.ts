import { gamesHarness, GamesHarness, workerDatabase } from '../../test/support/games-harness';
import { play, setupA, setupB, startedGame } from '../../test/support/kernel-game';

describe('playing a game through the service layer (kernel test system, real Postgres)', () => {
  let h: GamesHarness;
  let db: Awaited<ReturnType<typeof workerDatabase>>;
  beforeAll(async () => {
    db = await workerDatabase('play');
    h = await gamesHarness({ databaseUrl: db.url });
  });
  afterAll(async () => {
    await h.close();
    await db.drop();
  });

  it('seats two players, seals the setup until both are in, then plays turns with reactions', async () => {
    const { gameId, alice, bob } = await startedGame(h);
    let a = await h.queries.summary(gameId, alice);
    expect(a).toMatchObject({ status: 'active', mode: 'simultaneous', acting: ['A', 'B'], mySide: 'A' });
    expect(a.seedCommitment).toMatch(/^[0-9a-f]{64}$/);
    expect(a.seed).toBeNull();
    expect(a.deadlineAt).toBe('2026-12-04T09:00:00.000Z');

    // A's setup is sealed: B learns only that A submitted. The hex is matched as a JSON string,
    // since the random seed commitment and ids may hold the same four digits.
    const sealed = await play(h, gameId, alice, setupA);
    expect(sealed.phase.acting).toEqual(['B']);
    const bSees = JSON.stringify(await h.queries.history(gameId, bob));
    expect(bSees).not.toContain('"0105"');
    expect(JSON.stringify(await h.queries.view(gameId, bob))).not.toContain('"0105"');
    expect(JSON.stringify(await h.queries.history(gameId, alice))).toContain('"0105"');

    // B's setup completes it: the setups are revealed and turn 1 begins.
    const revealed = await play(h, gameId, bob, setupB());
    expect(revealed.phase).toMatchObject({ turn: 1, phase: 'a-move', acting: ['A'] });
    expect(JSON.stringify(await h.queries.view(gameId, bob))).toContain('"0105"');
    const aView = JSON.stringify(await h.queries.view(gameId, alice));
    expect(aView).toContain('"0504"');
    expect(aView).not.toContain('b-inf-1');

    await play(h, gameId, alice, [{ kind: 'move', unit: 'a-ship', path: ['0204'] }, { kind: 'unload', unit: 'a-apc-1', hex: '0304' }]);
    await play(h, gameId, alice, []);
    await play(h, gameId, bob, []);
    const turn2 = await play(h, gameId, bob, []);
    expect(turn2.phase).toMatchObject({ turn: 2, phase: 'a-move' });

    // A landing next to the M48 pauses A's move and asks B.
    const paused = await play(h, gameId, alice, [{ kind: 'move', unit: 'a-apc-1', path: ['0404'] }]);
    expect(paused.phase).toMatchObject({ mode: 'reaction', acting: ['B'], reaction: { side: 'B', kind: 'landing-fire' } });
    const bAsked = await h.queries.summary(gameId, bob);
    expect(bAsked.reaction).toMatchObject({ side: 'B', kind: 'landing-fire' });
    expect(bAsked.deadlineAt).toBe('2026-12-02T09:00:00.000Z');

    const answered = await play(h, gameId, bob, { attackers: ['b-m48'] }, 'reaction');
    expect(answered.events.some((e) => e.type === 'DiceRolled')).toBe(true);
    expect((await h.queries.summary(gameId, alice)).mode).not.toBe('reaction');
  });

  it('lets standing orders decide a reaction without a pause', async () => {
    const { gameId, alice, bob } = await startedGame(h);
    await play(h, gameId, alice, setupA);
    await play(h, gameId, bob, setupB());
    const version = await h.store.currentVersion(gameId);
    const standing = await play(h, gameId, bob, { 'landing-fire': 'all' }, 'standing-orders');
    // Kept beside the log: no events, the game's version unchanged; B's board shows them.
    expect(standing).toMatchObject({ version, fromVersion: version + 1, events: [] });
    expect(await h.store.currentVersion(gameId)).toBe(version);
    expect(((await h.queries.view(gameId, bob)).board as { own: { standingOrders: unknown } }).own.standingOrders).toEqual({ 'landing-fire': 'all' });
    // A does not learn B's standing orders.
    expect(JSON.stringify(await h.queries.history(gameId, alice))).not.toMatch(/"all"/);
    await play(h, gameId, alice, [{ kind: 'move', unit: 'a-ship', path: ['0204'] }, { kind: 'unload', unit: 'a-apc-1', hex: '0304' }]);
    await play(h, gameId, alice, []);
    await play(h, gameId, bob, []);
    await play(h, gameId, bob, []);
    const landed = await play(h, gameId, alice, [{ kind: 'move', unit: 'a-apc-1', path: ['0404'] }]);
    expect(landed.phase.mode).not.toBe('reaction');
    expect(landed.events.some((e) => e.type === 'DiceRolled')).toBe(true);
  });

  it('applies "no reaction" when a window expires unanswered', async () => {
    const { gameId, alice, bob } = await startedGame(h);
    await play(h, gameId, alice, setupA);
    await play(h, gameId, bob, setupB());
    await play(h, gameId, alice, [{ kind: 'move', unit: 'a-ship', path: ['0204'] }, { kind: 'unload', unit: 'a-apc-1', hex: '0304' }]);
    await play(h, gameId, alice, []);
    await play(h, gameId, bob, []);
    await play(h, gameId, bob, []);
    const paused = await play(h, gameId, alice, [{ kind: 'move', unit: 'a-apc-1', path: ['0404'] }]);
    expect(paused.phase.mode).toBe('reaction');
    h.clock.advance(25 * 3_600_000);
    while ((await h.worker.tick()) > 0);
    const after = await h.queries.summary(gameId, alice);
    expect(after.mode).not.toBe('reaction');
    const history = await h.queries.history(gameId, alice);
    expect(history.events.map((e) => e.type)).toContain('DeadlineMissed');
    h.clock.advance(-25 * 3_600_000);
  });
});
