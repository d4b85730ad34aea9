import { HealthController } from '../health/health.controller';
import { UnsubscribeController } from '../notifications/unsubscribe/unsubscribe.controller';
import { AccountController } from './account/account.controller';
import { GamesController } from './games/games.controller';
import { NotificationEndpointsController } from './notifications/notification-endpoints.controller';
import { NotificationsController } from './notifications/notifications.controller';
import { PlayController } from './play/play.controller';
import { ScenariosController } from './scenarios/scenarios.controller';

/** The REST controllers under /api/v1 (also scanned for the OpenAPI document). */
export const REST_CONTROLLERS = [ScenariosController, GamesController, PlayController, AccountController, NotificationsController, NotificationEndpointsController];

/** Every HTTP controller the server has besides GraphQL: what the OpenAPI document describes. */
export const DOCUMENTED_CONTROLLERS = [...REST_CONTROLLERS, UnsubscribeController, HealthController];
