/** Who caused an event, why, and when. The application layer fills it; the clock is read there. */
export interface EventMeta {
  /** Player id, 'system' for scheduled work, or null. */
  actor: string | null;
  correlationId: string;
  /** ISO-8601 time of the append. */
  time: string;
  [extra: string]: unknown;
}

export interface NewEvent {
  type: string;
  data: unknown;
  meta: EventMeta;
}

export interface StoredEvent {
  /** Global position (a bigint, as a decimal string). */
  position: string;
  gameId: string;
  version: number;
  type: string;
  data: unknown;
  meta: EventMeta;
}

export interface AppendResult {
  gameId: string;
  /** Version of the first appended event (toVersion + 1 when nothing was appended). */
  fromVersion: number;
  /** The game's version after the append. */
  toVersion: number;
  /** True when an earlier append with the same idempotency key is being returned. */
  replayed: boolean;
}

/**
 * Where a reader following the whole log stands. Events are read in (transactionId, position)
 * order, and only from transactions older than every transaction still open, so an event whose
 * transaction commits late is still read after the events that committed before it.
 */
export interface Checkpoint {
  transactionId: string;
  position: string;
}

/** The largest version a game can reach: versions are Postgres integers. */
export const MAX_VERSION = 2_147_483_647;

export const START: Checkpoint = { transactionId: '0', position: '0' };

export interface GlobalEvent extends StoredEvent {
  checkpoint: Checkpoint;
}
