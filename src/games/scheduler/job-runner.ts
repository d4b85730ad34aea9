import { Inject, Injectable } from '@nestjs/common';
import type { GameSystem, SideId } from '../../rules/engine/types';
import { endVacationDrafts } from '../commands/player-actions.handler';
import { diceDrafts } from '../commands/dice-drafts';
import { DICE_SOURCE, DiceSourceFactory } from '../dice/dice-source';
import { GameSecrets } from '../dice/game-secrets';
import { RecordingDice } from '../dice/server-dice';
import { CLOCK, Clock } from '../game-clock';
import { GameCommitter } from '../game-committer';
import { AppEvent, appDraft, Draft, GameEnvelope } from '../game-envelope';
import { foldGame } from '../game-fold';
import { deadlineFor, stillToAct } from '../game-followups';
import { GameLoader } from '../game-loader';
import { missedDeadlineEvents } from './missed-deadline';

export interface DueJob {
  id: string;
  gameId: string;
  kind: string;
  gameVersion: number;
  side: string | null;
}

/**
 * What a due job does to its game. A job that no longer applies (the deadline moved, the
 * player came back early, the game ended) does nothing. The commit carries the job's id as
 * its idempotency key, so even a job run twice changes the game once.
 */
@Injectable()
export class JobRunner {
  constructor(
    private readonly secrets: GameSecrets,
    private readonly loader: GameLoader,
    private readonly committer: GameCommitter,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(DICE_SOURCE) private readonly diceSource: DiceSourceFactory,
  ) {}

  /**
   * `early`: the job still stands but its time has not come (its row was moved, or an instance
   * with a clock ahead wrote it); cancelling it would leave the game with nothing to mark the
   * deadline, so the worker puts it back for `at`.
   */
  async run(job: DueJob): Promise<'applied' | 'moot' | { early: Date }> {
    const game = await this.loader.load(job.gameId);
    const { state, system, version } = game;
    if (state.status !== 'active') return 'moot';
    const now = this.clock.now();
    let drafts: Draft[] = [];
    if (job.kind === 'reminder') {
      const d = state.deadline;
      // A reminder for a deadline already past (the workers were down) is moot: the log then
      // reads the same whichever of the two overdue jobs a worker happens to run first.
      if (d?.id === job.gameVersion && d.at && new Date(d.at) > now && job.side && stillToAct(system, state, job.side)) drafts = [appDraft(AppEvent.DeadlineReminded, { side: job.side, deadlineAt: d.at })];
    } else if (job.kind === 'vacation') {
      const v = job.side ? state.vacation[job.side] : undefined;
      const allowance = state.options.vacationDays * 86_400_000;
      const ends = v?.since ? new Date(new Date(v.since).getTime() + allowance - v.usedMs) : null;
      if (job.side && ends && ends > now) return { early: ends };
      if (job.side && ends) drafts = endVacationDrafts(state, job.side, now);
    } else if (job.kind === 'deadline') {
      const d = state.deadline;
      if (d?.id === job.gameVersion && d.at && new Date(d.at) > now) return { early: new Date(d.at) };
      if (d?.id === job.gameVersion && d.at) drafts = await this.expire(system, state, d.sides);
    }
    if (!drafts.length) return 'moot';
    await this.committer.commit(system, state, version, drafts, { actor: 'system', correlationId: job.id, idempotencyKey: `job:${job.id}`, requestHash: job.id });
    return 'applied';
  }

  /**
   * A missed deadline: each late side is marked; the sides that have missed too often (any
   * late side, under the forfeit policy) lose, all at once, so a side that missed the same
   * deadline never wins by it; otherwise each passes. An expired reaction window never
   * forfeits: it applies the side's standing orders or no reaction. A pass the rules refuse (a
   * setup cannot be empty) restarts the clock instead.
   */
  private async expire(system: GameSystem, start: GameEnvelope, sides: SideId[]): Promise<Draft[]> {
    const dice = new RecordingDice(start.diceCounter, this.diceSource(await this.secrets.seedOf(start.id), start.id));
    const drafts: Draft[] = [];
    let state = start;
    const push = (ds: Draft[]) => {
      for (const d of ds) {
        drafts.push(d);
        state = foldGame(system, state, { type: d.type, data: d.data, version: 0, meta: { source: d.source } });
      }
    };
    const first = system.phase(start.rules);
    const late = first.mode === 'ended' ? [] : sides.filter((s) => first.acting.includes(s));
    const forfeits = first.mode === 'reaction' ? [] : late.filter((s) => losesBy(start, s));
    if (forfeits.length) {
      push([...late.map((side) => appDraft(AppEvent.DeadlineMissed, { side })), forfeited(start, forfeits)]);
      return drafts;
    }
    for (const side of sides) {
      const phase = system.phase(state.rules);
      if (phase.mode === 'ended' || !phase.acting.includes(side)) continue;
      if (phase.mode === 'reaction') push([appDraft(AppEvent.DeadlineMissed, { side, window: 'reaction' })]);
      else push([appDraft(AppEvent.DeadlineMissed, { side })]);
      const rolled = dice.rolls.length;
      const events = missedDeadlineEvents(system, state.rules, side, phase.mode, dice);
      if (!events) {
        push([deadlineFor(state, phase, this.clock.now())]);
        continue;
      }
      push([appDraft(AppEvent.PhaseSubmitted, { side, kind: phase.mode === 'reaction' ? 'reaction' : 'orders', auto: true }), ...diceDrafts(dice.rolls.slice(rolled)), ...events.map((e): Draft => ({ source: 'rules', ...e }))]);
    }
    return drafts;
  }
}

/** Whether one more missed phase makes the side lose: always under the forfeit policy, else at the limit in a row. */
function losesBy(state: GameEnvelope, side: SideId): boolean {
  const { kind, forfeitAfter } = state.options.timeout;
  return kind === 'forfeit' || (state.missed[side] ?? 0) + 1 >= forfeitAfter;
}

/** The end of a game some sides forfeited: the one side left wins; with none or several left, nobody does. */
function forfeited(state: GameEnvelope, out: SideId[]): Draft {
  const others = Object.keys(state.seats).filter((s) => !out.includes(s));
  const names = out.length === 1 ? `Side ${out[0]!} missed its deadline.` : `Sides ${out.slice(0, -1).join(', ')} and ${out[out.length - 1]!} missed their deadline.`;
  return appDraft(AppEvent.GameEnded, { winner: others.length === 1 ? others[0]! : null, reason: names });
}
