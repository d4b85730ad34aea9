import 'reflect-metadata';
import { ConfigError, loadConfig } from './config/config.schema';
import { createApp, listen } from './bootstrap';
import { DataDirError } from './database/embedded-postgres';
import { logger } from './logging/logger';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig(process.env);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(78);
    }
    throw err;
  }
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
  if (err instanceof DataDirError) {
    process.stderr.write(`${err.message}\n`);
    process.exit(1);
  }
  logger().fatal({ err }, 'Fieldpost failed to start');
  process.exit(1);
});
