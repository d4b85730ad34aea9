import { BadInputError } from '../../common/errors';
import { VersionConflictError } from '../../event-store/event-store.errors';
import type { Dice, RawSubmission, RulesEvent, SideId, StandingAnswers, Violation } from '../../rules/engine/types';
import { overdue } from '../game-followups';
import type { LoadedGame } from '../game-loader';
import { deadlinePassed, gameFinished, gameNotStarted, illegalOrders, malformedOrders, noReactionPending, notYourTurn, reactionPending } from '../games.errors';

const KINDS: ReadonlyArray<RawSubmission['kind']> = ['orders', 'reaction', 'standing-orders'];

/** The rules engine's verdict on a submission: the parsed value, or why it is refused. */
export type Checked = { ok: true; value: unknown } | { ok: false; stage: 'parse' | 'validate'; violations: Violation[] };

export function requireKind(submission: RawSubmission | undefined): RawSubmission {
  if (!submission || !KINDS.includes(submission.kind)) {
    throw new BadInputError('orders/malformed', `submission.kind must be one of ${KINDS.join(', ')}.`);
  }
  return submission;
}

/**
 * Everything a submission must pass before dice are rolled, shared by submitting and by a dry
 * run (checkPhase) so that a check can never pass what a submission refuses, or the reverse.
 * The game's moment (ended, not started, moved on, not this side's turn) is thrown, the same
 * error either way; the rules' verdict is returned, because a dry run answers it as data. The
 * engine writes both parse and validate from the acting side's knowledge, so the verdict tells
 * that side nothing a refused submission would not.
 */
export function checkSubmission({ state, version, system }: LoadedGame, side: SideId, expectedVersion: number, submission: RawSubmission, now: Date): Checked {
  if (state.status === 'finished') throw gameFinished(state.id);
  if (state.status === 'seating') throw gameNotStarted(state.id);
  if (version !== expectedVersion) throw new VersionConflictError(state.id, expectedVersion, version);
  const phase = system.phase(state.rules);
  // Out of turn, the engine's refusal names the rule broken, so the service's names it too.
  const ruleBroken = () => {
    const refused = system.parse(state.rules, side, submission);
    return refused.ok ? undefined : refused.violations[0]?.ruleId;
  };
  if (submission.kind === 'reaction' && phase.mode !== 'reaction') throw noReactionPending(side, phase.acting, ruleBroken());
  if (submission.kind !== 'standing-orders' && !phase.acting.includes(side)) throw notYourTurn(side, phase.acting, ruleBroken());
  if (submission.kind === 'orders' && phase.mode === 'reaction') throw reactionPending(side, ruleBroken());
  const late = overdue(system, state, side, now);
  if (late !== null) throw deadlinePassed(late, phase.mode === 'reaction');

  const parsed = system.parse(state.rules, side, submission);
  if (!parsed.ok) return { ok: false, stage: 'parse', violations: parsed.violations };
  const violations = system.validate(state.rules, side, parsed.value);
  if (violations.length) return { ok: false, stage: 'validate', violations };
  return { ok: true, value: parsed.value };
}

/** The error a submission is refused with when the rules refuse it. */
export function refusal(checked: Extract<Checked, { ok: false }>): BadInputError {
  return checked.stage === 'parse' ? malformedOrders(checked.violations) : illegalOrders(checked.violations);
}

/**
 * A submission's rules events: checked as checkSubmission checks it (a refusal is thrown), then
 * resolved. The one decision of a submission, made by the service with its dice and the standing
 * orders of now, and again by the replay of an export with the rolls and answers its log recorded.
 */
export function decideSubmission(game: LoadedGame, side: SideId, expectedVersion: number, submission: RawSubmission, now: Date, dice: Dice, answers?: StandingAnswers): RulesEvent[] {
  const checked = checkSubmission(game, side, expectedVersion, submission, now);
  if (!checked.ok) throw refusal(checked);
  return game.system.resolve(game.state.rules, side, checked.value, dice, answers);
}
