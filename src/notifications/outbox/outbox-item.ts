import type { NotificationIntent, NotificationKind } from '../notification-intent';
import type { ChannelDisabledContent } from '../templates/renderable';

/** What the outbox writes: a game's intent, or a notice this module makes itself. */
export interface OutboxItem {
  id: string;
  playerId: string;
  gameId: string | null;
  kind: NotificationKind | 'channel_disabled';
  side: string | null;
  gameVersion: number | null;
  content: unknown;
  /** Quiet hours never hold a message past this (the deadline it is about). */
  deadlineAt: string | null;
  /** May wait for the player's daily digest. */
  digestible: boolean;
  /** An endpoint not to use (the one that was just disabled). */
  excludeEndpointId?: string;
}

/** Never held for a digest: the digest could come after the deadline it reminds of. */
const URGENT: ReadonlySet<NotificationKind> = new Set(['deadline_reminder']);

/** The deadline a notice is about for its recipient: only a side that acts is bound by one, so another side's never cuts quiet hours short. */
export function bindingDeadline(content: { yourTurn?: unknown; deadlineAt?: unknown }): string | null {
  return content.yourTurn === true && typeof content.deadlineAt === 'string' ? content.deadlineAt : null;
}

export function itemFromIntent(intent: NotificationIntent): OutboxItem {
  return {
    id: intent.id,
    playerId: intent.playerId,
    gameId: intent.gameId,
    kind: intent.kind,
    side: intent.side,
    gameVersion: intent.gameVersion,
    content: intent.content,
    deadlineAt: bindingDeadline(intent.content),
    digestible: !URGENT.has(intent.kind),
  };
}

export function noticeItem(id: string, playerId: string, content: ChannelDisabledContent, excludeEndpointId: string): OutboxItem {
  return { id, playerId, gameId: null, kind: 'channel_disabled', side: null, gameVersion: null, content, deadlineAt: null, digestible: false, excludeEndpointId };
}
