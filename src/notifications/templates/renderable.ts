import type { NotificationContent, NotificationKind } from '../notification-intent';
import type { ChannelName } from '../channels/channel';

/** A channel turned off because its target answered that it is gone (or is not allowed). */
export interface ChannelDisabledContent {
  channel: ChannelName;
  /** The target without its secret parts (a Discord URL's token, a query string). */
  target: string;
  reason: string;
  disabledAt: string;
  /** When the endpoint was for one game only: that game, titled as this player was last told it. */
  game?: { id: string; title: string | null };
}

/** One turn notification held for a digest. */
export interface DigestItem {
  notificationId: string;
  kind: NotificationKind;
  gameId: string;
  content: NotificationContent;
  createdAt: string;
  /** The game has gone on since this notice was written: whose turn and the deadline it gives may be past. */
  movedOn?: boolean;
}

/** What the templates render: a notification as stored, with everything it needs. */
export type Renderable =
  | { kind: NotificationKind; notificationId: string; gameId: string; side: string; gameVersion: number; createdAt: string; content: NotificationContent }
  | { kind: 'channel_disabled'; notificationId: string; gameId: null; createdAt: string; content: ChannelDisabledContent }
  | { kind: 'digest'; notificationId: string; gameId: null; createdAt: string; day: string; items: DigestItem[] };

/** The recipient's own data, the only personal data a template may use. */
export interface Recipient {
  playerId: string;
  email: string;
  displayName: string;
  timeZone: string;
}

export const NOTIFICATION_KINDS: readonly NotificationKind[] = [
  'game_started',
  'your_turn',
  'reaction_requested',
  'undo_proposed',
  'undo_answered',
  'deadline_reminder',
  'deadline_missed',
  'opponent_resigned',
  'game_ended',
];

export function isNotificationKind(kind: string): kind is NotificationKind {
  return (NOTIFICATION_KINDS as readonly string[]).includes(kind);
}

export function assertNever(value: never): never {
  throw new Error(`unexpected value ${JSON.stringify(value)}`);
}
