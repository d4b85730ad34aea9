import fc from 'fast-check';
import { estimate, msUntilBelow, WindowCounts } from '../../src/api/http/sliding-window';

const W = 60_000;

/** The estimate `ms` after a moment `elapsed` into the current window, with no request counted since. */
function estimateLater(counts: WindowCounts, elapsed: number, ms: number): number {
  const at = elapsed + ms / W;
  if (at < 1) return estimate(counts, at);
  if (at < 2) return estimate({ previous: counts.current, current: 0 }, at - 1);
  return 0;
}

describe('the sliding window estimate', () => {
  it('counts the previous window whole at its end, and not at all a window later', () => {
    expect(estimate({ previous: 6, current: 2 }, 0)).toBe(8);
    expect(estimate({ previous: 6, current: 2 }, 0.5)).toBe(5);
    expect(estimate({ previous: 6, current: 2 }, 0.999)).toBe(3);
  });

  it('rounds the weighted previous count up, so a burst at the limit is not let through just after a window boundary', () => {
    expect(estimate({ previous: 3, current: 0 }, 0.001)).toBe(3);
    expect(estimate({ previous: 3, current: 0 }, 1 / 3)).toBe(2);
  });

  it('gives as wait the moment the estimate falls below the limit, never later and never earlier', () => {
    const refused = fc
      .record({ previous: fc.integer({ min: 0, max: 500 }), current: fc.integer({ min: 0, max: 500 }), limit: fc.integer({ min: 1, max: 300 }), elapsed: fc.double({ min: 0, max: 0.999999, noNaN: true }) })
      .filter(({ previous, current, limit, elapsed }) => estimate({ previous, current }, elapsed) >= limit);
    fc.assert(
      fc.property(refused, ({ previous, current, limit, elapsed }) => {
        const counts = { previous, current };
        const wait = msUntilBelow(counts, limit, elapsed, W);
        expect(wait).toBeGreaterThan(0);
        expect(wait).toBeLessThanOrEqual(2 * W);
        expect(estimateLater(counts, elapsed, wait + 1)).toBeLessThan(limit);
        expect(estimateLater(counts, elapsed, wait - 1)).toBeGreaterThanOrEqual(limit);
      }),
      { numRuns: 2000 },
    );
  });
});
