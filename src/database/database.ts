import type { AppConfig } from '../config/config.schema';
import { startEmbeddedPostgres } from './embedded-postgres';
import { logger } from '../logging/logger';
import { applyMigrations } from './migrate';

/** Where the data lives for this process: an external Postgres, or the embedded one. */
export interface DatabaseRuntime {
  kind: 'postgres' | 'embedded';
  url: string;
  poolMax: number;
  /** Stops the embedded server; a no-op for an external Postgres. */
  close(): Promise<void>;
}

export async function openDatabase(config: AppConfig['database']): Promise<DatabaseRuntime> {
  const runtime: DatabaseRuntime = config.url
    ? { kind: 'postgres', url: config.url, poolMax: config.poolMax, close: async () => undefined }
    : await embedded(config.dataDir);
  if (config.migrateOnStart) {
    try {
      const applied = await applyMigrations(runtime.url);
      if (applied.length) logger().info({ migrations: applied, database: runtime.kind }, 'database migrations applied');
    } catch (err) {
      await runtime.close();
      throw err;
    }
  }
  return runtime;
}

async function embedded(dataDir: string): Promise<DatabaseRuntime> {
  const pg = await startEmbeddedPostgres(dataDir);
  // Where an operator reaches it with psql (VACUUM, a look at the data): the socket folder changes at every start.
  logger().info({ dataDir: pg.dataDir, psql: pg.url }, 'embedded database started');
  return { kind: 'embedded', url: pg.url, poolMax: 1, close: () => pg.stop() };
}
