import { FakeClock, gamesHarness, GamesHarness, refusalCode } from '../../test/support/games-harness';

/**
 * A clock that moves on by a millisecond each time it is read, as the real one does between two
 * requests: on a clock that stands still, a withdrawal's mark equals the time the join read and
 * the race between them never shows.
 */
class TickingClock extends FakeClock {
  override now(): Date {
    this.advance(1);
    return super.now();
  }
}

const ROUNDS = 20;

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Invitation requests sent at once on one game: the cap and the single use hold whichever runs first. */
describe('invitations raced', () => {
  let h: GamesHarness;
  beforeAll(async () => {
    h = await gamesHarness({ clock: new TickingClock() });
  });
  afterAll(async () => {
    await h?.close();
  });

  const openOf = async (gameId: string) => (await h.invitations.list(gameId, (await h.loader.load(gameId)).state.createdBy, 100)).items.filter((i) => i.status === 'open').length;

  it('invitations sent at once to a game with 19 open leave it with 20, never more', async () => {
    const alice = await h.player('Alice');
    for (let round = 0; round < ROUNDS; round++) {
      const { gameId } = await h.create.execute({ scenarioId: 'kernel-test', side: 'A' }, alice);
      for (let i = 0; i < 19; i++) await h.invitations.invite(gameId, 'B', 'open', alice);
      const got = await Promise.all(Array.from({ length: 20 }, () => refusalCode(h.invitations.invite(gameId, 'B', 'open', alice))));
      expect(got.filter((c) => c === 'accepted')).toHaveLength(1);
      expect(got.filter((c) => c !== 'accepted' && c !== 'invitation/too_many')).toEqual([]);
      expect(await openOf(gameId)).toBe(20);
      // Ended, the game takes its open challenges off the public list other tests read.
      await h.actions.resign(gameId, await h.store.currentVersion(gameId), alice);
    }
  });

  it('a token withdrawn while someone joins with it: either the seat is taken and the withdrawal finds it used, or it ended and seats nobody', async () => {
    const alice = await h.player('Alice');
    for (let round = 0; round < ROUNDS; round++) {
      const bob = await h.player('Bob');
      const { gameId } = await h.create.execute({ scenarioId: 'kernel-test', side: 'A' }, alice);
      const inv = await h.invitations.invite(gameId, 'B', 'token', alice);
      // The withdrawal starts up to 7 ms after the join, so that across the rounds it lands in
      // each step of the join: before its checks, between them and its claim, and after.
      const [joined, withdrawn] = await Promise.all([
        refusalCode(h.invitations.join({ token: inv.token! }, bob)),
        delay(round % 8).then(() => h.invitations.withdraw(gameId, inv.invitationId, alice)).then(
          (r) => r.status,
          (e: { code?: string }) => e.code ?? String(e),
        ),
      ]);
      const seat = (await h.loader.load(gameId)).state.seats['B'];
      const listed = (await h.invitations.list(gameId, alice, 100)).items.find((i) => i.invitationId === inv.invitationId)?.status;
      // Either order is fine; which one a round sees is up to the scheduler.
      if (joined === 'accepted') {
        expect([withdrawn, seat, listed]).toEqual(['invitation/used', bob, 'used']);
      } else {
        expect([joined, withdrawn, seat ?? null, listed]).toEqual(['invitation/expired', 'ended', null, 'ended']);
      }
    }
  });
});
