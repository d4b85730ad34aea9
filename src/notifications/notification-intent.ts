import type { Tx } from '../database/prisma.service';
import type { Cte, SqlParams } from '../database/sql-params';

/**
 * What the games module asks the notifications module to tell one player. It is written in the
 * same transaction as the events that cause it (the transactional outbox), and its content is
 * built from the recipient side's view only: nothing in it may depend on what that side cannot
 * see.
 */
export type NotificationKind =
  | 'game_started'
  | 'your_turn'
  | 'reaction_requested'
  | 'undo_proposed'
  | 'undo_answered'
  | 'deadline_reminder'
  | 'deadline_missed'
  | 'opponent_resigned'
  | 'game_ended';

/**
 * The notices that tell a player to act now (the start of play counts: it is the first call).
 * One still waiting to go out is outdated once the side no longer acts or a later one is written.
 */
export const CALLS_TO_ACT_NOW: readonly NotificationKind[] = ['your_turn', 'reaction_requested', 'deadline_reminder', 'game_started'];

/** Every notice that asks a player to do something in a game: nothing it asks is possible once the game is over. */
export const CALLS_TO_ACT: readonly NotificationKind[] = [...CALLS_TO_ACT_NOW, 'undo_proposed'];

export interface NotificationIntent {
  /** Stable across retries of the same trigger: `${gameId}:${gameVersion}:${kind}:${playerId}`. */
  id: string;
  kind: NotificationKind;
  gameId: string;
  playerId: string;
  side: string;
  /** The game version right after the events that caused this notification. */
  gameVersion: number;
  content: NotificationContent;
}

export interface NotificationContent {
  gameTitle: string;
  scenarioName: string;
  turn: number;
  /** Human phase name, e.g. "P1 Movement". */
  phase: string;
  /** Sides (and their players' display names) that must act now. */
  whoseTurn: Array<{ side: string; sideName: string; playerName: string | null }>;
  /** True when the recipient's side is among those that must act. */
  yourTurn: boolean;
  /** ISO time of the current deadline, or null. Rendered in the recipient's time zone. */
  deadlineAt: string | null;
  /** Set (with deadlineAt null) while a vacation holds the clock: there is a deadline, it has not started. */
  deadlinePaused?: true;
  /** What the change that caused this notice did, as this side may see it, one line per item. */
  happened: string[];
  /**
   * For a missed deadline: the sides that missed it (by name), and whether the recipient's is one;
   * `window` when what closed was a reaction window (standing orders or no reaction applied; no
   * missed phase for the timeout policy). To the side whose window it was, and to no other (the
   * others may not learn whether it had standing orders): `applied`, which of the two answered,
   * and `answer`, that answer in one line.
   */
  missed?: { sides: string[]; you: boolean; window?: 'reaction'; applied?: 'standing-orders' | 'none'; answer?: string };
  /** For an answer to the recipient's undo proposal: whether the other side accepted it. */
  undoAccepted?: boolean;
  /** For the recipient's undo proposal that the other side went on without answering (then undoAccepted is false). */
  undoLapsed?: boolean;
  /** Absolute links: the game's page and the place to act. */
  links: { game: string; act: string };
  /** Set when the game has ended. */
  result?: { winner: string | null; reason: string };
}

/** Implemented by the notifications module; the games module depends only on this. */
export interface NotificationOutbox {
  /**
   * These players' settings for this game, in one round trip: what planning deliveries and
   * reminders needs. Nothing in it depends on the commit, so a caller may start it before the
   * rules engine runs and let the round trip overlap that work.
   */
  settingsFor(gameId: string, playerIds: readonly string[]): Promise<RecipientSettings>;
  /**
   * Plans the deliveries from `settings` (reading whatever they lack), writing nothing: the
   * rows become parts of the statement that appends the events, so both commit or neither does.
   */
  prepare(intents: NotificationIntent[], settings?: RecipientSettings, options?: PrepareOptions): Promise<PreparedNotifications>;
  /** The same inside a caller's transaction. */
  enqueue(tx: Tx, intents: NotificationIntent[]): Promise<void>;
}

/** Settings read by settingsFor. */
export interface RecipientSettings {
  readonly gameId: string;
  /** How long before a deadline this player wants the reminder for the game, in minutes; undefined if not read. */
  reminderLeadMinutes(playerId: string): number | undefined;
  /** The player's display name, for notification content; undefined if not read. */
  displayName(playerId: string): string | undefined;
}

export interface PrepareOptions {
  /**
   * The game whose deadline this commit replaces (or ends): its reminders still waiting to go
   * out (quiet hours, a receiver being retried) speak of a deadline that no longer runs, and
   * are withdrawn.
   */
  deadlineChangedIn?: string;
  /**
   * With deadlineChangedIn, only these players' reminders: their sides are done with a deadline
   * that still runs for the others (their part of a simultaneous phase is in).
   */
  remindersOf?: readonly string[];
  /**
   * The game whose undo proposal this commit closed (answered, or dropped by a later
   * submission): its notices still waiting to go out ask for an answer that can no longer be
   * given, and are withdrawn.
   */
  undoClosedIn?: string;
  /**
   * The game this commit ends: its calls to act still waiting to go out (your turn, a reaction
   * window, an undo to answer, a reminder), held for a digest or not yet sent, ask for something
   * that can no longer be done, and are withdrawn. The end itself is told by this commit's own
   * notifications.
   */
  gameEndedIn?: string;
}

export interface PreparedNotifications {
  /** The outbox rows as parts of the caller's statement, written only when `guard` holds. */
  ctes(params: SqlParams, guard: string): Cte[];
}

export const NOTIFICATION_OUTBOX = Symbol('NOTIFICATION_OUTBOX');
