import { DomainError } from '../common/errors';
import { FakeClock, gamesHarness, GamesHarness, workerDatabase } from '../../test/support/games-harness';
import { play, setupA, setupB, startedGame, toLandingTurn } from '../../test/support/kernel-game';

const HOUR = 3_600_000;

describe('undo', () => {
  let h: GamesHarness;
  beforeAll(async () => {
    h = await gamesHarness();
  });
  afterAll(async () => {
    await h.close();
  });

  it('takes back a phase that rolled no dice once the opponent accepts, with compensating events', async () => {
    const g = await startedGame(h);
    await play(h, g.gameId, g.alice, setupA);
    await play(h, g.gameId, g.bob, setupB());
    const before = JSON.stringify((await h.queries.view(g.gameId, g.alice)).board);
    const moved = await play(h, g.gameId, g.alice, [{ kind: 'move', unit: 'a-ship', path: ['0204'] }]);
    expect(moved.phase.phase).toBe('a-attack');
    const proposed = await h.actions.proposeUndo(g.gameId, moved.version, g.alice);
    expect((await h.queries.summary(g.gameId, g.bob)).pendingUndo).toMatchObject({ proposedBy: 'A' });
    const accepted = await h.actions.answerUndo(g.gameId, proposed.version, g.bob, true);
    expect(accepted.phase).toMatchObject({ phase: 'a-move', acting: ['A'] });
    expect(JSON.stringify((await h.queries.view(g.gameId, g.alice)).board)).toBe(before);
    const types = (await h.store.readStream(g.gameId)).map((e) => e.type);
    expect(types).toContain('UnitMoved');
    expect(types.slice(-2)).toEqual(['UndoAccepted', 'DeadlineSet']);
  });

  it('keeps the phase when the opponent declines, and refuses an undo after a roll', async () => {
    const g = await startedGame(h);
    await toLandingTurn(h, g);
    await play(h, g.gameId, g.bob, { 'landing-fire': 'all' }, 'standing-orders');
    const landed = await play(h, g.gameId, g.alice, [{ kind: 'move', unit: 'a-apc-1', path: ['0404'] }]);
    expect(landed.events.some((e) => e.type === 'DiceRolled')).toBe(true);
    const err = (await h.actions.proposeUndo(g.gameId, landed.version, g.alice).catch((e: unknown) => e)) as DomainError;
    expect(err.code).toBe('undo/not_allowed');

    const g2 = await startedGame(h);
    await play(h, g2.gameId, g2.alice, setupA);
    await play(h, g2.gameId, g2.bob, setupB());
    const moved = await play(h, g2.gameId, g2.alice, [{ kind: 'move', unit: 'a-ship', path: ['0204'] }]);
    const proposed = await h.actions.proposeUndo(g2.gameId, moved.version, g2.alice);
    const declined = await h.actions.answerUndo(g2.gameId, proposed.version, g2.bob, false);
    expect(declined.phase.phase).toBe('a-attack');
    const own = (await h.actions.answerUndo(g2.gameId, declined.version, g2.alice, true).catch((e: unknown) => e)) as DomainError;
    expect(own.code).toBe('undo/none');
    // Once declined, the same phase cannot be put to the opponent again (each proposal notifies them).
    const again = (await h.actions.proposeUndo(g2.gameId, declined.version, g2.alice).catch((e: unknown) => e)) as DomainError;
    expect(again.code).toBe('undo/declined');
    expect(await h.store.currentVersion(g2.gameId)).toBe(declined.version);
  });

  it('refuses an undo of a phase whose landing the other side\'s standing orders answered, even with no fire: it told the mover they had some', async () => {
    const g = await startedGame(h);
    await toLandingTurn(h, g);
    await play(h, g.gameId, g.bob, { 'landing-fire': 'none' }, 'standing-orders');
    const landed = await play(h, g.gameId, g.alice, [{ kind: 'move', unit: 'a-apc-1', path: ['0404'] }]);
    expect(landed.events.map((e) => [e.type, (e.data as { by?: string }).by])).toContainEqual(['ReactionAnswered', 'standing-orders']);
    expect(landed.events.map((e) => e.type)).not.toContain('DiceRolled');
    const err = (await h.actions.proposeUndo(g.gameId, landed.version, g.alice).catch((e: unknown) => e)) as DomainError;
    expect(err.code).toBe('undo/not_allowed');
  });

  it('refuses an undo of a phase that revealed a hidden unit', async () => {
    const g = await startedGame(h);
    await play(h, g.gameId, g.alice, setupA);
    // The M48 stays away, so the landing meets no fire: only a camouflaged platoon at 0505.
    const b = setupB().map((o) => (o.unit === 'b-m48' ? { ...o, hex: '0905' } : o.unit === 'b-inf-1' ? { ...o, hex: '0505' } : o));
    await play(h, g.gameId, g.bob, b);
    await play(h, g.gameId, g.alice, [{ kind: 'move', unit: 'a-ship', path: ['0204'] }, { kind: 'unload', unit: 'a-apc-1', hex: '0304' }]);
    await play(h, g.gameId, g.alice, []);
    await play(h, g.gameId, g.bob, []);
    await play(h, g.gameId, g.bob, []);
    const landed = await play(h, g.gameId, g.alice, [{ kind: 'move', unit: 'a-apc-1', path: ['0404'] }]);
    expect(landed.events.map((e) => e.type)).toContain('UnitRevealed');
    expect(landed.events.map((e) => e.type)).not.toContain('DiceRolled');
    const err = (await h.actions.proposeUndo(g.gameId, landed.version, g.alice).catch((e: unknown) => e)) as DomainError;
    expect(err.code).toBe('undo/not_allowed');
  });
});

describe('deadlines', () => {
  it('fires a reminder and an expiry exactly once with two worker instances, and a vacation pauses the clock', async () => {
    const clock = new FakeClock('2026-12-10T09:00:00.000Z');
    const db = await workerDatabase('deadlines');
    const h1 = await gamesHarness({ clock, databaseUrl: db.url });
    const h2 = await gamesHarness({ clock, databaseUrl: db.url });
    try {
      const g = await startedGame(h1, { deadlineHours: 24 });
      await play(h1, g.gameId, g.alice, setupA);
      await play(h1, g.gameId, g.bob, setupB());
      // A must move by 2026-12-11T09:00; the reminder (12 h lead by default) is due at 21:00.
      clock.advance(13 * HOUR);
      const ticks = await Promise.all([h1.worker.tick(), h2.worker.tick(), h1.worker.tick(), h2.worker.tick()]);
      expect(ticks.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(1);
      clock.advance(12 * HOUR);
      await Promise.all([h1.worker.tick(), h2.worker.tick(), h1.worker.tick(), h2.worker.tick()]);
      await Promise.all([h1.worker.tick(), h2.worker.tick()]);
      const types = (await h1.store.readStream(g.gameId)).map((e) => e.type);
      expect(types.filter((t) => t === 'DeadlineReminded')).toHaveLength(1);
      expect(types.filter((t) => t === 'DeadlineMissed')).toHaveLength(1);
      const s = await h1.queries.summary(g.gameId, g.alice);
      expect(s.phase).toBe('a-attack');
      expect(s.deadlineAt).toBe('2026-12-12T10:00:00.000Z');

      // A goes on vacation: the deadline stops; days later nothing has expired.
      const onLeave = await h1.actions.startVacation(g.gameId, s.version, g.alice);
      expect(onLeave.phase.deadlineAt).toBeNull();
      clock.advance(5 * 24 * HOUR);
      await Promise.all([h1.worker.tick(), h2.worker.tick()]);
      expect((await h1.store.readStream(g.gameId)).filter((e) => e.type === 'DeadlineMissed')).toHaveLength(1);
      const back = await h1.actions.endVacation(g.gameId, onLeave.version, g.alice);
      expect(back.phase.deadlineAt).toBe(new Date(clock.now().getTime() + 24 * HOUR).toISOString());
    } finally {
      await h1.close();
      await h2.close();
      await db.drop();
    }
  });

  it('forfeits a side that keeps missing deadlines under the forfeit policy', async () => {
    const clock = new FakeClock('2026-12-20T09:00:00.000Z');
    const db = await workerDatabase('forfeit');
    const h = await gamesHarness({ clock, databaseUrl: db.url });
    try {
      const g = await startedGame(h, { deadlineHours: 2, reactionHours: 1, timeout: { kind: 'forfeit', forfeitAfter: 1 } });
      await play(h, g.gameId, g.alice, setupA);
      clock.advance(3 * HOUR);
      while ((await h.worker.tick()) > 0);
      const s = await h.queries.summary(g.gameId, g.alice);
      expect(s.status).toBe('finished');
      expect(s.result).toEqual({ winner: 'A', reason: 'Side B missed its deadline.' });
      expect(s.seed).toMatch(/^[0-9a-f]{64}$/);
    } finally {
      await h.close();
      await db.drop();
    }
  });
});
