import type { RecipientSettings } from '../../notifications/notification-intent';
import type { GameEnvelope } from '../game-envelope';

/** Without the notifications module (the games module alone, in tests), reminders come 12 hours ahead. */
export const DEFAULT_REMINDER_LEAD_MINUTES = 12 * 60;

/** Reminder lead times, in minutes, of the seated sides the game's deadline is for. */
export function reminderLeads(state: GameEnvelope, settings: RecipientSettings | undefined): Record<string, number> {
  const out: Record<string, number> = {};
  for (const side of state.deadline?.sides ?? []) {
    const player = state.seats[side];
    if (player) out[side] = settings?.reminderLeadMinutes(player) ?? DEFAULT_REMINDER_LEAD_MINUTES;
  }
  return out;
}

export interface PlannedJob {
  kind: 'deadline' | 'reminder' | 'vacation';
  /** For deadline and reminder jobs: the deadline's id (the version that set it). */
  gameVersion: number;
  side: string | null;
  dueAt: Date;
}

export interface JobPlan {
  /** Cancel every pending job of these kinds for the game before adding the new ones. */
  cancel: Array<PlannedJob['kind']>;
  add: PlannedJob[];
}

/**
 * The jobs a commit needs: when the deadline changes, the old deadline and reminder jobs go and
 * new ones come; a vacation gets a job that ends it when the allowance runs out.
 */
export function planJobs(
  before: GameEnvelope | undefined,
  after: GameEnvelope,
  now: Date,
  leadMinutes: Record<string, number>,
  afterVersion: number,
): JobPlan {
  const plan: JobPlan = { cancel: [], add: [] };
  if (after.status === 'finished') return { cancel: ['deadline', 'reminder', 'vacation'], add: [] };
  const d = after.deadline;
  if ((before?.deadline?.id ?? null) !== (d?.id ?? null) || (before?.deadline?.at ?? null) !== (d?.at ?? null)) {
    plan.cancel.push('deadline', 'reminder');
    if (d?.at) {
      const at = new Date(d.at);
      plan.add.push({ kind: 'deadline', gameVersion: d.id, side: null, dueAt: at });
      // A paused clock restarting (a vacation over) with less time left than the lead: the side
      // may have been away all along and heard nothing of the clock, so it is told at once.
      const restarted = d.retimed === true && before?.deadline?.at === null && !d.reminded && at > now;
      for (const side of d.sides) {
        const lead = leadMinutes[side];
        if (lead === undefined) continue;
        const due = new Date(at.getTime() - lead * 60_000);
        if (due > now) plan.add.push({ kind: 'reminder', gameVersion: d.id, side, dueAt: due });
        else if (restarted) plan.add.push({ kind: 'reminder', gameVersion: d.id, side, dueAt: now });
      }
    }
  }
  for (const side of Object.keys(after.vacation)) {
    const v = after.vacation[side]!;
    const was = before?.vacation[side]?.since ?? null;
    if (v.since && v.since !== was) {
      const left = after.options.vacationDays * 86_400_000 - v.usedMs;
      plan.add.push({ kind: 'vacation', gameVersion: afterVersion, side, dueAt: new Date(new Date(v.since).getTime() + Math.max(0, left)) });
    }
  }
  return plan;
}
