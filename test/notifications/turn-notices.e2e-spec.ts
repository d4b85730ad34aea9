import { PrismaService } from '../../src/database/prisma.service';
import { PlayerActionsHandler } from '../../src/games/commands/player-actions.handler';
import { NotificationsService } from '../../src/notifications/preferences/notifications.service';
import { DeadlineWorker } from '../../src/games/scheduler/deadline-worker';
import { NotificationWorker } from '../../src/notifications/worker/notification-worker';
import { DeliveryRepository } from '../../src/notifications/worker/delivery.repository';
import type { NotificationContent, NotificationKind } from '../../src/notifications/notification-intent';
import { renderEmail } from '../../src/notifications/templates/email.template';
import { headline } from '../../src/notifications/templates/text';
import { apiApp, ApiApp } from '../api/support/api-app';
import { serviceGame } from '../api/support/service-game';
import { FakeClock } from '../support/games-harness';
import { setupA, setupB } from '../support/kernel-game';
import { webhookEndpoint } from './support/fixtures';

/**
 * Each player hears of a turn once: a vacation's paused or restarted clock is no new turn; a
 * resignation says so; after a missed deadline the side whose turn begins hears "your turn".
 */
describe('turn notices', () => {
  let app: ApiApp;
  beforeAll(async () => {
    app = await apiApp();
  });
  afterAll(async () => {
    await app.close();
  });
  const kinds = (gameId: string, playerId: string) =>
    app.running.app.get(PrismaService).notification.findMany({ where: { gameId, playerId }, orderBy: { gameVersion: 'asc' } });

  it('does not tell a player "it is your turn" again when they go on vacation', async () => {
    const g = await serviceGame(app, { vacationDays: 3 });
    await g.submit(g.alice, setupA);
    await g.submit(g.bob, setupB());
    const before = (await kinds(g.gameId, g.alice)).map((n) => n.kind);
    expect(before).toEqual(['game_started', 'your_turn']); // told once that it is A's move
    // Alice, whose turn it is, pauses her clock: she is told nothing new.
    await g.nest.get(PlayerActionsHandler).startVacation(g.gameId, await g.store.currentVersion(g.gameId), g.alice);
    expect((await kinds(g.gameId, g.alice)).map((n) => n.kind)).toEqual(before);
  });

  it('does not tell the side that already set up "your turn" when the other goes on vacation', async () => {
    const g = await serviceGame(app, { vacationDays: 3 });
    await g.submit(g.bob, setupB());
    expect((await kinds(g.gameId, g.bob)).map((n) => n.kind)).toEqual(['game_started']);
    await g.nest.get(PlayerActionsHandler).startVacation(g.gameId, await g.store.currentVersion(g.gameId), g.alice);
    const rows = await kinds(g.gameId, g.bob);
    expect(rows.map((n) => [n.kind, (n.content as { yourTurn: boolean }).yourTurn])).toEqual([['game_started', true]]);
  });

  it('says the clock is paused, not "Deadline: none", for a turn that starts while its player is on vacation', async () => {
    const g = await serviceGame(app, { vacationDays: 3, deadlineHours: 24 });
    await g.submit(g.alice, setupA);
    // Done with setup, Alice goes away; her turn begins while she is.
    await g.nest.get(PlayerActionsHandler).startVacation(g.gameId, await g.store.currentVersion(g.gameId), g.alice);
    await g.submit(g.bob, setupB());
    const turn = (await kinds(g.gameId, g.alice)).pop()!;
    expect(turn).toMatchObject({ kind: 'your_turn', content: { deadlineAt: null } });
    const recipient = { playerId: g.alice, email: 'alice@players.test', displayName: 'Alice', timeZone: 'UTC' };
    const renderable = { kind: turn.kind as NotificationKind, notificationId: turn.id, gameId: g.gameId, side: 'A', gameVersion: turn.gameVersion!, createdAt: turn.createdAt.toISOString(), content: turn.content as unknown as NotificationContent };
    const mail = renderEmail(renderable, recipient, { deliveryId: 'd', messageIdDomain: 'fieldpost.test', unsubscribe: { game: 'https://fieldpost.test/u', all: 'https://fieldpost.test/u' } });
    expect(mail.text).toContain('Deadline: paused');
    expect(mail.text).not.toContain('Deadline: none');
  });

  it('tells the proposer of an undo the answer: a decline changes nothing else that would tell it', async () => {
    const told = new Map<boolean, NotificationContent>();
    for (const accept of [false, true]) {
      const g = await serviceGame(app);
      await g.submit(g.alice, setupA);
      await g.submit(g.bob, setupB());
      const moved = await g.submit(g.alice, [{ kind: 'move', unit: 'a-ship', path: ['0204'] }]); // A's attack phase is next
      const actions = g.nest.get(PlayerActionsHandler);
      await actions.proposeUndo(g.gameId, moved.version, g.alice);
      await actions.answerUndo(g.gameId, await g.store.currentVersion(g.gameId), g.bob, accept);
      const last = (await kinds(g.gameId, g.alice)).pop()!;
      expect(last.kind).toBe('undo_answered');
      told.set(accept, last.content as unknown as NotificationContent);
      // The one who answered hears nothing of its own answer.
      expect((await kinds(g.gameId, g.bob)).map((n) => n.kind)).toEqual(['game_started', 'undo_proposed']);
    }
    expect(told.get(false)).toMatchObject({ undoAccepted: false, yourTurn: true, phase: 'A Attack' });
    expect(headline('undo_answered', told.get(false)!)).toBe('Your opponent declined your undo.');
    // Accepted, the move is taken back: A is to move again.
    expect(told.get(true)).toMatchObject({ undoAccepted: true, yourTurn: true, phase: 'A Move' });
    expect(headline('undo_answered', told.get(true)!)).toBe('Your opponent accepted your undo: your last phase is taken back.');
  });

  // The other side may go on instead of answering; the proposal then lapses, which nothing else
  // told the proposer (its turn had not come).
  it('tells the proposer of an undo that the other side went on without answering it', async () => {
    const g = await serviceGame(app);
    await g.submit(g.alice, setupA);
    await g.submit(g.bob, setupB());
    await g.submit(g.alice, [{ kind: 'move', unit: 'a-ship', path: ['0204'] }]);
    const attacked = await g.submit(g.alice, []);
    expect(attacked.phase.acting).toEqual(['B']);
    const actions = g.nest.get(PlayerActionsHandler);
    await actions.proposeUndo(g.gameId, attacked.version, g.alice);
    const before = (await kinds(g.gameId, g.alice)).length;
    const went = await g.submit(g.bob, []);
    expect(went.phase.acting).toEqual(['B']);
    const told = (await kinds(g.gameId, g.alice)).slice(before);
    expect(told.map((n) => [n.kind, (n.content as { undoAccepted?: boolean; undoLapsed?: boolean }).undoLapsed])).toEqual([['undo_answered', true]]);
    expect(headline('undo_answered', told[0]!.content as unknown as NotificationContent)).toBe('Your undo lapsed: your opponent went on without answering it.');
    // The proposer who goes on himself is told nothing of his own proposal.
    const g2 = await serviceGame(app);
    await g2.submit(g2.alice, setupA);
    await g2.submit(g2.bob, setupB());
    const moved = await g2.submit(g2.alice, [{ kind: 'move', unit: 'a-ship', path: ['0204'] }]);
    await g2.nest.get(PlayerActionsHandler).proposeUndo(g2.gameId, moved.version, g2.alice);
    const count = (await kinds(g2.gameId, g2.alice)).length;
    await g2.submit(g2.alice, []);
    expect((await kinds(g2.gameId, g2.alice)).slice(count).map((n) => n.kind)).not.toContain('undo_answered');
  });

  it('tells the opponent of a resignation with an opponent_resigned notification, naming the turn the game ended in', async () => {
    const g = await serviceGame(app);
    await g.submit(g.alice, setupA);
    await g.submit(g.bob, setupB());
    await g.nest.get(PlayerActionsHandler).resign(g.gameId, await g.store.currentVersion(g.gameId), g.alice);
    const told = (await kinds(g.gameId, g.bob)).pop()!;
    expect(told.kind).toBe('opponent_resigned');
    expect(told.content).toMatchObject({ turn: 1, phase: 'Game Over' });
  });
});

describe('turn notices after a missed deadline', () => {
  it('the side whose turn it now is hears "your turn"; the side that missed hears of its miss', async () => {
    const clock = new FakeClock('2026-12-10T09:00:00.000Z');
    const app = await apiApp({}, { clock });
    try {
      const g = await serviceGame(app, { deadlineHours: 2 });
      await g.submit(g.alice, setupA);
      await g.submit(g.bob, setupB());
      await g.submit(g.alice, [{ kind: 'move', unit: 'a-ship', path: ['0204'] }]); // A's attack phase is next
      clock.advance(3 * 3_600_000);
      const worker = g.nest.get(DeadlineWorker);
      while ((await worker.tick()) > 0);
      const missed = (await g.store.readStream(g.gameId)).find((e) => e.type === 'DeadlineMissed')!;
      expect(missed.data).toEqual({ side: 'A' });
      const last = (player: string) => g.nest.get(PrismaService).notification.findFirst({ where: { gameId: g.gameId, playerId: player, gameVersion: { gte: missed.version } } });
      expect(await last(g.bob)).toMatchObject({ kind: 'your_turn', content: expect.objectContaining({ yourTurn: true, happened: expect.arrayContaining(['Deadline Missed: side A']) }) });
      // The notice says who missed: each side read the same "the deadline has passed" before.
      const miss = (await last(g.alice))!;
      expect(miss).toMatchObject({ kind: 'deadline_missed', content: expect.objectContaining({ missed: { sides: ['Blue (lands from the sea)'], you: true }, happened: expect.arrayContaining(['Deadline Missed: side A']) }) });
      expect(headline('deadline_missed', miss.content as unknown as NotificationContent)).toBe('You missed the deadline.');
      expect(headline('deadline_missed', { ...(miss.content as unknown as NotificationContent), missed: { sides: ['Blue (lands from the sea)'], you: false } })).toBe('Blue (lands from the sea) missed the deadline.');
    } finally {
      await app.close();
    }
  });
});

/**
 * A game on a fake clock whose players' webhook receiver is down, so that what is queued for them
 * waits for a retry (no worker sends here) and can be seen withdrawn or kept. Close `app` after.
 */
async function queuedGame(options: Record<string, unknown>) {
  const clock = new FakeClock('2026-12-10T09:00:00.000Z');
  const app = await apiApp({}, { clock });
  try {
    const g = await serviceGame(app, options);
    const prisma = g.nest.get(PrismaService);
    for (const player of [g.alice, g.bob]) await webhookEndpoint(prisma, player, 'http://127.0.0.1:9/hook');
    const worker = g.nest.get(DeadlineWorker);
    return {
      app,
      g,
      clock,
      prisma,
      /** Runs the deadline worker until nothing is due. */
      tick: async () => {
        while ((await worker.tick()) > 0);
      },
      /** The statuses of the deliveries of a player's reminders in this game. */
      reminders: async (playerId: string) =>
        (await prisma.notificationDelivery.findMany({ where: { notification: { gameId: g.gameId, playerId, kind: 'deadline_reminder' } } })).map((d) => d.status),
    };
  } catch (err) {
    await app.close();
    throw err;
  }
}

describe('a reminder not yet sent when the deadline it is about changes', () => {
  it('is withdrawn: a player who has moved is not told their deadline is approaching', async () => {
    const { app, g, clock, tick, reminders } = await queuedGame({ deadlineHours: 24 });
    try {
      await g.submit(g.alice, setupA);
      await g.submit(g.bob, setupB());
      clock.advance(13 * 3_600_000); // A's reminder (12 h before the deadline) is due
      await tick();
      expect(await reminders(g.alice)).toEqual(['pending']);

      await g.submit(g.alice, [{ kind: 'move', unit: 'a-ship', path: ['0204'] }]);
      expect(await reminders(g.alice)).toEqual(['cancelled']);
    } finally {
      await app.close();
    }
  });

  it('is kept when the other side only pauses the clock of a simultaneous phase (its deadline is still to come)', async () => {
    const { app, g, clock, tick, reminders } = await queuedGame({ deadlineHours: 24 });
    try {
      clock.advance(13 * 3_600_000); // both setups are due in 11 hours: both sides are reminded
      await tick();
      expect(await reminders(g.alice)).toEqual(['pending']);

      await g.nest.get(PlayerActionsHandler).startVacation(g.gameId, await g.store.currentVersion(g.gameId), g.bob);
      expect((await g.store.readStream(g.gameId)).pop()).toMatchObject({ type: 'DeadlineSet', data: { retimed: true, at: null } });
      expect(await reminders(g.alice)).toEqual(['pending']);
    } finally {
      await app.close();
    }
  });

  it('is withdrawn when the game ends after a vacation paused and restarted the clock it was about', async () => {
    const { app, g, clock, tick, reminders } = await queuedGame({ deadlineHours: 24, vacationDays: 3 });
    try {
      await g.submit(g.alice, setupA);
      await g.submit(g.bob, setupB());
      clock.advance(13 * 3_600_000);
      await tick();
      expect(await reminders(g.alice)).toEqual(['pending']);

      const actions = g.nest.get(PlayerActionsHandler);
      await actions.startVacation(g.gameId, await g.store.currentVersion(g.gameId), g.alice);
      clock.advance(3_600_000);
      await actions.endVacation(g.gameId, await g.store.currentVersion(g.gameId), g.alice);
      expect((await g.store.readStream(g.gameId)).pop()).toMatchObject({ type: 'DeadlineSet', data: { retimed: true } });
      await actions.resign(g.gameId, await g.store.currentVersion(g.gameId), g.alice);
      expect(await reminders(g.alice)).toEqual(['cancelled']);
    } finally {
      await app.close();
    }
  });
});

describe('a reminder not yet sent when its side sends its part of a simultaneous phase', () => {
  it('is withdrawn for that side, whose deadline no longer binds it; the side still to act keeps its own', async () => {
    const { app, g, clock, tick, reminders } = await queuedGame({ deadlineHours: 24 });
    try {
      clock.advance(13 * 3_600_000); // both setups are due in 11 hours: both sides are reminded
      await tick();
      expect([await reminders(g.alice), await reminders(g.bob)]).toEqual([['pending'], ['pending']]);

      const sealed = await g.submit(g.alice, setupA);
      expect(sealed.phase.acting).toEqual(['B']);
      expect(sealed.events.map((e) => e.type)).not.toContain('DeadlineSet'); // the same deadline runs on for B
      expect([await reminders(g.alice), await reminders(g.bob)]).toEqual([['cancelled'], ['pending']]);
    } finally {
      await app.close();
    }
  });
});

describe('an undo proposal dropped before its notice went out', () => {
  it('withdraws the notice: the opponent is not asked to answer a proposal that is gone', async () => {
    const { app, g, clock, prisma, tick } = await queuedGame({ deadlineHours: 24 });
    try {
      await g.submit(g.alice, setupA);
      await g.submit(g.bob, setupB());
      const moved = await g.submit(g.alice, [{ kind: 'move', unit: 'a-ship', path: ['0204'] }]); // A's attack phase is next
      await g.nest.get(PlayerActionsHandler).proposeUndo(g.gameId, moved.version, g.alice);
      clock.advance(13 * 3_600_000); // A is reminded of its attack phase
      await tick();
      const queued = async () =>
        (await prisma.notificationDelivery.findMany({ where: { notification: { gameId: g.gameId, kind: { in: ['undo_proposed', 'deadline_reminder'] } } }, include: { notification: true } }))
          .map((d) => `${d.notification.kind}:${d.status}`)
          .sort();
      expect(await queued()).toEqual(['deadline_reminder:pending', 'undo_proposed:pending']);

      clock.advance(12 * 3_600_000); // A lets its attack phase pass: the scheduler's pass drops the proposal
      await tick();
      expect((await g.store.readStream(g.gameId)).some((e) => e.type === 'PhaseSubmitted' && (e.data as { auto?: boolean }).auto)).toBe(true);
      expect(await queued()).toEqual(['deadline_reminder:cancelled', 'undo_proposed:cancelled']);
    } finally {
      await app.close();
    }
  });
});

describe('calls to act not yet sent when the game ends', () => {
  it('are withdrawn: after a resignation or a forfeit nobody is told it is their turn; the end itself is told', async () => {
    const clock = new FakeClock('2026-12-10T09:00:00.000Z');
    // Mail on (nothing is sent: no worker runs), so that a turn mail can wait for a digest.
    const app = await apiApp({ SMTP_HOST: '127.0.0.1', SMTP_PORT: '9', NOTIFY_DIGEST_HOUR: '18' }, { clock });
    try {
      const resigned = await serviceGame(app, { deadlineHours: 24 });
      const forfeited = await serviceGame(app, { deadlineHours: 24, timeout: { kind: 'forfeit', forfeitAfter: 1 } });
      const prisma = resigned.nest.get(PrismaService);
      await resigned.nest.get(NotificationsService).setPreferences(resigned.alice, { digest: true });
      for (const g of [resigned, forfeited]) {
        // The receivers are down: what is queued for them waits for a retry (no worker sends here).
        await webhookEndpoint(prisma, g.alice, 'http://127.0.0.1:9/hook');
        await webhookEndpoint(prisma, g.bob, 'http://127.0.0.1:9/hook');
        await g.submit(g.alice, setupA);
        await g.submit(g.bob, setupB());
      }
      const queued = async (gameId: string) =>
        (await prisma.notificationDelivery.findMany({ where: { notification: { gameId } }, include: { notification: true }, orderBy: { createdAt: 'asc' } }))
          .map((d) => `${d.notification.kind}:${d.channel}:${d.status}`)
          .sort();
      expect(await queued(resigned.gameId)).toEqual(expect.arrayContaining(['your_turn:email:held', 'your_turn:webhook:pending'])); // A's move

      await resigned.nest.get(PlayerActionsHandler).resign(resigned.gameId, await resigned.store.currentVersion(resigned.gameId), resigned.bob);
      clock.advance(25 * 3_600_000); // A misses its move, which under this game's policy forfeits it
      const worker = resigned.nest.get(DeadlineWorker);
      while ((await worker.tick()) > 0);
      expect((await forfeited.store.readStream(forfeited.gameId)).some((e) => e.type === 'GameEnded')).toBe(true);

      // The end, as each player is told it, still goes out.
      // A's turn, still queued (mail held for Alice's digest, a webhook on a receiver that is down), is withdrawn; the end goes out.
      // So is the start of play, never sent: it too asked the players to act.
      const told = ['game_started:email:cancelled', 'game_started:email:cancelled', 'your_turn:email:cancelled', 'your_turn:webhook:cancelled'];
      expect(await queued(resigned.gameId)).toEqual(
        [...told, 'game_ended:email:pending', 'game_ended:webhook:pending', 'opponent_resigned:email:held', 'opponent_resigned:webhook:pending'].sort(),
      );
      expect(await queued(forfeited.gameId)).toEqual([...told, 'game_ended:email:pending', 'game_ended:email:pending', 'game_ended:webhook:pending', 'game_ended:webhook:pending'].sort());
    } finally {
      await app.close();
    }
  });
});

describe('a call to act still waiting to go out when its side has acted', () => {
  it('is cancelled by the worker instead of telling the player to act on a turn already played; the side now to act is told', async () => {
    const { app, g, prisma } = await queuedGame({ deadlineHours: 24 });
    try {
      await g.submit(g.alice, setupA);
      await g.submit(g.bob, setupB());
      // A moves and attacks before any worker has sent A's "your turn" (held by quiet hours, a
      // receiver that was down, or a busy worker): then it is B's turn.
      await g.submit(g.alice, [{ kind: 'move', unit: 'a-ship', path: ['0204'] }]);
      const attacked = await g.submit(g.alice, []);
      expect(attacked.phase.acting).toEqual(['B']);
      await g.nest.get(NotificationWorker).drain();
      const turns = async (playerId: string) =>
        (await prisma.notificationDelivery.findMany({ where: { notification: { gameId: g.gameId, playerId, kind: 'your_turn' } }, include: { notification: true } }))
          .filter((d) => (d.notification.content as { yourTurn: boolean }).yourTurn)
          .map((d) => ({ status: d.status, attempts: d.attempts, lastError: d.lastError }));
      const aliceTurns = await turns(g.alice);
      expect(aliceTurns.length).toBeGreaterThan(0);
      expect(aliceTurns).toEqual(aliceTurns.map(() => ({ status: 'cancelled', attempts: 1, lastError: 'the game went on: that side no longer acts' })));
      // B's turn is current: it was tried (and failed, on a receiver that is down).
      const bobTurns = await turns(g.bob);
      expect(bobTurns).toEqual([{ status: expect.any(String), attempts: 1, lastError: expect.any(String) }]);
      expect(bobTurns[0]!.status).not.toBe('cancelled');
      expect(bobTurns[0]!.lastError).not.toMatch(/no longer acts/);
    } finally {
      await app.close();
    }
  });

  it('is cancelled when a later call to act for the same player supersedes it: the player hears of the phase that is theirs now', async () => {
    const { app, g, prisma } = await queuedGame({ deadlineHours: 24 });
    try {
      await g.submit(g.alice, setupA);
      await g.submit(g.bob, setupB());
      const moved = await g.submit(g.alice, [{ kind: 'move', unit: 'a-ship', path: ['0204'] }]);
      expect(moved.phase.acting).toEqual(['A']); // A's attack phase: A still acts
      await g.nest.get(NotificationWorker).drain();
      const alice = await prisma.notificationDelivery.findMany({ where: { notification: { gameId: g.gameId, playerId: g.alice, kind: 'your_turn' } }, include: { notification: true } });
      const told = alice.sort((a, b) => a.notification.gameVersion! - b.notification.gameVersion!).map((d) => [d.notification.content, d.status, d.lastError] as const);
      expect(told).toHaveLength(2);
      expect(told.map(([c]) => (c as { phase: string }).phase)).toEqual(['A Move', 'A Attack']);
      expect(told[0]!.slice(1)).toEqual(['cancelled', 'the game went on: a later notice tells the player of their turn']);
      expect(told[1]![1]).not.toBe('cancelled');
    } finally {
      await app.close();
    }
  });
});

describe('a digest of turns the player has played since', () => {
  /**
   * A game on a fake clock in which Alice takes her mail in a digest (mail on, but nothing is sent:
   * no worker runs), set up by both sides, so that her first turn's mail is held. Close `app` after.
   */
  async function digestGame() {
    const clock = new FakeClock('2026-12-10T09:00:00.000Z');
    const app = await apiApp({ SMTP_HOST: '127.0.0.1', SMTP_PORT: '9', NOTIFY_DIGEST_HOUR: '18' }, { clock });
    try {
      const g = await serviceGame(app, { deadlineHours: 72 });
      const prisma = g.nest.get(PrismaService);
      await g.nest.get(NotificationsService).setPreferences(g.alice, { digest: true });
      await g.submit(g.alice, setupA);
      await g.submit(g.bob, setupB());
      const held = await prisma.notificationDelivery.findFirstOrThrow({ where: { playerId: g.alice, status: 'held', notification: { gameId: g.gameId, kind: 'your_turn' } } });
      const items = () => g.nest.get(DeliveryRepository).heldFor(held.digestId!);
      expect((await items()).map((i) => [i.kind, i.movedOn])).toEqual([['your_turn', false]]);
      return { app, g, clock, prisma, items };
    } catch (err) {
      await app.close();
      throw err;
    }
  }

  it('marks the turns the game has gone on from, so the digest does not tell the player it is their turn', async () => {
    const { app, g, items } = await digestGame();
    try {
      await g.submit(g.alice, [{ kind: 'move', unit: 'a-ship', path: ['0204'] }]);
      await g.submit(g.alice, []);
      expect((await items()).map((i) => [i.kind, (i.content as { phase: string }).phase, i.movedOn])).toEqual([
        ['your_turn', 'A Move', true],
        ['your_turn', 'A Attack', true],
      ]);
    } finally {
      await app.close();
    }
  });

  it('does not mark a turn gone on when only the log has grown: a reminder sent leaves whose turn and the deadline as the notice gave them', async () => {
    const { app, g, clock, prisma, items } = await digestGame();
    try {
      const before = await prisma.game.findUniqueOrThrow({ where: { id: g.gameId } });
      clock.advance(61 * 3_600_000); // the reminder, 12 h before the 72 h deadline, is due
      const worker = g.nest.get(DeadlineWorker);
      while ((await worker.tick()) > 0);
      const after = await prisma.game.findUniqueOrThrow({ where: { id: g.gameId } });
      expect(after.version).toBeGreaterThan(before.version);
      expect([after.turn, after.phase, after.deadlineAt]).toEqual([before.turn, before.phase, before.deadlineAt]);
      expect((await items()).map((i) => [i.kind, i.movedOn])).toEqual([['your_turn', false]]);
    } finally {
      await app.close();
    }
  });
});
