import type { PhaseInfo, SideId, Visibility } from '../rules/engine/types';

/** How a game treats a missed deadline. */
export interface TimeoutPolicy {
  /** pass: the side passes (its standing orders apply); forfeit: the side loses at once. */
  kind: 'pass' | 'forfeit';
  /** A side that misses this many deadlines in a row forfeits, whatever the kind. */
  forfeitAfter: number;
}

export interface GameOptions {
  /** Time limit of a phase, in hours. */
  deadlineHours: number;
  /** Time limit of a reaction window, in hours. */
  reactionHours: number;
  timeout: TimeoutPolicy;
  spectators: boolean;
  /** A snapshot of the state is stored every this many events. */
  snapshotInterval: number;
  /** Days each player may pause their own clock, per game. */
  vacationDays: number;
}

export interface Deadline {
  /** The game version at which this deadline was set: jobs scheduled for it carry it. */
  id: number;
  sides: SideId[];
  /** ISO time; null while paused by a vacation. */
  at: string | null;
  /** Milliseconds left when paused. */
  remainingMs: number | null;
  reminded: boolean;
  /** Set by a vacation's pause or restart of the deadline before it (absent in older snapshots). */
  retimed?: boolean;
}

/** The last submitted phase, kept so that it can be taken back (undo). */
export interface UndoPoint {
  side: SideId;
  fromVersion: number;
  toVersion: number;
  rules: unknown;
  diceCounter: number;
  undoable: boolean;
  /** The side's count of deadlines missed in a row before it, which the phase reset (absent in older snapshots). */
  missed?: number;
  /** The opponent declined to take it back: asking again would only repeat the question. */
  declined?: boolean;
}

/**
 * The application's state of one game: the rules state plus everything the service adds
 * (seats, deadlines, vacations, undo). JSON, folded from the log, snapshotted as a whole.
 */
export interface GameEnvelope {
  id: string;
  scenarioId: string;
  scenarioVersion: string;
  systemId: string;
  title: string;
  createdBy: string;
  options: GameOptions;
  seedCommitment: string;
  seats: Record<SideId, string | null>;
  status: 'seating' | 'active' | 'finished';
  rules: unknown;
  diceCounter: number;
  deadline: Deadline | null;
  missed: Record<SideId, number>;
  vacation: Record<SideId, { usedMs: number; since: string | null }>;
  lastSubmission: UndoPoint | null;
  pendingUndo: { proposedBy: SideId; version: number } | null;
  result: { winner: SideId | null; reason: string } | null;
  seed: string | null;
}

/** Events the application writes (the rules engine writes the others). */
export const AppEvent = {
  GameCreated: 'GameCreated',
  SeatClaimed: 'SeatClaimed',
  GameBegan: 'GameBegan',
  PhaseSubmitted: 'PhaseSubmitted',
  DiceRolled: 'DiceRolled',
  DeadlineSet: 'DeadlineSet',
  DeadlineReminded: 'DeadlineReminded',
  DeadlineMissed: 'DeadlineMissed',
  VacationStarted: 'VacationStarted',
  VacationEnded: 'VacationEnded',
  UndoProposed: 'UndoProposed',
  UndoAccepted: 'UndoAccepted',
  UndoDeclined: 'UndoDeclined',
  UndoLapsed: 'UndoLapsed',
  Resigned: 'Resigned',
  GameEnded: 'GameEnded',
  SeedRevealed: 'SeedRevealed',
} as const;
export type AppEventType = (typeof AppEvent)[keyof typeof AppEvent];

/** An event about to be appended; `source` tells the fold whether the rules engine reads it. */
export interface Draft {
  source: 'app' | 'rules';
  type: string;
  data: unknown;
  visibility: Visibility;
  reveals?: boolean;
}

export const publicly: Visibility = { to: 'all' };

export function appDraft(type: AppEventType, data: unknown, visibility: Visibility = publicly): Draft {
  return { source: 'app', type, data, visibility };
}

/** Identifies "who must act now" so a change of it can be noticed. */
export function phaseKey(p: PhaseInfo): string {
  return `${p.turn}|${p.phase}|${p.mode}|${[...p.acting].sort().join(',')}`;
}
