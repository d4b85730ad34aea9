import { DynamicModule, MiddlewareConsumer, Module, NestModule } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { ProblemFilter } from './common/problem.filter';
import { ConfigModule } from './config/config.module';
import type { AppConfig } from './config/config.schema';
import type { DatabaseRuntime } from './database/database';
import { DatabaseModule } from './database/database.module';
import { EventStoreModule } from './event-store/event-store.module';
import { HealthModule } from './health/health.module';
import { requestIdMiddleware } from './logging/request-id.middleware';

@Module({})
export class AppModule implements NestModule {
  static register(config: AppConfig, database: DatabaseRuntime): DynamicModule {
    return {
      module: AppModule,
      imports: [ConfigModule.forRoot(config), DatabaseModule.forRoot(database), EventStoreModule, HealthModule],
      providers: [{ provide: APP_FILTER, useClass: ProblemFilter }],
    };
  }

  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(requestIdMiddleware).forRoutes('*path');
  }
}
