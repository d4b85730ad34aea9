import type { KernelEventData } from '../rules/engine/events';
import type { GameSystem, PhaseInfo } from '../rules/engine/types';
import { AppEvent, appDraft, Draft, GameEnvelope, phaseKey } from './game-envelope';

const HOUR = 3_600_000;
const REACTION_REQUESTED: keyof KernelEventData = 'ReactionRequested';

/**
 * What the application appends on its own after any decision (`drafts`): the end of the game
 * once the rules say so, and a new deadline whenever the sides that must act change or a new
 * reaction window opens. One place, so that
 * every command (submit, expiry, undo, resignation) keeps deadlines and endings right.
 */
export function followUps(system: GameSystem, before: GameEnvelope | undefined, after: GameEnvelope, now: Date, drafts: readonly Draft[]): Draft[] {
  if (after.status === 'finished') {
    return before?.status === 'finished' || after.seed ? [] : [seedRevealed()];
  }
  if (after.status !== 'active') return [];
  const phase = system.phase(after.rules);
  if (phase.mode === 'ended') {
    const result = phase.result ?? { winner: null, reason: 'The rules ended the game.' };
    return [appDraft(AppEvent.GameEnded, result), seedRevealed()];
  }
  const was = before?.status === 'active' ? system.phase(before.rules) : null;
  // A window opened by these events is new even when it asks the same side as the one it followed.
  const newWindow = phase.mode === 'reaction' && drafts.some((d) => d.source === 'rules' && d.type === REACTION_REQUESTED);
  if (was && after.deadline && !newWindow && (phaseKey(was) === phaseKey(phase) || stillWaiting(was, phase))) return resumed(after, phase, restartAt(drafts) ?? now);
  return [deadlineFor(after, phase, now)];
}

/**
 * A clock paused for a vacation runs again, with the time it had left, once no side still to
 * act is away: the player came back, or the one away has submitted its part of a simultaneous
 * phase.
 */
function resumed(state: GameEnvelope, phase: PhaseInfo, now: Date): Draft[] {
  const d = state.deadline!;
  if (d.at !== null || d.remainingMs === null || awayAmong(state, phase.acting)) return [];
  return [appDraft(AppEvent.DeadlineSet, { retimed: true, sides: d.sides, at: new Date(now.getTime() + d.remainingMs).toISOString(), remainingMs: null })];
}

/** When a vacation ended earlier than it was recorded (its job ran late), the clock restarts from then. */
function restartAt(drafts: readonly Draft[]): Date | undefined {
  const ended = drafts.find((d) => d.type === AppEvent.VacationEnded && typeof (d.data as { endedAt?: unknown })?.endedAt === 'string');
  return ended ? new Date((ended.data as { endedAt: string }).endedAt) : undefined;
}

function awayAmong(state: GameEnvelope, sides: readonly string[]): boolean {
  return sides.some((s) => state.vacation[s]?.since);
}

/**
 * Whether the running deadline still binds `side`: it was set for it, and the side has not
 * yet acted (a side done with its part of a simultaneous phase is no longer reminded, and its
 * vacation no longer stops the others' clock).
 */
export function stillToAct(system: GameSystem, state: GameEnvelope, side: string): boolean {
  return (state.deadline?.sides.includes(side) ?? false) && system.phase(state.rules).acting.includes(side);
}

/**
 * The side's own deadline when it has passed and the worker has yet to mark the miss, else null.
 * Acting then (orders, an answer, standing orders, a vacation) would cancel a miss already due.
 */
export function overdue(system: GameSystem, state: GameEnvelope, side: string, now: Date): string | null {
  const at = state.deadline?.at;
  // The time first: on every submission's path, the phase is worked out again only once it is late.
  return at && Date.parse(at) <= now.getTime() && stillToAct(system, state, side) ? at : null;
}

/**
 * A side of a simultaneous phase has submitted and the others are still to come: their clock
 * keeps running as it was (no new deadline, so no new notification either).
 */
function stillWaiting(was: PhaseInfo, now: PhaseInfo): boolean {
  return was.mode === 'simultaneous' && now.mode === 'simultaneous' && was.turn === now.turn && was.phase === now.phase && now.acting.every((s) => was.acting.includes(s));
}

/** The seed itself is filled in by the committer, the only code that reads the secret. */
function seedRevealed(): Draft {
  return appDraft(AppEvent.SeedRevealed, { seed: null });
}

/** A fresh deadline for the sides that must act; paused while one of them is on vacation. */
export function deadlineFor(state: GameEnvelope, phase: PhaseInfo, now: Date): Draft {
  const hours = phase.mode === 'reaction' ? state.options.reactionHours : state.options.deadlineHours;
  const ms = Math.round(hours * HOUR);
  const paused = awayAmong(state, phase.acting);
  return appDraft(AppEvent.DeadlineSet, {
    turn: phase.turn,
    phase: phase.phase,
    mode: phase.mode,
    sides: phase.acting,
    at: paused ? null : new Date(now.getTime() + ms).toISOString(),
    remainingMs: paused ? ms : null,
  });
}
