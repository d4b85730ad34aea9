import { DynamicModule, MiddlewareConsumer, Module, NestModule, RequestMethod } from '@nestjs/common';
import { ApolloDriver, ApolloDriverConfig } from '@nestjs/apollo';
import { GraphQLModule, GraphQLSchemaHost } from '@nestjs/graphql';
import { ApiTokensService } from '../auth/api-tokens.service';
import { AuthModule } from '../auth/auth.module';
import { APP_CONFIG } from '../config/config.module';
import { EventStoreModule } from '../event-store/event-store.module';
import { NotificationsModule } from '../notifications/notifications.module';
import { AccountResolver } from './account/account.resolver';
import { ProfileApi } from './account/profile.service';
import { ApiDocs } from './docs/api-docs';
import { GamesApiService } from './games/games-api.service';
import { GameListingResolver, GamesResolver } from './games/games.resolver';
import { graphqlOptions } from './graphql/graphql-options';
import { WsMessageCap } from './graphql/ws-message-cap';
import { ApiRequestMiddleware } from './http/api-request.middleware';
import { jsonBodiesOnly } from './http/json-bodies.middleware';
import { RequestBudget } from './http/request-budget';
import { RateLimitModule } from './http/rate-limit.module';
import { RateLimiter } from './http/rate-limiter';
import { InvitationsResolver, JoinResultResolver, OpenChallengeResolver } from './invitations/invitations.resolver';
import { NotificationEndpointsApi } from './notifications/notification-endpoints-api.service';
import { NotificationEndpointsResolver } from './notifications/notification-endpoints.resolver';
import { NotificationSettingsApi } from './notifications/notification-settings.service';
import { PlayResolver } from './play/play.resolver';
import { REST_CONTROLLERS } from './rest-controllers';
import { ScenariosResolver } from './scenarios/scenarios.resolver';
import { GameFeed } from './subscriptions/game-feed.service';
import { GameUpdatesResolver } from './subscriptions/game-updates.resolver';

export const API_RESOLVERS = [
  ScenariosResolver,
  GamesResolver,
  GameListingResolver,
  InvitationsResolver,
  JoinResultResolver,
  OpenChallengeResolver,
  PlayResolver,
  AccountResolver,
  NotificationEndpointsResolver,
  GameUpdatesResolver,
];

/**
 * The public API: GraphQL at /graphql (with subscriptions over graphql-ws) and REST under
 * /api/v1 with OpenAPI at /docs. Thin resolvers and controllers over the games, auth and
 * notifications modules; every call carries the authenticated player's id.
 */
@Module({})
export class ApiModule implements NestModule {
  /** `games` is the app's registered GamesModule, so the API uses the same instance. */
  static register(games: DynamicModule): DynamicModule {
    return {
      module: ApiModule,
      imports: [
        games,
        EventStoreModule,
        AuthModule,
        NotificationsModule,
        RateLimitModule,
        GraphQLModule.forRootAsync<ApolloDriverConfig>({
          driver: ApolloDriver,
          imports: [AuthModule, RateLimitModule],
          inject: [APP_CONFIG, ApiTokensService, GraphQLSchemaHost, RateLimiter],
          useFactory: graphqlOptions,
        }),
      ],
      controllers: REST_CONTROLLERS,
      providers: [ApiDocs, GamesApiService, NotificationSettingsApi, ProfileApi, NotificationEndpointsApi, GameFeed, RequestBudget, ApiRequestMiddleware, WsMessageCap, ...API_RESOLVERS],
    };
  }

  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(ApiRequestMiddleware).forRoutes({ path: 'graphql', method: RequestMethod.ALL }, { path: 'api/v1/{*path}', method: RequestMethod.ALL });
    // A mail client's one-click unsubscribe (RFC 8058) posts a form, which that route ignores.
    consumer.apply(jsonBodiesOnly).exclude({ path: 'api/v1/notifications/unsubscribe', method: RequestMethod.POST }).forRoutes({ path: 'api/v1/{*path}', method: RequestMethod.ALL });
  }
}
