import { DynamicModule, MiddlewareConsumer, Module, NestModule } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { ApiModule } from './api/api.module';
import { AuthModule } from './auth/auth.module';
import { ProblemFilter } from './common/problem.filter';
import { ConfigModule } from './config/config.module';
import type { AppConfig } from './config/config.schema';
import type { DatabaseRuntime } from './database/database';
import { DatabaseModule } from './database/database.module';
import { EventStoreModule } from './event-store/event-store.module';
import type { GameCatalog } from './games/game-catalog';
import type { Clock } from './games/game-clock';
import type { DiceSourceFactory } from './games/dice/dice-source';
import { GamesModule } from './games/games.module';
import { HealthModule } from './health/health.module';
import { requestIdMiddleware } from './logging/request-id.middleware';
import { NotificationsModule } from './notifications/notifications.module';

/** What tests may substitute: the scenarios on offer, the clock, and (to script a game) the dice. */
export interface AppOverrides {
  catalog?: GameCatalog;
  clock?: Clock;
  dice?: DiceSourceFactory;
}

@Module({})
export class AppModule implements NestModule {
  static register(config: AppConfig, database: DatabaseRuntime, overrides: AppOverrides & { catalog: GameCatalog }): DynamicModule {
    const games = GamesModule.register({
      catalog: overrides.catalog,
      ...(overrides.clock ? { clock: overrides.clock } : {}),
      ...(overrides.dice ? { dice: overrides.dice } : {}),
      // The outbox and the players' reminder preferences come from the notifications module.
      imports: [NotificationsModule],
    });
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config),
        DatabaseModule.forRoot(database),
        EventStoreModule,
        HealthModule,
        games,
        NotificationsModule,
        AuthModule,
        ApiModule.register(games),
      ],
      providers: [{ provide: APP_FILTER, useClass: ProblemFilter }],
    };
  }

  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(requestIdMiddleware).forRoutes('*path');
  }
}
