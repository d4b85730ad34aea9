import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { ConflictError } from '../../common/errors';
import { VersionConflictError } from '../../event-store/event-store.errors';
import { CLOCK, Clock } from '../game-clock';
import { GameCommitter } from '../game-committer';
import { AppEvent, appDraft, Draft, GameEnvelope } from '../game-envelope';
import { overdue, stillToAct } from '../game-followups';
import { GameLoader, LoadedGame } from '../game-loader';
import { deadlinePassed, gameFinished, gameNotStarted } from '../games.errors';
import { Outcome, outcomeFor } from '../outcome';
import { requireSide, sideOf } from '../seats';

/**
 * The things a seated player may do besides submitting orders: resign, propose or answer an
 * undo, and go on or come back from vacation. Each takes the version the player last saw.
 */
@Injectable()
export class PlayerActionsHandler {
  constructor(
    private readonly loader: GameLoader,
    private readonly committer: GameCommitter,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /**
   * Also while the game still waits for players: whoever holds a seat may withdraw it then, as
   * nobody may ever take the others, and so may an organiser without a seat, who holds the game
   * until it begins; nobody wins a game that never began.
   */
  resign(gameId: string, expectedVersion: number, playerId: string): Promise<Outcome> {
    return this.act<string | null>(
      gameId,
      expectedVersion,
      playerId,
      ({ state }, side) => {
        if (side === null) return [appDraft(AppEvent.GameEnded, { winner: null, reason: 'The organiser withdrew the game before it started.' })];
        if (state.status === 'seating') return [appDraft(AppEvent.Resigned, { side }), appDraft(AppEvent.GameEnded, { winner: null, reason: `Side ${side} withdrew before the game started.` })];
        const others = Object.keys(state.seats).filter((s) => s !== side);
        return [
          appDraft(AppEvent.Resigned, { side }),
          appDraft(AppEvent.GameEnded, { winner: others.length === 1 ? others[0]! : null, reason: `Side ${side} resigned.` }),
        ];
      },
      { whileSeating: true },
    );
  }

  proposeUndo(gameId: string, expectedVersion: number, playerId: string): Promise<Outcome> {
    return this.act(gameId, expectedVersion, playerId, ({ state }, side) => {
      const last = state.lastSubmission;
      if (state.pendingUndo) throw new ConflictError('undo/pending', 'An undo is already waiting for an answer.');
      if (!last || last.side !== side) throw new ConflictError('undo/nothing', 'Your side has no submitted phase to take back (or the other side has acted since).');
      if (!last.undoable) throw new ConflictError('undo/not_allowed', 'That phase rolled dice or revealed hidden information, so it cannot be taken back.');
      if (last.declined) throw new ConflictError('undo/declined', 'The other side declined to take that phase back; it cannot be proposed again.');
      return [appDraft(AppEvent.UndoProposed, { side, phaseVersion: last.fromVersion })];
    });
  }

  answerUndo(gameId: string, expectedVersion: number, playerId: string, accept: boolean): Promise<Outcome> {
    return this.act(gameId, expectedVersion, playerId, (game, side) => {
      const { state } = game;
      if (!state.pendingUndo) throw new ConflictError('undo/none', 'No undo is waiting for an answer.');
      if (state.pendingUndo.proposedBy === side) throw new ConflictError('undo/own', 'The other side must answer your undo proposal.');
      const last = state.lastSubmission;
      // Anything submitted since the proposal drops it (game-fold.ts); this guards the rest.
      if (accept && (!last || last.side !== state.pendingUndo.proposedBy || !last.undoable)) {
        throw new ConflictError('undo/not_allowed', 'That phase can no longer be taken back.');
      }
      // The proposer's phase comes back with a new deadline, which would cancel a miss already due.
      if (accept) refuseIfOverdue(game, side, this.clock.now());
      return [appDraft(accept ? AppEvent.UndoAccepted : AppEvent.UndoDeclined, { side, restores: accept ? last!.fromVersion - 1 : null })];
    });
  }

  startVacation(gameId: string, expectedVersion: number, playerId: string): Promise<Outcome> {
    return this.act(gameId, expectedVersion, playerId, (game, side) => {
      const v = game.state.vacation[side]!;
      if (v.since) throw new ConflictError('vacation/active', 'You are already on vacation in this game.');
      if (game.state.options.vacationDays === 0) throw new ConflictError('vacation/used_up', 'This game allows no vacation (vacationDays 0).');
      if (v.usedMs >= game.state.options.vacationDays * 86_400_000) throw new ConflictError('vacation/used_up', 'You have used all your vacation days in this game.');
      const now = this.clock.now();
      if (overdue(game.system, game.state, side, now)) throw new ConflictError('vacation/too_late', 'Your deadline has already passed: a vacation cannot pause it.');
      const drafts: Draft[] = [appDraft(AppEvent.VacationStarted, { side })];
      const d = game.state.deadline;
      if (d?.at && stillToAct(game.system, game.state, side)) {
        const remainingMs = new Date(d.at).getTime() - now.getTime();
        drafts.push(appDraft(AppEvent.DeadlineSet, { retimed: true, sides: d.sides, at: null, remainingMs }));
      }
      return drafts;
    });
  }

  endVacation(gameId: string, expectedVersion: number, playerId: string): Promise<Outcome> {
    return this.act(gameId, expectedVersion, playerId, (game, side) => {
      if (!game.state.vacation[side]?.since) throw new ConflictError('vacation/none', 'You are not on vacation in this game.');
      return endVacationDrafts(game.state, side, this.clock.now());
    });
  }

  /**
   * `whileSeating`: the action is open before the game begins too, then also to its organiser
   * without a seat (`decide` gets side null; only resigning allows it).
   */
  private async act<S extends string | null = string>(
    gameId: string,
    expectedVersion: number,
    playerId: string,
    decide: (game: LoadedGame, side: S) => Draft[],
    opts: { whileSeating?: boolean } = {},
  ): Promise<Outcome> {
    const game = await this.loader.loadFor(gameId, playerId);
    const { state } = game;
    const organiser = !!opts.whileSeating && state.status === 'seating' && state.createdBy === playerId && !sideOf(state, playerId);
    const side = organiser ? null : requireSide(state, playerId);
    if (state.status === 'finished') throw gameFinished(gameId);
    if (state.status === 'seating' && !opts.whileSeating) throw gameNotStarted(gameId);
    if (game.version !== expectedVersion) throw new VersionConflictError(gameId, expectedVersion, game.version);
    const done = await this.committer.commit(game.system, state, game.version, decide(game, side as S), { actor: playerId, correlationId: randomUUID() });
    // The game is over for the organiser who called it off: they read it whole, as anyone may who looks at it.
    return outcomeFor(game.system, done.state, done.events, side === null ? { kind: 'referee' } : { kind: 'side', side }, done.fromVersion, done.toVersion);
  }
}

/**
 * Ends a vacation. Shared with the scheduler. The clock restarts with the time that was left
 * once no side still to act is away: the committer's follow-ups see to that, as for any command.
 */
export function endVacationDrafts(state: GameEnvelope, side: string, now: Date): Draft[] {
  const v = state.vacation[side]!;
  const since = new Date(v.since!).getTime();
  // It ends when the allowance ran out, if that was before now (the job ran late, after an
  // outage): the pause never lasts longer than the days the player had left.
  const endsAt = Math.max(since, Math.min(now.getTime(), since + state.options.vacationDays * 86_400_000 - v.usedMs));
  const usedMs = v.usedMs + (endsAt - since);
  return [appDraft(AppEvent.VacationEnded, { side, usedMs, ...(endsAt < now.getTime() ? { endedAt: new Date(endsAt).toISOString() } : {}) })];
}

/** Refuses while a side's deadline has passed and its miss is still to be applied (see overdue). */
function refuseIfOverdue({ system, state }: LoadedGame, side: string, now: Date): void {
  for (const s of Object.keys(state.seats)) {
    const at = overdue(system, state, s, now);
    if (at === null) continue;
    if (s === side) throw deadlinePassed(at, system.phase(state.rules).mode === 'reaction');
    throw new ConflictError('game/deadline_passed', `Side ${s}'s deadline passed at ${at}: the game's timeout policy applies first, and taking its phase back now would cancel that.`, { deadlineAt: at });
  }
}
