import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG } from '../../config/config.module';
import type { AppConfig } from '../../config/config.schema';
import { logger } from '../../logging/logger';
import type { SendOutcome } from '../channels/channel';
import { ChannelRegistry } from '../channels/channel-registry';
import { Clock, NOTIFICATION_CLOCK, NOTIFICATION_RANDOM, Random } from '../clock';
import { noticeItem } from '../outbox/outbox-item';
import { PostgresNotificationOutbox } from '../outbox/outbox.service';
import { pgRunner } from '../outbox/sql-runner';
import { nextAttemptAt } from '../schedule/backoff';
import type { ChannelDisabledContent, DigestItem, Renderable } from '../templates/renderable';
import { isNotificationKind } from '../templates/renderable';
import { render } from '../templates/render';
import { UnsubscribeTokens } from '../unsubscribe/unsubscribe-tokens';
import type { ClaimedDelivery, Settlement } from './claimed-delivery';
import { DeliveryRepository } from './delivery.repository';

/** A digest with the held deliveries it carries. */
type DigestRenderable = Omit<Extract<Renderable, { kind: 'digest' }>, 'items'> & { items: Array<DigestItem & { deliveryId: string }> };

/** Sends one claimed delivery and records how it went. */
@Injectable()
export class DeliveryProcessor {
  private readonly log = logger().child({ component: 'notifications' });
  private readonly messageIdDomain: string;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly repo: DeliveryRepository,
    private readonly outbox: PostgresNotificationOutbox,
    private readonly channels: ChannelRegistry,
    private readonly tokens: UnsubscribeTokens,
    @Inject(NOTIFICATION_CLOCK) private readonly clock: Clock,
    @Inject(NOTIFICATION_RANDOM) private readonly random: Random,
  ) {
    this.messageIdDomain = new URL(config.publicUrl).hostname || 'fieldpost';
  }

  /** Never throws: a failure here leaves the row to its lease, and another attempt. */
  async process(d: ClaimedDelivery): Promise<void> {
    try {
      await this.run(d);
    } catch (err) {
      this.log.error({ err, deliveryId: d.id }, 'notification delivery failed unexpectedly; it will be retried when its lease ends');
    }
  }

  private async run(d: ClaimedDelivery): Promise<void> {
    const now = () => this.clock.now();
    if (d.channel !== 'email' && !d.endpoint?.enabled) {
      await this.repo.settle(d, { status: 'cancelled', error: 'the endpoint was removed or disabled' }, now());
      return;
    }
    if (d.outdated !== null) {
      await this.repo.settle(d, { status: 'cancelled', error: d.outdated }, now());
      return;
    }
    const channel = this.channels.get(d.channel);
    const renderable = await this.renderable(d);
    if (!channel || !renderable) {
      await this.repo.settle(d, { status: 'dead', error: channel ? `cannot render a ${d.notification.kind} notification` : `no ${d.channel} channel` }, now());
      return;
    }
    if (renderable.kind === 'digest' && renderable.items.length === 0) {
      await this.repo.settle(d, { status: 'cancelled', error: 'nothing left to send' }, now());
      return;
    }
    const rendered = render(d.channel, renderable, d.recipient, {
      deliveryId: d.id,
      messageIdDomain: this.messageIdDomain,
      unsubscribe: {
        game: d.notification.gameId ? this.tokens.url({ playerId: d.playerId, gameId: d.notification.gameId }) : null,
        all: this.tokens.url({ playerId: d.playerId, gameId: null }),
      },
    });
    const outcome = await this.whileLeased(d, (signal) => channel.send({ id: d.id, channel: d.channel, endpoint: d.endpoint }, rendered, signal));
    const settlement = this.settlement(d, outcome, now());
    if (outcome.kind === 'gone' && d.endpoint) {
      await this.disable(d, outcome.error, settlement, now());
    } else if (renderable.kind === 'digest') {
      await this.repo.settleDigest(d, settlement, renderable.items.map((i) => i.deliveryId), now());
    } else if (!(await this.repo.settle(d, settlement, now()))) {
      this.log.warn({ deliveryId: d.id }, 'notification lease lost before it was settled; another worker has it');
    }
  }

  /**
   * Keeps the row this worker's while its send runs. An HTTP send ends within its timeout, below
   * the lease, but the SMTP timeouts are per step: a mail server that answers each step slowly
   * (tarpitting), or a queue behind the pool's connections, can outlast one lease, and another
   * worker would then send the same mail while this one is still sending it.
   * The renewal has a bound, NOTIFY_SEND_TIMEOUT_MS over the whole send: the SMTP timeouts are
   * idle timeouts, and a server trickling its answer would hold the row and a worker slot forever.
   * Given up, the send is a failed attempt, retried later.
   */
  private async whileLeased(d: ClaimedDelivery, send: (signal: AbortSignal) => Promise<SendOutcome>): Promise<SendOutcome> {
    const { leaseMs, sendTimeoutMs } = this.config.notifications;
    const renewal = setInterval(() => {
      this.repo.renew(d, new Date(this.clock.now().getTime() + leaseMs)).catch((err: unknown) => this.log.warn({ err, deliveryId: d.id }, 'renewing a notification lease failed'));
    }, Math.max(1, Math.floor(leaseMs / 3)));
    renewal.unref();
    const abort = new AbortController();
    let deadline: NodeJS.Timeout | undefined;
    const givenUp = new Promise<SendOutcome>((done) => {
      deadline = setTimeout(() => {
        abort.abort();
        done({ kind: 'retry', error: `no complete send within ${sendTimeoutMs} ms (NOTIFY_SEND_TIMEOUT_MS)` });
      }, sendTimeoutMs);
    });
    try {
      return await Promise.race([send(abort.signal), givenUp]);
    } finally {
      clearInterval(renewal);
      clearTimeout(deadline);
    }
  }

  private settlement(d: ClaimedDelivery, outcome: SendOutcome, now: Date): Settlement {
    const lastStatus = outcome.status !== undefined ? { lastStatus: outcome.status } : {};
    switch (outcome.kind) {
      case 'delivered':
        return { status: 'delivered', ...lastStatus };
      case 'retry': {
        const at = nextAttemptAt({ attempts: d.attempts, firstAttemptAt: d.firstAttemptAt, now, retryAfterMs: outcome.retryAfterMs }, this.config.notifications.retry, this.random);
        return at ? { status: 'retry', at, error: outcome.error, ...lastStatus } : { status: 'dead', error: `gave up: ${outcome.error}`, ...lastStatus };
      }
      case 'rejected':
        return { status: 'dead', error: outcome.error, ...lastStatus };
      case 'gone':
        return { status: 'dead', error: `${outcome.error}: the ${d.channel} endpoint was disabled`, ...lastStatus };
    }
  }

  /** Stops using the endpoint and tells its owner on their other channels, in one transaction. */
  private async disable(d: ClaimedDelivery, reason: string, settlement: Settlement, now: Date): Promise<void> {
    await this.repo.inTransaction(async (client) => {
      if (!(await this.repo.settle(d, settlement, now, client))) return;
      const endpoint = await this.repo.disableEndpoint(client, d.endpoint!.id, reason, now, d.id);
      if (!endpoint) return;
      const content: ChannelDisabledContent = { channel: endpoint.kind, target: redact(endpoint.url), reason, disabledAt: now.toISOString() };
      if (endpoint.gameId !== null) content.game = { id: endpoint.gameId, title: d.notification.gameId === endpoint.gameId ? gameTitle(d.notification.content) : null };
      const id = `notice:endpoint_disabled:${endpoint.id}:${now.getTime()}`;
      await this.outbox.write(pgRunner(client), [noticeItem(id, endpoint.playerId, content, endpoint.id)]);
    });
    this.log.warn({ deliveryId: d.id, endpointId: d.endpoint!.id, reason }, 'notification endpoint disabled');
  }

  private async renderable(d: ClaimedDelivery): Promise<Exclude<Renderable, { kind: 'digest' }> | DigestRenderable | null> {
    const n = d.notification;
    const createdAt = n.createdAt.toISOString();
    if (n.kind === 'digest') {
      const day = (n.content as { day?: string }).day ?? createdAt.slice(0, 10);
      return { kind: 'digest', notificationId: d.notificationId, gameId: null, createdAt, day, items: await this.repo.heldFor(d.id) };
    }
    if (n.kind === 'channel_disabled') {
      return { kind: 'channel_disabled', notificationId: d.notificationId, gameId: null, createdAt, content: n.content as ChannelDisabledContent };
    }
    if (!isNotificationKind(n.kind) || !n.gameId) return null;
    return {
      kind: n.kind,
      notificationId: d.notificationId,
      gameId: n.gameId,
      side: n.side ?? '',
      gameVersion: n.gameVersion ?? 0,
      createdAt,
      content: n.content as Extract<Renderable, { side: string }>['content'],
    };
  }
}

/** The title the player was sent with this notification (a per-game endpoint only carries its game's). */
function gameTitle(content: unknown): string | null {
  const title = (content as { gameTitle?: unknown } | null)?.gameTitle;
  return typeof title === 'string' ? title : null;
}

/**
 * Receivers keep their secret in the path's last segment (a Discord webhook's token; many
 * webhook services' keys) or in the query: the notice names the host and at most three leading
 * segments, never the last one.
 */
export function redact(url: string): string {
  try {
    const u = new URL(url);
    const segments = u.pathname.split('/');
    const path = segments.slice(0, Math.min(4, segments.length - 1)).join('/');
    return `${u.protocol}//${u.host}${path}${u.pathname.slice(path.length).replace(/\//g, '') ? '/…' : ''}`;
  } catch {
    return 'an invalid URL';
  }
}
