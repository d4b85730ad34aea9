import { gamesHarness, GamesHarness } from '../../test/support/games-harness';
import { play, setupA, setupB, startedGame } from '../../test/support/kernel-game';

/**
 * An undo proposal closes in the log whatever closes it: UndoAccepted or UndoDeclined when the
 * other side answers, UndoLapsed when a submission or the end of the game drops it first, written
 * in that commit right after the event that dropped it, for both sides to read.
 */
describe('an undo proposal that lapses', () => {
  let h: GamesHarness;
  beforeAll(async () => {
    h = await gamesHarness({ notifications: true });
  });
  afterAll(async () => {
    await h.close();
  });

  /** A has moved and proposes to take it back; B is to act. */
  const proposed = async () => {
    const g = await startedGame(h);
    await play(h, g.gameId, g.alice, setupA);
    await play(h, g.gameId, g.bob, setupB());
    await play(h, g.gameId, g.alice, [{ kind: 'move', unit: 'a-ship', path: ['0204'] }]);
    const attacked = await play(h, g.gameId, g.alice, []);
    const proposal = await h.actions.proposeUndo(g.gameId, attacked.version, g.alice);
    return { ...g, proposedAt: proposal.version };
  };
  const types = (events: Array<{ type: string }>) => events.map((e) => e.type);

  it('is closed by UndoLapsed when the other side goes on, read by both sides and told to the proposer', async () => {
    const g = await proposed();
    const went = await play(h, g.gameId, g.bob, []);
    expect(types(went.events).slice(0, 2)).toEqual(['PhaseSubmitted', 'UndoLapsed']);
    const lapse = { type: 'UndoLapsed', data: { side: 'A', proposedAt: g.proposedAt, by: 'B' } };
    for (const player of [g.alice, g.bob]) {
      expect((await h.queries.history(g.gameId, player, g.proposedAt)).events).toContainEqual(expect.objectContaining(lapse));
      expect((await h.queries.summary(g.gameId, player)).pendingUndo).toBeNull();
    }
    const told = await h.prisma.notification.findFirstOrThrow({ where: { gameId: g.gameId, playerId: g.alice, kind: 'undo_answered' } });
    expect(told.content).toMatchObject({ undoAccepted: false, undoLapsed: true, happened: expect.arrayContaining(['Undo Lapsed: side A']) });
  });

  it('is closed by UndoLapsed when the proposer goes on itself, or the game ends', async () => {
    const g = await startedGame(h);
    await play(h, g.gameId, g.alice, setupA);
    await play(h, g.gameId, g.bob, setupB());
    const moved = await play(h, g.gameId, g.alice, [{ kind: 'move', unit: 'a-ship', path: ['0204'] }]);
    const proposal = await h.actions.proposeUndo(g.gameId, moved.version, g.alice);
    const own = await play(h, g.gameId, g.alice, []);
    expect(types(own.events).slice(0, 2)).toEqual(['PhaseSubmitted', 'UndoLapsed']);
    expect(own.events[1]!.data).toEqual({ side: 'A', proposedAt: proposal.version, by: 'A' });

    const ended = await proposed();
    const resigned = await h.actions.resign(ended.gameId, ended.proposedAt, ended.bob);
    expect(types(resigned.events)).toEqual(['Resigned', 'GameEnded', 'UndoLapsed', 'SeedRevealed']);
    expect(resigned.events[2]!.data).toEqual({ side: 'A', proposedAt: ended.proposedAt, by: null });
  });

  it('writes nothing more when the other side answers', async () => {
    const g = await proposed();
    const declined = await h.actions.answerUndo(g.gameId, g.proposedAt, g.bob, false);
    expect(types(declined.events)).toEqual(['UndoDeclined']);
    const went = await play(h, g.gameId, g.bob, []);
    expect(types(went.events)).not.toContain('UndoLapsed');
  });
});
