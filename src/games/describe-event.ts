import { SECRETS_APPLIED } from '../rules/engine/events';
import type { VisibleEvent } from './game-events';

/**
 * One line of plain text for an event a side may read, for notifications. Generic on purpose:
 * it reads only the (already redacted) event, so it cannot say more than the side may see.
 */
export function describeEvent(e: VisibleEvent): string {
  const words = e.type.replace(/([a-z0-9])([A-Z])/g, '$1 $2');
  const d = (e.data ?? {}) as Record<string, unknown>;
  const parts: string[] = [];
  for (const key of ['side', 'unit', 'unitId', 'attacker', 'defender', 'from', 'to', 'hex', 'path', 'result', 'value', 'reason', 'winner']) {
    const v = d[key];
    if (v === undefined || v === null) continue;
    parts.push(`${key} ${Array.isArray(v) ? v.join('→') : typeof v === 'object' ? JSON.stringify(v) : String(v)}`);
  }
  return parts.length ? `${words}: ${parts.join(', ')}` : words;
}

/**
 * The lines for an event: one, but a SecretOrdersApplied gives one per event inside, as they
 * were logged before they were bundled, to its side (its sealed orders, its records of a run of
 * orders: cancellations, re-armed aircraft). The others read it redacted, without events, and
 * get no line: it says only that the side gave orders, once per run whatever they held.
 */
export function describeLines(e: VisibleEvent): string[] {
  if (e.type !== SECRETS_APPLIED) return [describeEvent(e)];
  const inner = (e.data as { events?: unknown } | null)?.events;
  return Array.isArray(inner) ? (inner as Array<{ type: string; data: unknown }>).map((x) => describeEvent({ ...e, type: x.type, data: x.data })) : [];
}

/** A reaction's answer in one line ("attackers d-1, d-2", "jettison none", "path 0101→0102"). */
export function describeAnswer(answer: unknown): string {
  const value = (key: string, v: unknown): string => {
    if (v === null || v === undefined || (Array.isArray(v) && v.length === 0)) return 'none';
    if (Array.isArray(v)) return v.map(String).join(key === 'path' ? '→' : ', ');
    return typeof v === 'object' ? JSON.stringify(v) : String(v);
  };
  if (answer === null || typeof answer !== 'object' || Array.isArray(answer)) return value('', answer);
  return Object.entries(answer).map(([k, v]) => `${k} ${value(k, v)}`).join('; ') || 'none';
}

export function humanPhase(phase: string): string {
  return phase
    .split(/[-_ ]+/)
    .filter(Boolean)
    .map((w) => (/^p\d$/i.test(w) ? w.toUpperCase() : w[0]!.toUpperCase() + w.slice(1)))
    .join(' ');
}
