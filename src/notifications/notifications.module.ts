import { randomBytes } from 'node:crypto';
import { Module } from '@nestjs/common';
import { APP_CONFIG } from '../config/config.module';
import type { AppConfig } from '../config/config.schema';
import { logger } from '../logging/logger';
import { ChannelRegistry } from './channels/channel-registry';
import { Clock, NOTIFICATION_CLOCK, NOTIFICATION_RANDOM, systemClock, systemRandom } from './clock';
import { NotificationDeliveriesService } from './deliveries/deliveries.service';
import { NOTIFICATION_OUTBOX } from './notification-intent';
import { PostgresNotificationOutbox } from './outbox/outbox.service';
import { NOTIFICATION_RESOLVE, NotificationEndpointsService } from './preferences/endpoints.service';
import { NotificationsService } from './preferences/notifications.service';
import { systemResolve } from './security/target-url';
import { UnsubscribeController } from './unsubscribe/unsubscribe.controller';
import { UnsubscribeTokens } from './unsubscribe/unsubscribe-tokens';
import { DeliveryProcessor } from './worker/delivery-processor';
import { DeliveryRepository } from './worker/delivery.repository';
import { NotificationWorker } from './worker/notification-worker';

function unsubscribeTokens(config: AppConfig): UnsubscribeTokens {
  if (!config.notifications.tokenSecret) {
    logger().warn({ component: 'notifications' }, 'NOTIFY_TOKEN_SECRET is not set: unsubscribe links work only until this process restarts');
  }
  return new UnsubscribeTokens(config.notifications.tokenSecret ?? randomBytes(32).toString('base64'), config);
}

/**
 * Notifications: the transactional outbox the games module writes to (NOTIFICATION_OUTBOX),
 * the worker that delivers it by email, webhook and Discord, players' settings, and the
 * unsubscribe links. Depends on the global config and database modules only.
 */
@Module({
  controllers: [UnsubscribeController],
  providers: [
    { provide: NOTIFICATION_CLOCK, useValue: systemClock },
    { provide: NOTIFICATION_RANDOM, useValue: systemRandom },
    { provide: NOTIFICATION_RESOLVE, useValue: systemResolve },
    {
      provide: ChannelRegistry,
      useFactory: (config: AppConfig, clock: Clock) => ChannelRegistry.fromConfig(config.notifications, clock),
      inject: [APP_CONFIG, NOTIFICATION_CLOCK],
    },
    { provide: UnsubscribeTokens, useFactory: unsubscribeTokens, inject: [APP_CONFIG] },
    PostgresNotificationOutbox,
    { provide: NOTIFICATION_OUTBOX, useExisting: PostgresNotificationOutbox },
    DeliveryRepository,
    DeliveryProcessor,
    NotificationWorker,
    NotificationsService,
    NotificationEndpointsService,
    NotificationDeliveriesService,
  ],
  exports: [NOTIFICATION_OUTBOX, NotificationsService, NotificationEndpointsService, NotificationDeliveriesService],
})
export class NotificationsModule {}
