import 'reflect-metadata';
import { DynamicModule, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ConfigModule } from '../../config/config.module';
import { AppConfig, loadConfig } from '../../config/config.schema';
import type { DatabaseRuntime } from '../../database/database';
import { DatabaseModule } from '../../database/database.module';
import { configureLogger, logger } from '../../logging/logger';
import { JsonNestLogger } from '../../logging/nest-logger';
import { NotificationsModule } from '../notifications.module';
import { exitIfRefused } from '../../startup-refusal';

@Module({})
class NotificationWorkerProcessModule {
  static register(config: AppConfig, runtime: DatabaseRuntime): DynamicModule {
    return { module: NotificationWorkerProcessModule, imports: [ConfigModule.forRoot(config), DatabaseModule.forRoot(runtime), NotificationsModule] };
  }
}

/**
 * A process that only delivers notifications (no HTTP server), beside or instead of the app's
 * own worker: `node dist/src/notifications/worker/worker.main.js` with the app's environment.
 * It needs DATABASE_URL, since the embedded database serves one process only.
 */
async function main(): Promise<void> {
  let config: AppConfig;
  try {
    config = loadConfig({ ...process.env, WORKERS_ENABLED: 'true' });
  } catch (err) {
    exitIfRefused(err);
    throw err;
  }
  if (!config.database.url) {
    process.stderr.write('DATABASE_URL must be set for a separate notification worker.\n');
    process.exit(78);
  }
  configureLogger(config.logLevel);
  const runtime: DatabaseRuntime = { kind: 'postgres', url: config.database.url, poolMax: config.database.poolMax, close: async () => undefined };
  const app = await NestFactory.createApplicationContext(NotificationWorkerProcessModule.register(config, runtime), { logger: new JsonNestLogger() });
  logger().info({ component: 'notifications' }, 'notification worker started');
  const stop = async () => {
    await app.close();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((err) => {
  logger().fatal({ err }, 'notification worker failed to start');
  process.exit(1);
});
