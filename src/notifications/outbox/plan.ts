import type { ChannelName } from '../channels/channel';
import type { EffectivePreferences } from '../preferences/preferences';
import { nextDigestSlot } from '../schedule/digest-time';
import { afterQuietHours } from '../schedule/quiet-hours';
import { deliveryId, digestNotificationId } from './delivery-id';
import type { OutboxItem } from './outbox-item';

/** What planning knows about a recipient, for one game. */
export interface RecipientContext {
  timeZone: string;
  prefs: EffectivePreferences;
  /** Enabled endpoints, oldest first. */
  endpoints: Array<{ id: string; kind: 'webhook' | 'discord' }>;
}

export interface PlannedDelivery {
  id: string;
  notificationId: string;
  playerId: string;
  channel: ChannelName;
  endpointId: string | null;
  status: 'pending' | 'held';
  notBefore: Date;
  digestId: string | null;
  /** For a held mail: when to send it alone if its digest is already on its way. */
  aloneAt?: Date;
}

export interface PlannedDigest {
  notificationId: string;
  deliveryId: string;
  playerId: string;
  day: string;
  at: Date;
}

export interface PlanOptions {
  now: Date;
  emailAvailable: boolean;
  digestHour: number;
}

/**
 * One delivery per enabled channel (and per enabled endpoint). Quiet hours move a mail or a
 * Discord message to the end of the quiet time, unless the deadline it is about would pass
 * first; webhooks go to machines and are never held. With the digest on, turn mail waits
 * ('held') for the player's next digest.
 */
export function planDeliveries(item: OutboxItem, ctx: RecipientContext, options: PlanOptions): { deliveries: PlannedDelivery[]; digest: PlannedDigest | null } {
  const { now } = options;
  const prefs = ctx.prefs;
  const quietUntil = afterQuietHours(now, ctx.timeZone, prefs.quiet);
  const deadline = item.deadlineAt ? new Date(item.deadlineAt) : null;
  const humanTime = deadline && quietUntil >= deadline ? now : quietUntil;
  const deliveries: PlannedDelivery[] = [];
  let digest: PlannedDigest | null = null;
  const base = { notificationId: item.id, playerId: item.playerId, digestId: null };

  if (prefs.email && options.emailAvailable) {
    if (prefs.digest && item.digestible) {
      const slot = nextDigestSlot(now, ctx.timeZone, options.digestHour, prefs.quiet);
      const notificationId = digestNotificationId(item.playerId, slot.day);
      digest = { notificationId, deliveryId: deliveryId(notificationId, 'email', null), playerId: item.playerId, day: slot.day, at: slot.at };
      deliveries.push({ ...base, id: deliveryId(item.id, 'email', null), channel: 'email', endpointId: null, status: 'held', notBefore: slot.at, digestId: digest.deliveryId, aloneAt: humanTime });
    } else {
      deliveries.push({ ...base, id: deliveryId(item.id, 'email', null), channel: 'email', endpointId: null, status: 'pending', notBefore: humanTime });
    }
  }
  for (const endpoint of ctx.endpoints) {
    if (endpoint.id === item.excludeEndpointId || !prefs[endpoint.kind]) continue;
    deliveries.push({
      ...base,
      id: deliveryId(item.id, endpoint.kind, endpoint.id),
      channel: endpoint.kind,
      endpointId: endpoint.id,
      status: 'pending',
      notBefore: endpoint.kind === 'discord' ? humanTime : now,
    });
  }
  return { deliveries, digest };
}
