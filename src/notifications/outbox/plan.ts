import type { ChannelName } from '../channels/channel';
import type { EffectivePreferences } from '../preferences/preferences';
import { nextDigestSlot } from '../schedule/digest-time';
import { afterQuietHours, QuietHours } from '../schedule/quiet-hours';
import { deliveryId, digestNotificationId } from './delivery-id';
import type { OutboxItem } from './outbox-item';

/** One of the recipient's endpoints: for all their games (gameId null) or for one game. */
export interface RecipientEndpoint {
  id: string;
  kind: 'webhook' | 'discord';
  gameId: string | null;
  enabled: boolean;
}

/** What planning knows about a recipient, for one game. */
export interface RecipientContext {
  timeZone: string;
  prefs: EffectivePreferences;
  /**
   * The recipient's all-games endpoints and those scoped to this notification's game, oldest
   * first, disabled ones included (a disabled per-game endpoint still replaces; see endpointsFor).
   */
  endpoints: RecipientEndpoint[];
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
 * The endpoints a notification goes to. One about a game goes to the endpoints scoped to that
 * game; for a kind (webhook, Discord) with none there, to the all-games endpoints of that kind.
 * A per-game endpoint replaces the all-games ones of its kind even while it is disabled: the
 * player chose where that game's messages go (a campaign's own Discord channel, say), and
 * falling back would post them somewhere else. Notifications outside a game (notices) use the
 * all-games endpoints only. Endpoints of other games are never used.
 */
export function endpointsFor(gameId: string | null, endpoints: readonly RecipientEndpoint[]): RecipientEndpoint[] {
  const scoped = (e: RecipientEndpoint) => gameId !== null && e.gameId === gameId;
  const replaced = new Set(endpoints.filter(scoped).map((e) => e.kind));
  return endpoints.filter((e) => e.enabled && (scoped(e) || (e.gameId === null && !replaced.has(e.kind))));
}

/**
 * When a message to a person may go out: at the end of their quiet hours, unless the deadline it
 * is about would pass first (then now).
 */
export function whenReadable(now: Date, timeZone: string, quiet: QuietHours | null, deadline: Date | null): Date {
  const quietUntil = afterQuietHours(now, timeZone, quiet);
  return deadline && quietUntil >= deadline ? now : quietUntil;
}

/**
 * One delivery per enabled channel (and per enabled endpoint). Quiet hours move a mail or a
 * Discord message to the end of the quiet time, unless the deadline it is about would pass
 * first; webhooks go to machines and are never held. With the digest on, turn mail waits
 * ('held') for the player's next digest, unless its deadline comes first.
 */
export function planDeliveries(item: OutboxItem, ctx: RecipientContext, options: PlanOptions): { deliveries: PlannedDelivery[]; digest: PlannedDigest | null } {
  const { now } = options;
  const prefs = ctx.prefs;
  const deadline = item.deadlineAt ? new Date(item.deadlineAt) : null;
  const humanTime = whenReadable(now, ctx.timeZone, prefs.quiet, deadline);
  const deliveries: PlannedDelivery[] = [];
  let digest: PlannedDigest | null = null;
  const base = { notificationId: item.id, playerId: item.playerId, digestId: null };

  if (prefs.email && options.emailAvailable) {
    const slot = prefs.digest && item.digestible ? nextDigestSlot(now, ctx.timeZone, options.digestHour, prefs.quiet) : null;
    // A digest that comes after the deadline the mail is about would tell of a closed window: send it now.
    if (slot && !(deadline && slot.at >= deadline)) {
      const notificationId = digestNotificationId(item.playerId, slot.day);
      digest = { notificationId, deliveryId: deliveryId(notificationId, 'email', null), playerId: item.playerId, day: slot.day, at: slot.at };
      deliveries.push({ ...base, id: deliveryId(item.id, 'email', null), channel: 'email', endpointId: null, status: 'held', notBefore: slot.at, digestId: digest.deliveryId, aloneAt: humanTime });
    } else {
      deliveries.push({ ...base, id: deliveryId(item.id, 'email', null), channel: 'email', endpointId: null, status: 'pending', notBefore: humanTime });
    }
  }
  for (const endpoint of endpointsFor(item.gameId, ctx.endpoints)) {
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
