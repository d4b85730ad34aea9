import type { ChannelName, Endpoint } from '../channels/channel';
import type { Recipient } from '../templates/renderable';

/** A delivery a worker has leased, with what it needs to render and send it. */
export interface ClaimedDelivery {
  id: string;
  notificationId: string;
  playerId: string;
  channel: ChannelName;
  /** Attempts so far, this one included. */
  attempts: number;
  firstAttemptAt: Date;
  claimToken: string;
  /** Why a call to act is no longer true (the game went on before it could go out), or null. */
  outdated: string | null;
  notification: { kind: string; gameId: string | null; side: string | null; gameVersion: number | null; content: unknown; createdAt: Date };
  recipient: Recipient;
  endpoint: (Endpoint & { enabled: boolean }) | null;
}

/** How a delivery ends (or pauses). */
export type Settlement =
  | { status: 'delivered'; lastStatus?: number }
  | { status: 'retry'; at: Date; error: string; lastStatus?: number }
  | { status: 'dead' | 'cancelled'; error: string; lastStatus?: number };
