import type { RawSubmission, SideId } from '../../rules/engine/types';
import { AppEvent, appDraft, Draft } from '../game-envelope';

/**
 * A side's submission as the log keeps it: the orders as sent, which the replay of an export
 * decides again (replay/replay-export.ts), read by that side alone until the end. The others
 * read only who submitted and what kind: even the number of orders could tell them something.
 */
export function phaseSubmitted(side: SideId, submission: RawSubmission): Draft {
  const seen = { side, kind: submission.kind };
  return appDraft(AppEvent.PhaseSubmitted, { ...seen, orders: submission.orders ?? null }, { to: 'sides', sides: [side], redacted: { type: AppEvent.PhaseSubmitted, data: seen } });
}
