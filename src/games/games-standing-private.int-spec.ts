import { privateEvent } from '../rules/engine/events';
import { gamesHarness, GamesHarness } from '../../test/support/games-harness';
import { uniqueId } from '../../test/support/database';
import { land, play, setupA, setupB, startedGame, toLandingTurn } from '../../test/support/kernel-game';
import { GameCommitter } from './game-committer';
import { AppEvent, appDraft, Draft } from './game-envelope';

type Board = { own?: { standingOrders?: unknown } };

/**
 * Standing orders are kept beside the log, not in it: a side that sets, replaces or clears them
 * changes nothing the other side or a spectator can read (not even the game's version), while
 * its own board shows them at once and the engine decides with them.
 */
describe('standing orders outside the game log (real Postgres)', () => {
  let h: GamesHarness;
  beforeAll(async () => {
    h = await gamesHarness({ notifications: true });
  });
  afterAll(async () => {
    await h.close();
  });

  const mine = async (gameId: string, player: string) => ((await h.queries.view(gameId, player)).board as Board).own?.standingOrders;

  it('leaves every read of the other side and of a spectator byte-identical, and shows the setter its orders at once', async () => {
    const g = await startedGame(h, { spectators: true });
    const carol = await h.player('Carol');
    await play(h, g.gameId, g.alice, setupA);
    await play(h, g.gameId, g.bob, setupB());
    const reads = async (player: string) =>
      JSON.stringify([
        await h.store.currentVersion(g.gameId),
        await h.store.readStream(g.gameId),
        await h.queries.summary(g.gameId, player),
        await h.queries.view(g.gameId, player),
        await h.queries.history(g.gameId, player),
        (await h.queries.myGames(player, 'all', 10)).items,
        await h.prisma.notification.findMany({ where: { gameId: g.gameId }, orderBy: [{ id: 'asc' }] }),
      ]);
    const before = { alice: await reads(g.alice), carol: await reads(carol) };
    const version = await h.store.currentVersion(g.gameId);

    for (const orders of [{ 'landing-fire': 'all' }, { 'landing-fire': 'none', retreat: 'ask' }, {}]) {
      const out = await play(h, g.gameId, g.bob, orders, 'standing-orders');
      // The game as it was: no events, the version the orders were checked against.
      expect(out).toMatchObject({ version, fromVersion: version + 1, events: [] });
      expect(await mine(g.gameId, g.bob)).toEqual(orders);
      expect(await reads(g.alice)).toBe(before.alice);
      expect(await reads(carol)).toBe(before.carol);
    }
  });

  it('answers a retry of the same key as the first time and writes nothing; refuses a stale version', async () => {
    const g = await startedGame(h);
    await play(h, g.gameId, g.alice, setupA);
    await play(h, g.gameId, g.bob, setupB());
    const version = await h.store.currentVersion(g.gameId);
    const cmd = { gameId: g.gameId, expectedVersion: version, submission: { kind: 'standing-orders' as const, orders: { 'landing-fire': 'all' } }, idempotencyKey: uniqueId('k') };
    const first = await h.submit.execute(cmd, g.bob);
    const row = await h.prisma.standingOrders.findUnique({ where: { gameId_side: { gameId: g.gameId, side: 'B' } } });
    await play(h, g.gameId, g.bob, { 'landing-fire': 'none' }, 'standing-orders');
    expect(await h.submit.execute(cmd, g.bob)).toEqual(first);
    expect(await mine(g.gameId, g.bob)).toEqual({ 'landing-fire': 'none' });
    expect(row!.orders).toEqual({ 'landing-fire': 'all' });
    await expect(h.submit.execute({ ...cmd, submission: { kind: 'standing-orders', orders: {} } }, g.bob)).rejects.toMatchObject({ code: 'request/idempotency_key_reused' });

    await play(h, g.gameId, g.alice, []);
    await expect(h.submit.execute({ ...cmd, idempotencyKey: uniqueId('k'), submission: { kind: 'standing-orders', orders: {} } }, g.bob)).rejects.toMatchObject({ code: 'game/version_conflict' });
    expect(await mine(g.gameId, g.bob)).toEqual({ 'landing-fire': 'none' });
  });

  it('neither ends an undo point nor drops an undo proposal', async () => {
    const g = await startedGame(h);
    await play(h, g.gameId, g.alice, setupA);
    await play(h, g.gameId, g.bob, setupB());
    const moved = await play(h, g.gameId, g.alice, [{ kind: 'move', unit: 'a-ship', path: ['0204'] }]);
    await play(h, g.gameId, g.bob, { 'landing-fire': 'all' }, 'standing-orders');
    const proposed = await h.actions.proposeUndo(g.gameId, moved.version, g.alice);
    await play(h, g.gameId, g.bob, { 'landing-fire': 'none' }, 'standing-orders');
    expect((await h.queries.summary(g.gameId, g.alice)).pendingUndo).toMatchObject({ proposedBy: 'A' });
    const accepted = await h.actions.answerUndo(g.gameId, proposed.version, g.bob, true);
    expect(accepted.phase).toMatchObject({ phase: 'a-move', acting: ['A'] });
    // The undo takes back A's phase, not B's orders, which were never part of it.
    expect(await mine(g.gameId, g.bob)).toEqual({ 'landing-fire': 'none' });
  });

  it('answers a window at once with the stored orders, and a fresh process (no cache) does too', async () => {
    const g = await startedGame(h);
    await toLandingTurn(h, g);
    await play(h, g.gameId, g.bob, { 'landing-fire': 'all' }, 'standing-orders');
    const fresh = await gamesHarness({ notifications: true });
    try {
      const out = await land(fresh, g);
      expect(out.phase.mode).not.toBe('reaction');
    } finally {
      await fresh.close();
    }
    const events = await h.store.readStream(g.gameId);
    expect(events.find((e) => e.type === 'ReactionAnswered')?.data).toMatchObject({ side: 'B', by: 'standing-orders', answer: { attackers: ['b-m48'] } });
    expect(events.some((e) => e.type === 'StandingOrdersSet' || (e.type === AppEvent.PhaseSubmitted && (e.data as { kind?: string }).kind === 'standing-orders'))).toBe(false);
  });

  it("puts each side's final standing orders in the export once the game has ended", async () => {
    const g = await startedGame(h);
    await play(h, g.gameId, g.alice, setupA);
    await play(h, g.gameId, g.bob, setupB());
    await play(h, g.gameId, g.bob, { 'landing-fire': 'all', retreat: 'ask' }, 'standing-orders');
    await h.actions.resign(g.gameId, await h.store.currentVersion(g.gameId), g.alice);
    const exported = await h.queries.export(g.gameId, g.alice);
    expect(exported.standingOrders).toEqual({ B: { 'landing-fire': 'all', retreat: 'ask' } });
    expect(exported.events.map((e) => e.type)).not.toContain('StandingOrdersSet');
  });

  it('keeps a game whose log holds StandingOrdersSet working, a stored row overriding it', async () => {
    const g = await startedGame(h);
    await toLandingTurn(h, g);
    // What a standing-orders submission wrote before they left the log.
    const legacy = async (orders: Record<string, string>) => {
      const { state, version, system } = await h.loader.load(g.gameId);
      const drafts: Draft[] = [
        appDraft(AppEvent.PhaseSubmitted, { side: 'B', kind: 'standing-orders' }),
        { source: 'rules', ...privateEvent('StandingOrdersSet', { side: 'B', orders }, ['B'], { type: 'StandingOrdersSet', data: { side: 'B' } }) },
      ];
      await h.app.get(GameCommitter).commit(system, state, version, drafts, { actor: g.bob, correlationId: uniqueId('c') });
    };
    await legacy({ 'landing-fire': 'all' });
    expect(await mine(g.gameId, g.bob)).toEqual({ 'landing-fire': 'all' });
    await play(h, g.gameId, g.bob, {}, 'standing-orders');
    expect(await mine(g.gameId, g.bob)).toEqual({});
    // The row (cleared), not the log's "all", decides: the window opens.
    expect((await land(h, g)).phase.mode).toBe('reaction');
  });

  it('answers a window at once from the log alone when no row was ever stored', async () => {
    const g = await startedGame(h);
    await toLandingTurn(h, g);
    const { state, version, system } = await h.loader.load(g.gameId);
    await h.app.get(GameCommitter).commit(system, state, version, [
      appDraft(AppEvent.PhaseSubmitted, { side: 'B', kind: 'standing-orders' }),
      { source: 'rules', ...privateEvent('StandingOrdersSet', { side: 'B', orders: { 'landing-fire': 'all' } }, ['B'], { type: 'StandingOrdersSet', data: { side: 'B' } }) },
    ], { actor: g.bob, correlationId: uniqueId('c') });
    expect((await land(h, g)).phase.mode).not.toBe('reaction');
  });
});
