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
 * The lines for an event: one, but a SecretOrdersApplied the reader may open (its own sealed
 * orders) gives one per event inside, as they were logged before they were bundled. The others
 * read it redacted, without events, and get its one line.
 */
export function describeLines(e: VisibleEvent): string[] {
  const inner = (e.data as { events?: unknown } | null)?.events;
  if (e.type !== SECRETS_APPLIED || !Array.isArray(inner)) return [describeEvent(e)];
  return (inner as Array<{ type: string; data: unknown }>).map((x) => describeEvent({ ...e, type: x.type, data: x.data }));
}

export function humanPhase(phase: string): string {
  return phase
    .split(/[-_ ]+/)
    .filter(Boolean)
    .map((w) => (/^p\d$/i.test(w) ? w.toUpperCase() : w[0]!.toUpperCase() + w.slice(1)))
    .join(' ');
}
