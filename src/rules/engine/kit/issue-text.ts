import { z } from 'zod';

type Issue = z.core.$ZodIssue;

/** How far a branch of a union got before it failed: the deepest path among its issues. */
const depth = (issues: readonly Issue[]): number => Math.max(0, ...issues.map((x) => x.path.length));

/**
 * The issues of a failed parse as "field: message", the field written from `field` down the
 * JSON path. A union that failed reports the branch that got furthest (`{ "units": [1] }` is a
 * list of units with a bad entry, not "invalid input"); one that failed at its root keeps its
 * own message.
 */
export function issueText(field: string, issues: readonly Issue[]): string {
  return issues
    .map((x) => {
      const at = [field, ...x.path.map(String)].join('.');
      if (x.code === 'invalid_union' && x.errors.length > 0) {
        const best = x.errors.reduce((a, b) => (depth(b) > depth(a) ? b : a));
        if (depth(best) > 0) return issueText(at, best);
      }
      return `${at}: ${x.message}`;
    })
    .join('; ');
}
