/**
 * Each channel is a thin adapter behind one interface (Novu's pattern): the worker renders a
 * message for the channel, hands it over, and acts on the outcome. Adapters never touch the
 * database and never decide about retries.
 */
export type ChannelName = 'email' | 'webhook' | 'discord';

export const CHANNEL_NAMES: readonly ChannelName[] = ['email', 'webhook', 'discord'];

export interface EmailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Stable per delivery (the delivery id), so mail systems can drop a repeated send. */
  messageId: string;
  headers: Record<string, string>;
}

export type Rendered =
  | { channel: 'email'; email: EmailMessage }
  | { channel: 'webhook'; body: string }
  | { channel: 'discord'; body: string };

export interface Endpoint {
  id: string;
  url: string;
  secret: string | null;
  previousSecret: string | null;
  previousSecretUntil: Date | null;
}

/** Where one delivery goes. */
export interface DeliveryTarget {
  /** The stable delivery id: webhook-id, Message-ID. */
  id: string;
  channel: ChannelName;
  endpoint: Endpoint | null;
}

export type SendOutcome =
  | { kind: 'delivered'; status?: number }
  /** Try again later; the receiver's Retry-After, if any, is the least wait (see nextAttemptAt). */
  | { kind: 'retry'; error: string; status?: number; retryAfterMs?: number }
  /** This message will never be accepted (bad request): dead-letter it now. */
  | { kind: 'rejected'; error: string; status?: number }
  /** The target is gone (or not allowed): stop using it and tell its owner. */
  | { kind: 'gone'; error: string; status?: number };

export interface NotificationChannel {
  readonly name: ChannelName;
  /** False when the channel cannot send at all (email without SMTP_HOST). */
  readonly available: boolean;
  /**
   * `signal` aborts when the worker gives the send up (NOTIFY_SEND_TIMEOUT_MS): the outcome no
   * longer counts, and the channel should let go of whatever the send still holds.
   */
  send(target: DeliveryTarget, rendered: Rendered, signal?: AbortSignal): Promise<SendOutcome>;
  close?(): Promise<void> | void;
}

export const NOTIFICATION_CHANNELS = Symbol('NOTIFICATION_CHANNELS');
