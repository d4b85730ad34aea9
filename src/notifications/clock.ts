/**
 * Time and randomness come in from outside, so quiet hours, digests and backoff can be tested
 * with a fixed clock and fixed jitter.
 */
export interface Clock {
  now(): Date;
}

export const NOTIFICATION_CLOCK = Symbol('NOTIFICATION_CLOCK');
export const NOTIFICATION_RANDOM = Symbol('NOTIFICATION_RANDOM');

/** A uniform number in [0, 1). */
export type Random = () => number;

export const systemClock: Clock = { now: () => new Date() };
export const systemRandom: Random = () => Math.random();
