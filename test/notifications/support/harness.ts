import { loadConfig, AppConfig } from '../../../src/config/config.schema';
import type { PrismaService } from '../../../src/database/prisma.service';
import { configureLogger } from '../../../src/logging/logger';
import { ChannelRegistry } from '../../../src/notifications/channels/channel-registry';
import type { Clock, Random } from '../../../src/notifications/clock';
import { NotificationDeliveriesService } from '../../../src/notifications/deliveries/deliveries.service';
import type { NotificationIntent } from '../../../src/notifications/notification-intent';
import { PostgresNotificationOutbox } from '../../../src/notifications/outbox/outbox.service';
import { NotificationEndpointsService } from '../../../src/notifications/preferences/endpoints.service';
import { NotificationsService } from '../../../src/notifications/preferences/notifications.service';
import { ResolveAll, systemResolve } from '../../../src/notifications/security/target-url';
import { UnsubscribeTokens } from '../../../src/notifications/unsubscribe/unsubscribe-tokens';
import { DeliveryProcessor } from '../../../src/notifications/worker/delivery-processor';
import { DeliveryRepository } from '../../../src/notifications/worker/delivery.repository';
import { NotificationWorker } from '../../../src/notifications/worker/notification-worker';

export const TOKEN_SECRET = 'test-token-secret-test-token-secret!';

/**
 * Fast, loopback-friendly settings for a test; `env` overrides any of them. The send timeout
 * is long so that a loaded machine does not turn a slow answer into a retry (and a test that
 * counts raw requests into a flaky one); tests about timeouts set their own.
 */
export function notificationsConfig(databaseUrl: string, env: Record<string, string> = {}): AppConfig {
  return loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    PUBLIC_URL: 'https://fieldpost.test',
    DATABASE_URL: databaseUrl,
    MIGRATE_ON_START: 'false',
    WORKER_POLL_MS: '20',
    NOTIFY_ALLOW_PRIVATE_TARGETS: 'true',
    NOTIFY_HTTP_TIMEOUT_MS: '10000',
    NOTIFY_LEASE_MS: '30000',
    NOTIFY_RETRY_BASE_MS: '20',
    NOTIFY_RETRY_MAX_DELAY_MS: '80',
    NOTIFY_TOKEN_SECRET: TOKEN_SECRET,
    ...env,
  });
}

export class FakeClock implements Clock {
  constructor(private t: number) {}
  now(): Date {
    return new Date(this.t);
  }
  set(iso: string): void {
    this.t = Date.parse(iso);
  }
  advance(ms: number): void {
    this.t += ms;
  }
}

/** The module's object graph, wired by hand so a test can swap the clock, the jitter or DNS. */
export interface Harness {
  config: AppConfig;
  prisma: PrismaService;
  outbox: PostgresNotificationOutbox;
  worker: NotificationWorker;
  repo: DeliveryRepository;
  preferences: NotificationsService;
  endpoints: NotificationEndpointsService;
  deliveries: NotificationDeliveriesService;
  tokens: UnsubscribeTokens;
  enqueue(intents: NotificationIntent[]): Promise<void>;
  close(): Promise<void>;
}

export function harness(prisma: PrismaService, config: AppConfig, opts: { clock?: Clock; random?: Random; resolve?: ResolveAll } = {}): Harness {
  configureLogger(config.logLevel);
  const clock = opts.clock ?? { now: () => new Date() };
  const random = opts.random ?? Math.random;
  const outbox = new PostgresNotificationOutbox(config, clock, prisma);
  const repo = new DeliveryRepository(prisma);
  const channels = ChannelRegistry.fromConfig(config.notifications, clock);
  const tokens = new UnsubscribeTokens(config.notifications.tokenSecret!, config);
  const processor = new DeliveryProcessor(config, repo, outbox, channels, tokens, clock, random);
  const worker = new NotificationWorker(config, repo, processor, clock);
  return {
    config,
    prisma,
    outbox,
    worker,
    repo,
    tokens,
    preferences: new NotificationsService(prisma, config, clock),
    endpoints: new NotificationEndpointsService(prisma, config, clock, opts.resolve ?? systemResolve),
    deliveries: new NotificationDeliveriesService(prisma, clock),
    enqueue: (intents) => prisma.$transaction((tx) => outbox.enqueue(tx, intents)),
    async close() {
      await worker.stop();
      await channels.onModuleDestroy();
    },
  };
}
