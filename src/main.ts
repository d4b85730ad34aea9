import 'reflect-metadata';
import { loadConfig } from './config/config.schema';
import { createApp, listen } from './bootstrap';
import { logger } from './logging/logger';
import { exitIfRefused } from './startup-refusal';

async function main(): Promise<void> {
  const config = loadConfig(process.env);
  const running = await createApp(config);
  await listen(running, config);
  const stop = async () => {
    await running.close();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((err) => {
  exitIfRefused(err);
  logger().fatal({ err }, 'Fieldpost failed to start');
  process.exit(1);
});
