import { canonical } from '../../common/canonical-json';
import { brief } from '../dice/roll-uses';

/** An event as the replay compares it: what a reader of the log gets, and what folds the state. */
export interface Comparable {
  type: string;
  data: unknown;
  visibility: unknown;
  reveals: boolean;
}

/** The form both sides are compared in: JSON as stored (undefined fields gone), keys sorted (jsonb reorders them). */
export function normal(e: Comparable): unknown {
  return canonical(JSON.parse(JSON.stringify({ type: e.type, data: e.data ?? null, visibility: e.visibility ?? null, reveals: e.reveals })));
}

/**
 * The first few places where `logged` and `derived` differ, as "field: logged X, the rules give
 * Y", so that a report names the column or the hex that was changed rather than two whole events.
 */
export function differences(logged: unknown, derived: unknown, limit = 3): string[] {
  const out: string[] = [];
  const walk = (a: unknown, b: unknown, path: string): void => {
    if (out.length >= limit) return;
    if (isObj(a) && isObj(b)) {
      for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) walk(a[k], b[k], path ? `${path}.${k}` : k);
    } else if (Array.isArray(a) && Array.isArray(b) && a.length === b.length) {
      a.forEach((x, i) => walk(x, b[i], `${path}[${i}]`));
    } else if (JSON.stringify(a) !== JSON.stringify(b)) {
      out.push(`${path || 'the event'}: logged ${compact(a)}, the rules give ${compact(b)}`);
    }
  };
  walk(logged, derived, '');
  return out;
}

/** A value short enough for one line of a report. */
export function compact(x: unknown): string {
  return x === undefined ? 'nothing' : brief(JSON.stringify(x));
}

function isObj(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}
