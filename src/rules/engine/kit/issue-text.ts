import { z } from 'zod';

type Issue = z.core.$ZodIssue;

/** How far a branch of a union got before it failed: the deepest path among its issues. */
const depth = (issues: readonly Issue[]): number => Math.max(0, ...issues.map((x) => x.path.length));

/** What the client sent at `path` below `value`; undefined where it sent nothing. */
function sentAt(value: unknown, path: readonly PropertyKey[]): unknown {
  let v = value;
  for (const key of path) {
    if (v === null || typeof v !== 'object' || !Object.hasOwn(v, key)) return undefined;
    v = (v as Record<PropertyKey, unknown>)[key];
  }
  return v;
}

/**
 * The issues of a failed parse as "field: message", the field written from `field` down the
 * JSON path. A union that failed reports the branch that got furthest into what the client sent
 * (`{ "units": [1] }` is a list of units with a bad entry, not "invalid input"). A branch that
 * failed only for a key never sent is no such branch: `{}` named "allExcept" as if the client
 * had written it. A union with no such branch keeps its own message, and names the keys its
 * object forms take.
 */
export function issueText(field: string, issues: readonly Issue[], input: unknown): string {
  return issues
    .map((x) => {
      const at = [field, ...x.path.map(String)].join('.');
      if (x.code === 'invalid_union' && x.errors.length > 0) {
        const here = sentAt(input, x.path);
        const reached = x.errors.filter((b) => depth(b) > 0 && b.every((i) => i.path.length === 0 || sentAt(here, i.path) !== undefined));
        if (reached.length > 0) return issueText(at, reached.reduce((a, b) => (depth(b) > depth(a) ? b : a)), here);
        const keys = [...new Set(x.errors.flatMap((b) => b.filter((i) => i.path.length === 1 && sentAt(here, i.path) === undefined).map((i) => String(i.path[0]))))];
        if (keys.length > 0) return `${at}: ${x.message} (an object here takes one of: ${keys.join(', ')})`;
      }
      return `${at}: ${x.message}`;
    })
    .join('; ');
}
