import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { BadInputError, ConflictError, NotFoundError } from '../../common/errors';
import { VersionConflictError } from '../../event-store/event-store.errors';
import { PrismaService, Tx } from '../../database/prisma.service';
import { CLOCK, Clock, ID_GENERATOR, IdGenerator } from '../game-clock';
import { GameCommitter } from '../game-committer';
import { AppEvent, appDraft, Draft, GameEnvelope } from '../game-envelope';
import { GameLoader } from '../game-loader';
import { gameFinished } from '../games.errors';
import { requireSide, sideOf } from '../seats';

export interface CreatedInvitation {
  invitationId: string;
  gameId: string;
  side: string;
  kind: 'token' | 'open';
  /** Shown once, for a token invitation: whoever presents it takes the seat. */
  token: string | null;
  expiresAt: string | null;
}

const hash = (token: string) => createHash('sha256').update(token).digest('hex');

/** A join lost to other seats claimed at once is tried again, this many times in all. */
const JOIN_ATTEMPTS = 5;

/** An open challenge, with what a stranger may know of its game before taking the seat. */
export interface OpenChallengeRow {
  invitationId: string;
  gameId: string;
  side: string;
  createdAt: Date;
  expiresAt: Date | null;
  title: string;
  scenarioId: string;
  organiserName: string;
  deadlineHours: number;
}

/** Invitations of one game still open at once: the public list of open challenges is not a billboard. */
const MAX_OPEN_INVITATIONS = 20;

/** An invitation that can still seat someone at `now`: unused, and not expired or withdrawn. */
const stillOpen = (now: Date) => ({ usedAt: null, OR: [{ expiresAt: null }, { expiresAt: { gt: now } }] });

/** Unused, but for a seat filled otherwise, or in a game that has ended: it can seat nobody. */
const seatsNobody = (state: Pick<GameEnvelope, 'status' | 'seats'>, side: string) => state.status === 'finished' || Boolean(state.seats[side]);

/** An invitation as whoever may invite to its game sees it (never its token, stored only hashed). */
export interface InvitationRecord {
  invitationId: string;
  gameId: string;
  side: string;
  kind: 'token' | 'open';
  createdAt: Date;
  expiresAt: Date | null;
  usedAt: Date | null;
  /** open: it can still seat someone; used: it seated someone; ended: it expired or was withdrawn, or its seat was filled otherwise or its game ended (in the list). */
  status: 'open' | 'used' | 'ended';
}

/** Invitations into a seat (single-use tokens and open challenges) and claiming a seat with one. */
@Injectable()
export class InvitationsHandler {
  constructor(
    private readonly prisma: PrismaService,
    private readonly loader: GameLoader,
    private readonly committer: GameCommitter,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
  ) {}

  async invite(gameId: string, side: string, kind: 'token' | 'open', playerId: string, expiresInHours = 24 * 14): Promise<CreatedInvitation> {
    const state = await this.inviterOf(gameId, playerId);
    if (state.status === 'finished') throw gameFinished(gameId);
    if (!Object.hasOwn(state.seats, side)) throw new BadInputError('game/unknown_side', `Game ${gameId} has no side "${side}"; its sides are ${Object.keys(state.seats).join(', ')}.`, { field: 'side' });
    if (state.seats[side]) throw new ConflictError('invitation/seat_taken', `Side ${side} of game ${gameId} is already taken.`);
    // Whole hours, as GraphQL's Int has them: REST took 0.001 (an invitation gone in 4 seconds).
    if (!(Number.isInteger(expiresInHours) && expiresInHours >= 1 && expiresInHours <= 24 * 90)) {
      throw new BadInputError('invitation/bad_expiry', 'expiresInHours is a whole number of hours from 1 to 2160.', { field: 'expiresInHours' });
    }
    const token = kind === 'token' ? `inv_${randomBytes(24).toString('base64url')}` : null;
    const id = this.ids.next('inv');
    // One reading for both: createdAt left to the database came a moment after expiresAt's.
    const createdAt = this.clock.now();
    const expiresAt = new Date(createdAt.getTime() + expiresInHours * 3_600_000);
    await this.prisma.$transaction(async (tx) => {
      // Invitations sent at once each counted before the others had written theirs: 19 open and
      // 20 at once made 21.
      await lockGameRow(tx, gameId);
      // Only invitations for free seats: one for a seat another invitation filled seats nobody.
      const freeSides = Object.keys(state.seats).filter((s) => !state.seats[s]);
      const open = await tx.invitation.count({ where: { gameId, side: { in: freeSides }, ...stillOpen(this.clock.now()) } });
      if (open >= MAX_OPEN_INVITATIONS) throw new ConflictError('invitation/too_many', `Game ${gameId} has ${open} invitations still open, the most it may; withdraw one first.`);
      await tx.invitation.create({
        data: { id, gameId, side, kind, tokenHash: token ? hash(token) : null, createdBy: playerId, createdAt, expiresAt },
      });
    });
    return { invitationId: id, gameId, side, kind, token, expiresAt: expiresAt.toISOString() };
  }

  /**
   * A page of the game's invitations, newest first (ties by id), for whoever may invite to it: to
   * see what is still out, and withdraw it. `after` is the last invitation of the page before.
   */
  async list(gameId: string, playerId: string, limit: number, after?: { createdAt: Date; id: string }): Promise<{ items: InvitationRecord[]; hasMore: boolean }> {
    const state = await this.inviterOf(gameId, playerId);
    const older = after ? { OR: [{ createdAt: { lt: after.createdAt } }, { createdAt: after.createdAt, id: { lt: after.id } }] } : {};
    const rows = await this.prisma.invitation.findMany({ where: { gameId, ...older }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], take: limit + 1 });
    return { items: rows.slice(0, limit).map((r) => this.record(r, seatsNobody(state, r.side))), hasMore: rows.length > limit };
  }

  /**
   * Ends an invitation at once (a token sent to the wrong person, a challenge no longer meant):
   * joining with it is then refused as expired. Withdrawing one already ended changes nothing.
   */
  async withdraw(gameId: string, invitationId: string, playerId: string): Promise<InvitationRecord> {
    const state = await this.inviterOf(gameId, playerId);
    const now = this.clock.now();
    const row = await this.prisma.invitation.findFirst({ where: { id: invitationId, gameId } });
    if (!row) throw new NotFoundError('invitation/not_found', `Game ${gameId} has no invitation ${invitationId}.`);
    // Ended already though unused and unexpired: moving its expiresAt to now rewrote when it ended.
    const dead = seatsNobody(state, row.side);
    if (!dead) await this.prisma.invitation.updateMany({ where: { id: invitationId, gameId, ...stillOpen(now) }, data: { expiresAt: now } });
    const after = dead ? row : await this.prisma.invitation.findFirstOrThrow({ where: { id: invitationId, gameId } });
    if (after.usedAt) throw new ConflictError('invitation/used', 'That invitation has been used: its seat is taken.');
    return this.record(after, dead);
  }

  /** The game, when the player may invite to it: its organiser, or a seated player. */
  private async inviterOf(gameId: string, playerId: string) {
    const { state } = await this.loader.loadFor(gameId, playerId);
    // A spectator sees the game: NOT_FOUND told them it was not there.
    if (state.createdBy !== playerId) requireSide(state, playerId);
    return state;
  }

  private record(r: { id: string; gameId: string; side: string; kind: string; createdAt: Date; expiresAt: Date | null; usedAt: Date | null }, dead = false): InvitationRecord {
    const status = r.usedAt ? 'used' : dead || (r.expiresAt && r.expiresAt <= this.clock.now()) ? 'ended' : 'open';
    return { invitationId: r.id, gameId: r.gameId, side: r.side, kind: r.kind as 'token' | 'open', createdAt: r.createdAt, expiresAt: r.expiresAt, usedAt: r.usedAt, status };
  }

  /**
   * Open challenges anyone may accept, newest first (ties by id): unused, unexpired, for a seat still
   * open in a game not ended. `after` is the last challenge of the page before.
   */
  async openChallenges(limit: number, after?: { createdAt: Date; id: string }): Promise<OpenChallengeRow[]> {
    // What the game is comes along: a game without spectators shows a stranger nothing else, and
    // nobody takes a seat in a game they know nothing of.
    const rows = await this.prisma.$queryRaw<Array<{ id: string; game_id: string; side: string; created_at: Date; expires_at: Date | null; title: string; scenario_id: string; organiser: string; deadline_hours: number }>>`
      SELECT i.id, i.game_id, i.side, i.created_at, i.expires_at, g.title, g.scenario_id, o.display_name AS organiser, (g.options->>'deadlineHours')::int AS deadline_hours
      FROM invitations i
      JOIN seats s ON s.game_id = i.game_id AND s.side = i.side AND s.player_id IS NULL
      JOIN games g ON g.id = i.game_id AND g.status <> 'finished'
      JOIN players o ON o.id = g.created_by
      WHERE i.kind = 'open' AND i.used_at IS NULL
        AND (i.expires_at IS NULL OR i.expires_at > ${this.clock.now()})
        AND (${after?.id ?? null}::text IS NULL OR (i.created_at, i.id) < (${after?.createdAt ?? null}::timestamptz, ${after?.id ?? null}::text))
      ORDER BY i.created_at DESC, i.id DESC
      LIMIT ${limit}`;
    return rows.map((r) => ({ invitationId: r.id, gameId: r.game_id, side: r.side, createdAt: r.created_at, expiresAt: r.expires_at, title: r.title, scenarioId: r.scenario_id, organiserName: r.organiser, deadlineHours: r.deadline_hours }));
  }

  /** Claims the seat of a token invitation (`token`) or an open challenge (`invitationId`). */
  async join(by: { token: string } | { invitationId: string }, playerId: string): Promise<{ gameId: string; side: string; version: number; started: boolean }> {
    // The client sends no version: a join that lost the race for the game's next one (another
    // seat was claimed meanwhile) is checked again, and then refused for what it meets, such as a
    // seat just taken, rather than with a conflict over a version the client never saw.
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.joinOnce(by, playerId);
      } catch (err) {
        if (!(err instanceof VersionConflictError) || attempt >= JOIN_ATTEMPTS) throw err;
      }
    }
  }

  private async joinOnce(by: { token: string } | { invitationId: string }, playerId: string): Promise<{ gameId: string; side: string; version: number; started: boolean }> {
    const invitation =
      'token' in by
        ? await this.prisma.invitation.findUnique({ where: { tokenHash: hash(by.token) } })
        : await this.prisma.invitation.findFirst({ where: { id: by.invitationId, kind: 'open' } });
    const now = this.clock.now();
    if (!invitation) throw new NotFoundError('invitation/not_found', 'That invitation does not exist.');
    if (invitation.usedAt) throw new ConflictError('invitation/used', 'That invitation has already been used.');
    if (invitation.expiresAt && invitation.expiresAt <= now) throw new ConflictError('invitation/expired', 'That invitation has expired.');
    // A token seats whoever holds it, its maker too: that is how an organiser who took no side
    // sits down later. A public challenge accepted by its maker is a misclick, not a choice.
    if (invitation.kind === 'open' && invitation.createdBy === playerId) throw new ConflictError('invitation/own', 'You made that open challenge; it is for another player to accept.');
    // Not loaded for the joiner: an invitation still open is their way into the game, so they may
    // learn that it cannot be played now (its system is missing) as they may learn a seat is taken.
    const { state, version, system } = await this.loader.load(invitation.gameId);
    if (state.status === 'finished') throw gameFinished(state.id);
    if (state.seats[invitation.side]) throw new ConflictError('invitation/seat_taken', `Side ${invitation.side} is already taken.`);
    if (sideOf(state, playerId)) throw new ConflictError('game/already_seated', `You already hold a seat in game ${state.id}.`);

    const drafts: Draft[] = [appDraft(AppEvent.SeatClaimed, { side: invitation.side, playerId })];
    const full = Object.entries(state.seats).every(([s, p]) => p || s === invitation.side);
    if (full && state.status === 'seating') drafts.push(appDraft(AppEvent.GameBegan, {}));
    const done = await this.committer.commit(system, state, version, drafts, {
      actor: playerId,
      correlationId: randomUUID(),
      inTransaction: async (tx) => {
        // Claimed only as it was read and checked above. A withdrawal moves expiresAt to its own
        // time, later than this join's `now`: compared with `now` it still looked open, and a
        // token withdrawn as "ended" seated its bearer all the same. The row lock this update
        // takes makes a withdrawal arriving after it wait and then find the invitation used.
        const used = await tx.invitation.updateMany({
          where: { id: invitation.id, usedAt: null, expiresAt: invitation.expiresAt },
          data: { usedAt: now, usedBy: playerId },
        });
        if (used.count === 1) return;
        const meanwhile = await tx.invitation.findUnique({ where: { id: invitation.id }, select: { usedAt: true } });
        if (meanwhile?.usedAt) throw new ConflictError('invitation/used', 'That invitation has already been used.');
        throw new ConflictError('invitation/expired', 'That invitation has expired.');
      },
    });
    return { gameId: state.id, side: invitation.side, version: done.toVersion, started: drafts.length > 1 };
  }
}

/**
 * Holds the game's row until the transaction ends, so that invitations to one game are counted
 * and written one at a time. NO KEY: rows that merely refer to the game are not held up.
 */
async function lockGameRow(tx: Tx, gameId: string): Promise<void> {
  await tx.$queryRaw`SELECT 1 FROM games WHERE id = ${gameId} FOR NO KEY UPDATE`;
}
