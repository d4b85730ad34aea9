import { createHash } from 'node:crypto';

/**
 * A delivery's id is a function of what it carries and where it goes, so a retried
 * transaction or a repeated trigger lands on the same row (ON CONFLICT DO NOTHING), and
 * receivers see the same id on every attempt (webhook-id, Message-ID) and can drop repeats.
 */
export function deliveryId(notificationId: string, channel: string, endpointId: string | null): string {
  const digest = createHash('sha256').update(`${notificationId}\n${channel}\n${endpointId ?? ''}`).digest('base64url');
  return `msg_${digest.slice(0, 27)}`;
}

export function digestNotificationId(playerId: string, day: string): string {
  return `digest:${playerId}:${day}`;
}
