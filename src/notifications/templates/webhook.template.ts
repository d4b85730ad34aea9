import type { Recipient, Renderable } from './renderable';
import { formatDeadline } from './text';

/**
 * The webhook body, Standard Webhooks' `{ type, timestamp, data }` shape. Its bytes are the
 * same on every attempt (the timestamp is the notification's, not the attempt's), so a
 * receiver may also dedupe on a hash of the body.
 */
export function renderWebhook(n: Renderable, deliveryId: string, to: Recipient): string {
  const base = { id: deliveryId, notificationId: n.notificationId, kind: n.kind };
  let data: Record<string, unknown>;
  switch (n.kind) {
    case 'channel_disabled':
      data = { ...base, ...n.content };
      break;
    case 'digest':
      // Digests are a mail-only form; a webhook gets every notification on its own.
      data = { ...base, day: n.day, notificationIds: n.items.map((i) => i.notificationId) };
      break;
    default:
      data = {
        ...base,
        gameId: n.gameId,
        side: n.side,
        gameVersion: n.gameVersion,
        ...n.content,
        deadlineLocal: formatDeadline(n.content.deadlineAt, to.timeZone),
      };
  }
  return JSON.stringify({ type: `fieldpost.${n.kind}`, timestamp: n.createdAt, data });
}
