import type { NotificationsConfig } from '../../config/config.schema';
import { logger } from '../../logging/logger';
import type { Clock } from '../clock';
import type { ChannelName, NotificationChannel } from './channel';
import { DiscordChannel } from './discord.channel';
import { EmailChannel } from './email.channel';
import { HttpClient } from './http-client';
import { WebhookChannel } from './webhook.channel';

/** The channel adapters of one process, and the connections they keep open. */
export class ChannelRegistry {
  private readonly byName: Map<ChannelName, NotificationChannel>;

  constructor(channels: NotificationChannel[], private readonly onClose: () => void = () => undefined) {
    this.byName = new Map(channels.map((c) => [c.name, c]));
  }

  static fromConfig(config: NotificationsConfig, clock: Clock): ChannelRegistry {
    const http = new HttpClient({ timeoutMs: config.httpTimeoutMs, allowPrivate: config.allowPrivateTargets, maxSockets: config.concurrency });
    const email = new EmailChannel(config);
    if (!email.available) logger().warn({ component: 'notifications' }, 'SMTP_HOST is not set: the email channel is off, no mail will be sent');
    return new ChannelRegistry([email, new WebhookChannel(http, clock), new DiscordChannel(http, clock)], () => http.close());
  }

  get(name: ChannelName): NotificationChannel | undefined {
    return this.byName.get(name);
  }

  isAvailable(name: ChannelName): boolean {
    return this.byName.get(name)?.available ?? false;
  }

  async onModuleDestroy(): Promise<void> {
    for (const c of this.byName.values()) await c.close?.();
    this.onClose();
  }
}
