import { refusalCode, withOwnGames } from '../../test/support/games-harness';
import { uniqueId } from '../../test/support/database';
import { land, play, startedGame, toLandingTurn } from '../../test/support/kernel-game';

/**
 * Answers to a reaction window through the service layer (kernel test system, real Postgres):
 * who may answer, when, at which version, and what a late or repeated answer gets.
 */
const HOUR = 3_600_000;

const withGames = (fn: Parameters<typeof withOwnGames>[1]) => withOwnGames('answers', fn);

/** A refused answer's code and the rule it names (details.ruleId), or "accepted". */
const refusal = (p: Promise<unknown>) =>
  p.then(
    () => 'accepted',
    (e: { code?: string; details?: Record<string, unknown> }) => ({ code: e.code, ruleId: e.details?.['ruleId'] }),
  );
/** With no window open, the rule an answer breaks: anti-landing fire may not be put off until later (GT-7O.3). */
const NO_REACTION = { code: 'game/no_reaction', ruleId: 'GT-7O.3' };

describe('answering a reaction window', () => {
  it('refuses the mover, a stale version and a second answer, writing nothing; the answer resumes the move with the next roll', () =>
    withGames(async (h) => {
      const g = await startedGame(h);
      await toLandingTurn(h, g);
      expect((await land(h, g)).phase).toMatchObject({ mode: 'reaction', acting: ['B'] });
      const open = await h.store.currentVersion(g.gameId);
      const answer = (player: string, expectedVersion: number, key = uniqueId('k')) =>
        h.submit.execute({ gameId: g.gameId, expectedVersion, submission: { kind: 'reaction', orders: { attackers: ['b-m48'] } }, idempotencyKey: key }, player);

      expect(await refusalCode(answer(g.alice, open))).toBe('game/not_your_turn');
      expect(await refusalCode(answer(g.bob, open - 1))).toBe('game/version_conflict');
      // Orders where an answer is asked for are well formed, just not now: a conflict, like an answer with none asked.
      const orders = h.submit.execute({ gameId: g.gameId, expectedVersion: open, submission: { kind: 'orders', orders: [] }, idempotencyKey: uniqueId('k') }, g.bob);
      expect(await refusal(orders)).toEqual({ code: 'game/reaction_pending', ruleId: expect.any(String) });
      // An answer in the wrong shape names the field it lacks and the one it should not have.
      const misnamed = h.submit.execute({ gameId: g.gameId, expectedVersion: open, submission: { kind: 'reaction', orders: { fire: ['b-m48'] } }, idempotencyKey: uniqueId('k') }, g.bob);
      await expect(misnamed).rejects.toMatchObject({ code: 'orders/malformed', message: expect.stringMatching(/orders\.attackers: .*orders: .*"fire"/) });
      expect(await h.store.currentVersion(g.gameId)).toBe(open);

      const rollsBefore = (await h.store.readStream(g.gameId)).filter((e) => e.type === 'DiceRolled').length;
      const key = uniqueId('k');
      const first = await answer(g.bob, open, key);
      const types = first.events.map((e) => e.type);
      expect(types.slice(0, 4)).toEqual(['PhaseSubmitted', 'DiceRolled', 'ReactionAnswered', 'ResolutionResumed']);
      expect(types.indexOf('AttackResolved')).toBeGreaterThan(types.indexOf('ResolutionResumed'));
      expect(first.events.find((e) => e.type === 'DiceRolled')!.data).toMatchObject({ n: rollsBefore + 1 });
      expect(first.phase.mode).not.toBe('reaction');

      const after = await h.store.currentVersion(g.gameId);
      expect(await answer(g.bob, open, key)).toEqual(first);
      expect(await refusal(answer(g.bob, after))).toEqual(NO_REACTION);
      expect(await h.store.currentVersion(g.gameId)).toBe(after);
    }));

  it('asks nothing of anyone once the game ends while a window is open: no reader keeps the prompt', () =>
    withGames(async (h) => {
      const g = await startedGame(h);
      await toLandingTurn(h, g);
      expect((await land(h, g)).phase).toMatchObject({ mode: 'reaction', acting: ['B'] });
      expect(await h.queries.summary(g.gameId, g.bob)).toMatchObject({ reaction: expect.objectContaining({ side: 'B' }) });
      const resigned = await h.actions.resign(g.gameId, await h.store.currentVersion(g.gameId), g.alice);
      expect(resigned.phase).toMatchObject({ status: 'finished', phase: 'ended', mode: 'ended', acting: [], reaction: null });
      for (const player of [g.alice, g.bob]) expect(await h.queries.summary(g.gameId, player)).toMatchObject({ status: 'finished', reaction: null });
    }));

  it('refuses an answer after the window expired, and applies standing orders set while it was open', () =>
    withGames(async (h, clock) => {
      const g = await startedGame(h, { reactionHours: 1 });
      await toLandingTurn(h, g);
      const open = await land(h, g);
      expect(open.phase.mode).toBe('reaction');
      await play(h, g.gameId, g.bob, { 'landing-fire': 'all' }, 'standing-orders');
      expect((await h.queries.summary(g.gameId, g.bob)).mode).toBe('reaction');
      // Kept beside the log: the window's version stands, and the scheduler's expiry still finds them.
      expect(await h.store.currentVersion(g.gameId)).toBe(open.version);
      clock.advance(2 * HOUR);
      while ((await h.worker.tick()) > 0);

      const events = await h.store.readStream(g.gameId);
      const expired = events.findIndex((e) => e.type === 'ReactionAnswered' && (e.data as { by?: string }).by === 'expiry');
      expect(events[expired]!.data).toMatchObject({ answer: { attackers: ['b-m48'] } });
      expect(events.slice(expired).some((e) => e.type === 'AttackResolved')).toBe(true);
      const closed = await h.store.currentVersion(g.gameId);
      expect(await refusal(play(h, g.gameId, g.bob, { attackers: [] }, 'reaction'))).toEqual(NO_REACTION);
      expect(await h.store.currentVersion(g.gameId)).toBe(closed);
    }));
});
