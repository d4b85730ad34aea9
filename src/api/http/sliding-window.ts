/**
 * A sliding window estimated from two fixed ones, as Cloudflare does: the previous window's
 * count weighs by the part of it the sliding window ending now still covers. Only two counts
 * per key are kept, which is what lets instances add theirs up in the database.
 *
 * The weighted count is rounded up: the previous window's requests then leave the estimate
 * one by one, one per windowMs / previous, instead of as a fraction at every instant. So the
 * estimate is a whole number (RateLimit-Remaining is exact), and a burst that straddles a
 * window boundary is not let through early by a rounding sliver: with the fraction kept, a
 * caller at the limit would get one more request right after the boundary.
 */

/** Absorbs floating error in `previous * (1 - elapsed)` (3 * (1 - 1/3) is 2.0000000000000004). */
const EPSILON = 1e-9;

export interface WindowCounts {
  previous: number;
  current: number;
}

/** `elapsed` is the fraction of the current window gone, in [0, 1). */
export function estimate(counts: WindowCounts, elapsed: number): number {
  return Math.max(0, Math.ceil(counts.previous * (1 - elapsed) - EPSILON)) + counts.current;
}

/**
 * How long until estimate() falls below `limit`, given no more requests are let through (refused
 * ones do not count). Only called when it is not below the limit now.
 */
export function msUntilBelow(counts: WindowCounts, limit: number, elapsed: number, windowMs: number): number {
  const { previous, current } = counts;
  if (current < limit) {
    // Within this window: the previous window's weight must fall to limit - 1 - current.
    return (1 - (limit - 1 - current) / previous - elapsed) * windowMs;
  }
  // Not before the next window, where this window's count is the previous one.
  return (1 - elapsed) * windowMs + (1 - (limit - 1) / current) * windowMs;
}
