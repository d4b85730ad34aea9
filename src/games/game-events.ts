import type { StoredEvent } from '../event-store/event-store.types';
import { canonical } from '../common/canonical-json';
import { eventAsSeenBy } from '../rules/engine/visibility';
import type { Viewer, Visibility } from '../rules/engine/types';

/** Metadata the games module stores with every event, beside actor, correlation id and time. */
export interface GameEventMeta {
  actor: string | null;
  correlationId: string;
  time: string;
  source: 'app' | 'rules';
  visibility: Visibility;
  reveals?: boolean;
}

/** An event as one viewer may read it. */
export interface VisibleEvent {
  version: number;
  type: string;
  data: unknown;
  time: string;
}

/**
 * The one gate every event passes on its way to a reader (history, outcomes, exports,
 * notifications, subscriptions). Returns null when the viewer may read nothing of it; a
 * redacted form never carries the hidden facts. Metadata is reduced to the time: the actor and
 * correlation id of a hidden event are nobody else's business.
 */
export function eventFor(e: StoredEvent, viewer: Viewer): VisibleEvent | null {
  const meta = e.meta as unknown as GameEventMeta;
  if (viewer.kind === 'referee') return { version: e.version, type: e.type, data: canonical(e.data), time: meta.time };
  const seen = eventAsSeenBy({ type: e.type, data: e.data, visibility: meta.visibility ?? { to: 'all' } }, viewer.kind === 'side' ? viewer.side : null);
  return seen ? { version: e.version, type: seen.type, data: canonical(seen.data), time: meta.time } : null;
}

export function eventsFor(events: StoredEvent[], viewer: Viewer): VisibleEvent[] {
  const out: VisibleEvent[] = [];
  for (const e of events) {
    const v = eventFor(e, viewer);
    if (v) out.push(v);
  }
  return out;
}
