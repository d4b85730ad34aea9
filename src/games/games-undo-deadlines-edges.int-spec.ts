import { GamesHarness, refusalCode, withOwnGames } from '../../test/support/games-harness';
import type { NotificationContent } from '../notifications/notification-intent';
import { headline } from '../notifications/templates/text';
import { land, play, setupA, setupB, startedGame, toLandingTurn } from '../../test/support/kernel-game';

/**
 * The edges of undo, deadlines and vacations where the other side acts in between: a reaction
 * window, a pass the scheduler made, standing orders, the second half of a simultaneous phase.
 */
const HOUR = 3_600_000;

async function runDue(h: GamesHarness): Promise<void> {
  while ((await h.worker.tick()) > 0);
}

const withGames = (fn: Parameters<typeof withOwnGames>[1]) => withOwnGames('edges', fn);

describe('undo once the other side has acted', () => {
  // The window told the mover that the other side had units able to fire there (maybe under a
  // "?") and no standing orders covering it: hidden things, so the landing is no undo point.
  it('refuses to take back a landing that opened a reaction window, before and after its answer', () =>
    withGames(async (h) => {
      const g = await startedGame(h);
      await toLandingTurn(h, g);
      const paused = await land(h, g);
      expect(paused.phase.mode).toBe('reaction');
      expect(await refusalCode(h.actions.proposeUndo(g.gameId, paused.version, g.alice))).toBe('undo/not_allowed');
      const reacted = await play(h, g.gameId, g.bob, { attackers: ['b-m48'] }, 'reaction');
      expect(reacted.events.some((e) => e.type === 'DiceRolled')).toBe(true);
      expect(await refusalCode(h.actions.proposeUndo(g.gameId, reacted.version, g.alice))).toBe('undo/nothing');
      expect((await h.queries.summary(g.gameId, g.alice)).pendingUndo).toBeNull();
    }));

  it('refuses to take back a phase the opponent has reacted to, even without dice', () =>
    withGames(async (h) => {
      const g = await startedGame(h);
      await toLandingTurn(h, g);
      await land(h, g);
      const reacted = await play(h, g.gameId, g.bob, { attackers: [] }, 'reaction');
      expect(reacted.events.some((e) => e.type === 'DiceRolled')).toBe(false);
      expect(await refusalCode(h.actions.proposeUndo(g.gameId, reacted.version, g.alice))).toBe('undo/nothing');
    }));

  it('refuses to take back the setup that opened the sealed setups: it showed that side the other one', () =>
    withGames(async (h) => {
      const g = await startedGame(h);
      await play(h, g.gameId, g.alice, setupA);
      const opened = await play(h, g.gameId, g.bob, setupB());
      // B now reads where A placed its ship, which its sealed orders hid until B's setup came in.
      expect(opened.events).toContainEqual(expect.objectContaining({ type: 'UnitPlaced', data: expect.objectContaining({ unit: 'a-ship' }) }));
      expect(await refusalCode(h.actions.proposeUndo(g.gameId, opened.version, g.bob))).toBe('undo/not_allowed');
    }));

  it('still takes back a sealed setup the other side has not seen', () =>
    withGames(async (h) => {
      const g = await startedGame(h);
      const sealed = await play(h, g.gameId, g.alice, setupA);
      expect(sealed.phase.acting).toEqual(['B']);
      const proposed = await h.actions.proposeUndo(g.gameId, sealed.version, g.alice);
      const accepted = await h.actions.answerUndo(g.gameId, proposed.version, g.bob, true);
      expect(accepted.phase.acting).toEqual(['A', 'B']);
    }));

  it('offers no undo of a pass the scheduler made for a side that missed its deadline', () =>
    withGames(async (h, clock) => {
      const g = await startedGame(h, { deadlineHours: 2, reactionHours: 1 });
      await play(h, g.gameId, g.alice, setupA);
      await play(h, g.gameId, g.bob, setupB());
      clock.advance(3 * HOUR);
      await runDue(h);
      const s = await h.queries.summary(g.gameId, g.alice);
      expect(s.phase).not.toBe('a-move');
      expect((await h.store.readStream(g.gameId)).some((e) => e.type === 'PhaseSubmitted' && (e.data as { auto?: boolean }).auto === true)).toBe(true);
      expect(await refusalCode(h.actions.proposeUndo(g.gameId, s.version, g.alice))).toBe('undo/nothing');
    }));
});

describe('missed deadlines and reaction windows', () => {
  // A job claimed before the deadline it stands for (its row moved, or written by an instance
  // whose clock ran ahead) was cancelled as moot, and nothing planned it again: the game then
  // stayed past its deadline for good, refusing orders, with no miss ever marked.
  it('puts a deadline job run before its deadline back for the deadline, and marks the miss then', () =>
    withGames(async (h, clock) => {
      const g = await startedGame(h, { deadlineHours: 2 });
      const deadlineJob = () => h.prisma.scheduledJob.findFirstOrThrow({ where: { gameId: g.gameId, kind: 'deadline' }, orderBy: { createdAt: 'desc' } });
      const planned = await deadlineJob();
      await h.prisma.scheduledJob.update({ where: { id: planned.id }, data: { dueAt: new Date(planned.dueAt.getTime() - 90 * 60_000) } });
      clock.advance(HOUR);
      await runDue(h);
      expect(await deadlineJob()).toMatchObject({ id: planned.id, status: 'pending', dueAt: planned.dueAt });
      const missed = async () => (await h.store.readStream(g.gameId)).filter((e) => e.type === 'DeadlineMissed').length;
      expect(await missed()).toBe(0);
      clock.advance(2 * HOUR);
      await runDue(h);
      expect(await h.prisma.scheduledJob.findUniqueOrThrow({ where: { id: planned.id } })).toMatchObject({ status: 'done' });
      expect(await missed()).toBeGreaterThan(0);
    }));

  it('runs the jobs a worker catches up on in the order they fell due', () =>
    withGames(async (h, clock) => {
      const later = await startedGame(h, { deadlineHours: 48 });
      const sooner = await startedGame(h, { deadlineHours: 24 });
      for (const g of [later, sooner]) {
        await play(h, g.gameId, g.alice, setupA);
        await play(h, g.gameId, g.bob, setupB());
      }
      clock.advance(50 * HOUR);
      await h.worker.tick();
      const missedAt = async (gameId: string) => (await h.store.readStream(gameId)).find((e) => e.type === 'DeadlineMissed')!.position;
      expect(BigInt(await missedAt(sooner.gameId))).toBeLessThan(BigInt(await missedAt(later.gameId)));
    }));

  it('sends no reminder for a deadline already past when the worker catches up (whichever job it runs first)', () =>
    withGames(async (h, clock) => {
      const g = await startedGame(h, { deadlineHours: 24 });
      await play(h, g.gameId, g.alice, setupA);
      const setUp = await play(h, g.gameId, g.bob, setupB());
      // The server was down through both the reminder (12 h before) and the deadline.
      clock.advance(30 * HOUR);
      // One job a tick: claimed in due order, the reminder runs before the expiry.
      while ((await h.worker.tick(1)) > 0);
      const types = (await h.store.readStream(g.gameId, setUp.version + 1)).map((e) => e.type);
      expect(types).toContain('DeadlineMissed');
      expect(types).not.toContain('DeadlineReminded');
    }));

  it('an expired reaction window applies "no reaction" under the forfeit policy, and counts as no missed phase', () =>
    withGames(async (h, clock) => {
      const g = await startedGame(h, { deadlineHours: 24, reactionHours: 1, timeout: { kind: 'forfeit', forfeitAfter: 1 } });
      await toLandingTurn(h, g);
      expect((await land(h, g)).phase.mode).toBe('reaction');
      clock.advance(2 * HOUR);
      await runDue(h);
      const s = await h.queries.summary(g.gameId, g.alice);
      expect(s.result).toBeNull();
      expect(s.status).toBe('active');
      const events = await h.store.readStream(g.gameId);
      expect(events.filter((e) => e.type === 'DeadlineMissed').map((e) => e.data)).toEqual([{ side: 'B', window: 'reaction' }]);
      expect(events.some((e) => e.type === 'ReactionAnswered' && (e.data as { by?: string }).by === 'expiry')).toBe(true);
    }));

  it('tells the side whose reaction window closed unanswered what applied, not that it missed a deadline', () =>
    withOwnGames(
      'edges-window-notice',
      async (h, clock) => {
        const g = await startedGame(h, { deadlineHours: 24, reactionHours: 1 });
        await toLandingTurn(h, g);
        expect((await land(h, g)).phase.mode).toBe('reaction');
        clock.advance(2 * HOUR);
        await runDue(h);
        const told = await h.prisma.notification.findFirstOrThrow({ where: { gameId: g.gameId, playerId: g.bob, kind: 'deadline_missed' } });
        const content = told.content as unknown as NotificationContent;
        expect(content.missed).toEqual({ sides: ['Red (defends the island)'], you: true, window: 'reaction', applied: 'none', answer: 'attackers none' });
        expect(headline('deadline_missed', content)).toBe('Your reaction window closed unanswered: no standing orders covered it, so no reaction applied (attackers none).');
        expect(headline('deadline_missed', { ...content, missed: { sides: content.missed!.sides, you: false, window: 'reaction' } })).toBe('Red (defends the island) let a reaction window close unanswered.');
      },
      undefined,
      { notifications: true },
    ));

  // Standing orders that hold their fire act as no reaction does, on the board and in the log
  // the other side reads: only their side may learn which of the two closed the window.
  it('tells the side whose standing orders, sent while the window was open, answered it that they did, and the other side nothing of it', () =>
    withOwnGames(
      'edges-window-standing',
      async (h, clock) => {
        const bare = await startedGame(h, { deadlineHours: 24, reactionHours: 1 });
        const standing = await startedGame(h, { deadlineHours: 24, reactionHours: 1 });
        for (const g of [bare, standing]) {
          await toLandingTurn(h, g);
          expect((await land(h, g)).phase.mode).toBe('reaction');
        }
        await play(h, standing.gameId, standing.bob, { 'landing-fire': 'none' }, 'standing-orders');
        clock.advance(2 * HOUR);
        await runDue(h);
        const last = async (gameId: string, playerId: string) => {
          const n = await h.prisma.notification.findFirstOrThrow({ where: { gameId, playerId }, orderBy: { gameVersion: 'desc' } });
          return { kind: n.kind, gameVersion: n.gameVersion, content: n.content as unknown as NotificationContent };
        };
        const expired = async (gameId: string) => (await h.store.readStream(gameId)).find((e) => e.type === 'DeadlineMissed')!.version;
        const mine = await last(standing.gameId, standing.bob);
        expect(mine.gameVersion).toBeGreaterThanOrEqual(await expired(standing.gameId));
        expect(mine.content.missed).toEqual({ sides: ['Red (defends the island)'], you: true, window: 'reaction', applied: 'standing-orders', answer: 'attackers none' });
        expect(headline('deadline_missed', mine.content)).toBe('Your reaction window closed unanswered: your standing orders applied (attackers none).');
        // A's notice of the close reads the same whether B had standing orders or not.
        const theirs = await Promise.all([bare, standing].map(async (g) => ({ ...(await last(g.gameId, g.alice)), expiredAt: await expired(g.gameId) })));
        for (const t of theirs) expect(t.gameVersion).toBeGreaterThanOrEqual(t.expiredAt);
        const comparable = ({ content: { links: _links, ...rest }, kind }: (typeof theirs)[number]) => ({ kind, content: rest });
        expect(comparable(theirs[1]!)).toEqual(comparable(theirs[0]!));
        expect(JSON.stringify(theirs[1]!.content)).not.toMatch(/standing|applied/i);
      },
      undefined,
      { notifications: true },
    ));

  // As a vacation is (vacation/too_late): acting after one's own deadline, before the worker marks
  // the miss, would cancel it, and standing orders sent then would decide the expired window.
  it('refuses a side\'s orders, reaction and standing orders once its own deadline has passed, until the miss is applied', () =>
    withGames(async (h, clock) => {
      const g = await startedGame(h, { deadlineHours: 24, reactionHours: 1 });
      await toLandingTurn(h, g);
      const paused = await land(h, g);
      expect(paused.phase.mode).toBe('reaction');
      clock.advance(2 * HOUR);
      const late = await h.store.currentVersion(g.gameId);
      expect(await refusalCode(play(h, g.gameId, g.bob, { attackers: ['b-m48'] }, 'reaction'))).toBe('game/deadline_passed');
      expect(await refusalCode(play(h, g.gameId, g.bob, { 'landing-fire': 'all' }, 'standing-orders'))).toBe('game/deadline_passed');
      // A window's end applies standing orders or no reaction, never the timeout policy: the refusal says which.
      const refusal = await play(h, g.gameId, g.bob, { attackers: ['b-m48'] }, 'reaction').then(() => null, (e: Error) => e.message);
      expect(refusal).toMatch(/^Your side's reaction window closed at .*: your standing orders, or no reaction, apply; this answer is no longer taken\.$/);
      expect(await refusalCode(h.check.execute({ gameId: g.gameId, expectedVersion: late, submission: { kind: 'reaction', orders: { attackers: ['b-m48'] } } }, g.bob))).toBe('game/deadline_passed');
      expect(await h.store.currentVersion(g.gameId)).toBe(late);
      await runDue(h);
      const events = await h.store.readStream(g.gameId, late + 1);
      expect(events.map((e) => e.type)).toContain('DeadlineMissed');
      // The expiry answered with "no reaction": the standing orders sent late decided nothing.
      expect(events.filter((e) => e.type === 'DiceRolled')).toEqual([]);
      // A, whose deadline has not passed, acts as before; B's next phase is refused once its own deadline is past.
      expect((await h.queries.summary(g.gameId, g.alice)).acting).toEqual(['A']);
      await play(h, g.gameId, g.alice, []);
      expect((await h.queries.summary(g.gameId, g.bob)).acting).toEqual(['B']);
      clock.advance(25 * HOUR);
      expect(await refusalCode(play(h, g.gameId, g.bob, []))).toBe('game/deadline_passed');
      expect(await play(h, g.gameId, g.bob, []).then(() => null, (e: Error) => e.message)).toMatch(/^Your side's deadline passed at .*: the game's timeout policy applies, and this is no longer taken\.$/);
    }));

  // An accepted undo sets the proposer's phase a new deadline: accepted late, it would cancel a
  // miss already due, the proposer's or (by its own answer) the acceptor's.
  it('refuses to accept an undo once a deadline has passed, the proposer\'s or the acceptor\'s, until the miss is applied', () =>
    withGames(async (h, clock) => {
      const forfeit = { deadlineHours: 2, timeout: { kind: 'forfeit', forfeitAfter: 1 } };
      const g = await startedGame(h, forfeit);
      await play(h, g.gameId, g.alice, setupA);
      await play(h, g.gameId, g.bob, setupB());
      const moved = await play(h, g.gameId, g.alice, [{ kind: 'move', unit: 'a-ship', path: ['0204'] }]);
      const proposed = await h.actions.proposeUndo(g.gameId, moved.version, g.alice);
      clock.advance(3 * HOUR); // A's attack was due
      expect(await refusalCode(h.actions.answerUndo(g.gameId, proposed.version, g.bob, true))).toBe('game/deadline_passed');
      expect(await h.store.currentVersion(g.gameId)).toBe(proposed.version);
      await runDue(h);
      expect((await h.queries.summary(g.gameId, g.bob)).result).toMatchObject({ winner: 'B' });

      const k = await startedGame(h, forfeit);
      await play(h, k.gameId, k.alice, setupA);
      await play(h, k.gameId, k.bob, setupB());
      await play(h, k.gameId, k.alice, [{ kind: 'move', unit: 'a-ship', path: ['0204'] }]);
      const passed = await play(h, k.gameId, k.alice, []);
      expect(passed.phase.acting).toEqual(['B']);
      const asked = await h.actions.proposeUndo(k.gameId, passed.version, k.alice);
      clock.advance(3 * HOUR); // B's move was due
      expect(await refusalCode(h.actions.answerUndo(k.gameId, asked.version, k.bob, true))).toBe('game/deadline_passed');
      // Declining sets no deadline: B may still say no, and the miss stays due.
      await h.actions.answerUndo(k.gameId, asked.version, k.bob, false);
      await runDue(h);
      expect((await h.queries.summary(k.gameId, k.alice)).result).toMatchObject({ winner: 'A' });
    }));

  it('standing orders do not wipe the count of deadlines missed in a row', () =>
    withGames(async (h, clock) => {
      const g = await startedGame(h, { deadlineHours: 2, reactionHours: 1, timeout: { kind: 'pass', forfeitAfter: 2 } });
      await play(h, g.gameId, g.alice, setupA);
      clock.advance(3 * HOUR);
      await runDue(h); // B misses its setup (an empty setup is refused: the clock restarts)
      await play(h, g.gameId, g.bob, { 'landing-fire': 'all' }, 'standing-orders');
      clock.advance(3 * HOUR);
      await runDue(h); // the second miss in a row
      expect((await h.store.readStream(g.gameId)).filter((e) => e.type === 'DeadlineMissed')).toHaveLength(2);
      expect((await h.queries.summary(g.gameId, g.alice)).result).toMatchObject({ winner: 'A' });
    }));

  // The undo puts the game back as it was before the phase: the count of misses it had reset too.
  it('orders taken back by an undo do not wipe the count of deadlines missed in a row', () =>
    withGames(async (h, clock) => {
      const g = await startedGame(h, { deadlineHours: 2, timeout: { kind: 'pass', forfeitAfter: 3 } });
      await play(h, g.gameId, g.alice, setupA);
      await play(h, g.gameId, g.bob, setupB());
      for (let k = 0; k < 2; k++) {
        clock.advance(3 * HOUR);
        await runDue(h); // A misses its move, then its attack
      }
      expect((await h.queries.summary(g.gameId, g.alice)).acting).toEqual(['B']);
      await play(h, g.gameId, g.bob, []);
      await play(h, g.gameId, g.bob, []);
      const moved = await play(h, g.gameId, g.alice, [{ kind: 'move', unit: 'a-ship', path: ['0204'] }]);
      const proposed = await h.actions.proposeUndo(g.gameId, moved.version, g.alice);
      await h.actions.answerUndo(g.gameId, proposed.version, g.bob, true);
      clock.advance(3 * HOUR);
      await runDue(h); // the third miss in a row: the move in between was taken back
      expect((await h.store.readStream(g.gameId)).filter((e) => e.type === 'DeadlineMissed').map((e) => (e.data as { side: string }).side)).toEqual(['A', 'A', 'A']);
      expect((await h.queries.summary(g.gameId, g.alice)).result).toMatchObject({ winner: 'B' });
    }));

  it('makes no winner of a side that missed the same deadline as the side that forfeits', () =>
    withGames(async (h, clock) => {
      const forfeit = await startedGame(h, { deadlineHours: 2, reactionHours: 1, timeout: { kind: 'forfeit', forfeitAfter: 1 } });
      const pass = await startedGame(h, { deadlineHours: 2, reactionHours: 1, timeout: { kind: 'pass', forfeitAfter: 1 } });
      clock.advance(3 * HOUR); // neither side sent its setup
      await runDue(h);
      for (const g of [forfeit, pass]) {
        const events = await h.store.readStream(g.gameId);
        expect(events.filter((e) => e.type === 'DeadlineMissed').map((e) => e.data)).toEqual([{ side: 'A' }, { side: 'B' }]);
        expect((await h.queries.summary(g.gameId, g.alice)).result).toEqual({ winner: null, reason: 'Sides A and B missed their deadline.' });
      }
    }));

  it('a reaction answered by the player resets the count', () =>
    withGames(async (h, clock) => {
      const g = await startedGame(h, { deadlineHours: 2, reactionHours: 1, timeout: { kind: 'pass', forfeitAfter: 2 } });
      await play(h, g.gameId, g.alice, setupA);
      clock.advance(3 * HOUR);
      await runDue(h); // B misses #1
      await play(h, g.gameId, g.bob, setupB());
      expect((await h.queries.summary(g.gameId, g.alice)).status).toBe('active');
    }));
});

describe('a vacation asked for once the deadline has passed', () => {
  it('is refused, and the miss the worker has not yet run still counts', () =>
    withGames(async (h, clock) => {
      const g = await startedGame(h, { deadlineHours: 24 });
      await play(h, g.gameId, g.alice, setupA);
      const setUp = await play(h, g.gameId, g.bob, setupB());
      clock.advance(25 * HOUR); // A's move was due an hour ago; no worker has run since
      expect(await refusalCode(h.actions.startVacation(g.gameId, setUp.version, g.alice))).toBe('vacation/too_late');
      await runDue(h);
      expect((await h.store.readStream(g.gameId, setUp.version + 1)).filter((e) => e.type === 'DeadlineMissed').map((e) => e.data)).toEqual([{ side: 'A' }]);
    }));
});

describe('a vacation in a game that allows none', () => {
  it('is refused saying so, not that the days are used up', () =>
    withGames(async (h) => {
      const g = await startedGame(h, { deadlineHours: 24, vacationDays: 0 });
      const version = await h.store.currentVersion(g.gameId);
      const err = (await h.actions.startVacation(g.gameId, version, g.alice).catch((e: unknown) => e)) as { code: string; message: string };
      expect({ code: err.code, message: err.message }).toEqual({ code: 'vacation/used_up', message: 'This game allows no vacation (vacationDays 0).' });
      expect(await h.store.currentVersion(g.gameId)).toBe(version);
    }));
});

describe('a vacation whose end the worker runs late (an outage)', () => {
  it('ends when the allowance ran out: no more days used, and the clock restarted from then', () =>
    withGames(async (h, clock) => {
      const g = await startedGame(h, { deadlineHours: 24, vacationDays: 1 });
      await play(h, g.gameId, g.alice, setupA);
      const setUp = await play(h, g.gameId, g.bob, setupB());
      clock.advance(4 * HOUR);
      const away = await h.actions.startVacation(g.gameId, setUp.version, g.alice);
      const leftAt = clock.now().getTime();
      // The 1-day allowance runs out 24 h later; the workers are down until 30 h later.
      clock.advance(30 * HOUR);
      await h.worker.tick();
      const after = await h.store.readStream(g.gameId, away.version + 1);
      expect(after.find((e) => e.type === 'VacationEnded')?.data).toMatchObject({ side: 'A', usedMs: 24 * HOUR });
      // 20 h were left when A went away: the deadline is 20 h after the allowance ran out, not after the worker ran.
      expect(after.find((e) => e.type === 'DeadlineSet')?.data).toMatchObject({ at: new Date(leftAt + 24 * HOUR + 20 * HOUR).toISOString() });
    }));
});

describe('a clock restarted with less time left than the reminder lead', () => {
  // The reminder's time had passed when the clock restarted, so none was planned: a player whose
  // vacation ran out while away heard nothing until the deadline was missed.
  it('reminds the side at once when the vacation runs out, and only once', () =>
    withGames(async (h, clock) => {
      const g = await startedGame(h, { deadlineHours: 24, vacationDays: 1 });
      await play(h, g.gameId, g.alice, setupA);
      const setUp = await play(h, g.gameId, g.bob, setupB());
      clock.advance(14 * HOUR);
      const away = await h.actions.startVacation(g.gameId, setUp.version, g.alice);
      clock.advance(24 * HOUR);
      await runDue(h);
      const after = await h.store.readStream(g.gameId, away.version + 1);
      const restart = after.find((e) => e.type === 'DeadlineSet');
      expect(restart?.data).toMatchObject({ retimed: true, at: new Date(clock.now().getTime() + 10 * HOUR).toISOString() });
      expect(after.filter((e) => e.type === 'DeadlineReminded').map((e) => e.data)).toEqual([{ side: 'A', deadlineAt: (restart!.data as { at: string }).at }]);
      clock.advance(5 * HOUR);
      await runDue(h);
      expect((await h.store.readStream(g.gameId, away.version + 1)).filter((e) => e.type === 'DeadlineReminded')).toHaveLength(1);
    }));
});

describe('a vacation end claimed before the allowance runs out', () => {
  it('is put back for the time the allowance runs out, not dropped', () =>
    withGames(async (h, clock) => {
      const g = await startedGame(h, { deadlineHours: 24, vacationDays: 1 });
      const away = await h.actions.startVacation(g.gameId, g.version, g.alice);
      const endsAt = new Date(clock.now().getTime() + 24 * HOUR);
      const job = await h.prisma.scheduledJob.findFirstOrThrow({ where: { gameId: g.gameId, kind: 'vacation', status: 'pending' } });
      expect(job.dueAt).toEqual(endsAt);
      await h.prisma.scheduledJob.update({ where: { id: job.id }, data: { dueAt: clock.now() } });
      await runDue(h);
      expect(await h.prisma.scheduledJob.findUniqueOrThrow({ where: { id: job.id } })).toMatchObject({ status: 'pending', dueAt: endsAt });
      expect((await h.store.readStream(g.gameId, away.version + 1)).map((e) => e.type)).not.toContain('VacationEnded');
      clock.advance(24 * HOUR);
      await runDue(h);
      expect((await h.store.readStream(g.gameId, away.version + 1)).find((e) => e.type === 'VacationEnded')?.data).toMatchObject({ side: 'A', usedMs: 24 * HOUR });
    }));
});

describe('simultaneous phases: a side that is done', () => {
  it('is not reminded, and its vacation does not stop the clock of the side still to act', () =>
    withGames(async (h, clock) => {
      const g = await startedGame(h, { deadlineHours: 24 });
      const sealed = await play(h, g.gameId, g.alice, setupA);
      expect(sealed.phase.acting).toEqual(['B']);
      const before = (await h.queries.summary(g.gameId, g.bob)).deadlineAt;
      const away = await h.actions.startVacation(g.gameId, sealed.version, g.alice);
      expect(away.phase.deadlineAt).toBe(before);
      clock.advance(13 * HOUR);
      await runDue(h);
      const reminded = (await h.store.readStream(g.gameId)).filter((e) => e.type === 'DeadlineReminded').map((e) => (e.data as { side: string }).side);
      expect(reminded).toEqual(['B']);
    }));

  it('restarts the paused clock when the side away submits its part, with the time that was left', () =>
    withGames(async (h, clock) => {
      const g = await startedGame(h, { deadlineHours: 24 });
      clock.advance(4 * HOUR);
      const away = await h.actions.startVacation(g.gameId, g.version, g.alice);
      expect(away.phase.deadlineAt).toBeNull();
      clock.advance(5 * HOUR);
      const sealed = await play(h, g.gameId, g.alice, setupA);
      expect(sealed.phase.acting).toEqual(['B']);
      expect(sealed.phase.deadlineAt).toBe(new Date(clock.now().getTime() + 20 * HOUR).toISOString());
    }));
});

/**
 * One submission lands two amphibians next to the same M48 (0505 touches 0404 and 0405): two
 * windows for B, one after the other, alike but for their hex.
 */
async function twoWindows(h: GamesHarness, g: { gameId: string; alice: string; bob: string }) {
  await play(h, g.gameId, g.alice, setupA);
  await play(h, g.gameId, g.bob, setupB(0, { 'b-m48': '0505', 'b-boat': '0308' }));
  await play(h, g.gameId, g.alice, [{ kind: 'move', unit: 'a-ship', path: ['0204'] }, { kind: 'unload', unit: 'a-apc-1', hex: '0304' }, { kind: 'unload', unit: 'a-apc-2', hex: '0305' }]);
  await play(h, g.gameId, g.alice, []);
  await play(h, g.gameId, g.bob, []);
  await play(h, g.gameId, g.bob, []);
  return play(h, g.gameId, g.alice, [{ kind: 'move', unit: 'a-apc-1', path: ['0404'] }, { kind: 'move', unit: 'a-apc-2', path: ['0405'] }]);
}

describe('a second reaction window in the same resolution', () => {
  it('gets a deadline of its own, announced, when the side answers the first', () =>
    withGames(async (h, clock) => {
      const g = await startedGame(h, { reactionHours: 24 });
      expect((await twoWindows(h, g)).phase).toMatchObject({ mode: 'reaction', acting: ['B'], reaction: { side: 'B', kind: 'landing-fire' } });
      clock.advance(23 * HOUR);
      const second = await play(h, g.gameId, g.bob, { attackers: [] }, 'reaction');
      expect(second.phase).toMatchObject({ mode: 'reaction', acting: ['B'], reaction: { prompt: { hex: '0405' } } });
      expect(second.events.map((e) => e.type)).toContain('DeadlineSet');
      expect(Date.parse(second.phase.deadlineAt!)).toBe(clock.now().getTime() + 24 * HOUR);
    }));

  it('expires in its turn when the first expired (the game does not hang)', () =>
    withGames(async (h, clock) => {
      const g = await startedGame(h, { reactionHours: 1 });
      expect((await twoWindows(h, g)).phase.mode).toBe('reaction');
      for (let i = 0; i < 4; i++) {
        clock.advance(2 * HOUR);
        await runDue(h);
      }
      const s = await h.queries.summary(g.gameId, g.alice);
      expect({ mode: s.mode, phase: s.phase, overdue: Date.parse(s.deadlineAt!) < clock.now().getTime() }).toEqual({ mode: 'sequential', phase: 'a-attack', overdue: false });
      const answered = (await h.store.readStream(g.gameId)).filter((e) => e.type === 'ReactionAnswered').map((e) => (e.data as { by: string }).by);
      expect(answered).toEqual(['expiry', 'expiry']);
    }));
});
