import type { StandingAnswers } from '../../rules/engine/types';
import type { JsonObject } from '../../rules/model/json';
import { AppEvent } from '../game-envelope';

export interface Logged {
  version: number;
  type: string;
  data: unknown;
  meta: { source?: string; time?: string; reveals?: boolean; visibility?: unknown; correlationId?: unknown };
}

/** The rules asked for a roll the log does not have. */
export class Divergence extends Error {}

/** Each roll the rules ask for is the log's roll of that number: its value is the dice verifier's to check, its die and purpose are compared after. */
export function loggedSource(rolls: Logged[]): (n: number, sides: number, purpose: string) => number {
  const byNumber = new Map(rolls.map((r) => [isObj(r.data) ? r.data['n'] : undefined, r]));
  return (n, sides, purpose) => {
    const r = byNumber.get(n);
    const value = r && isObj(r.data) ? r.data['value'] : undefined;
    if (typeof value !== 'number') throw new Divergence(`the rules roll roll ${n} (d${sides}, ${purpose}), which the log does not have there`);
    return value;
  };
}

/** The answers the decision's standing orders gave, as its ReactionAnswered events recorded them, handed out in turn. */
export function loggedAnswers(rules: Logged[], answeredBy: number[]): StandingAnswers {
  const queue = rules.filter((e) => e.type === 'ReactionAnswered' && isObj(e.data) && (e.data['by'] === 'standing-orders' || e.data['applied'] === 'standing-orders'));
  return {
    next(side, kind) {
      const head = queue[0];
      const data = isObj(head?.data) ? head.data : undefined;
      if (!head || data?.['side'] !== side || data['kind'] !== kind) return null;
      queue.shift();
      answeredBy.push(head.version);
      return data['answer'] ?? null;
    },
  };
}

/** The events that start a decision: what follows each, up to the next or the end of its commit, is what the decision came to. */
const STARTS: ReadonlySet<string> = new Set([AppEvent.GameCreated, AppEvent.PhaseSubmitted, AppEvent.DeadlineMissed]);

/** Where the decision that `events[k]` opens ends: at the next decision, or where its commit ends. */
export function segmentEnd(events: Logged[], k: number): number {
  let j = k + 1;
  while (j < events.length && events[j]!.meta.correlationId === events[k]!.meta.correlationId && !STARTS.has(events[j]!.type)) j++;
  return j;
}

export function readLog(raw: unknown): Logged[] | undefined {
  if (!Array.isArray(raw)) return undefined;
  const out: Logged[] = [];
  for (const e of raw) {
    if (!isObj(e) || !Number.isInteger(e['version']) || typeof e['type'] !== 'string') return undefined;
    const meta = isObj(e['meta']) ? e['meta'] : {};
    out.push({ version: e['version'] as number, type: e['type'], data: e['data'], meta: { ...meta, time: typeof meta['time'] === 'string' ? meta['time'] : undefined, source: typeof meta['source'] === 'string' ? meta['source'] : undefined } });
  }
  return out;
}

export function standingOf(raw: unknown): Record<string, JsonObject> {
  if (!isObj(raw)) return {};
  return Object.fromEntries(Object.entries(raw).filter((entry): entry is [string, JsonObject] => isObj(entry[1])));
}

export function isObj(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}
