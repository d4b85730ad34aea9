import type { AppConfig } from '../../src/config/config.schema';
import { loadConfig } from '../../src/config/config.schema';
import type { DatabaseRuntime } from '../../src/database/database';
import { PrismaService } from '../../src/database/prisma.service';

/** The database `npm test` chose and migrated (see scripts/test.mjs). */
export function testDatabaseUrl(): string {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('TEST_DATABASE_URL is not set: run database tests through `npm test`, which picks and migrates a database.');
  return url;
}

export function testPoolMax(): number {
  return Number(process.env.TEST_DATABASE_POOL_MAX ?? 10);
}

export function testRuntime(poolMax = testPoolMax()): DatabaseRuntime {
  return { kind: 'postgres', url: testDatabaseUrl(), poolMax, close: async () => undefined };
}

export function testPrisma(poolMax?: number): PrismaService {
  return new PrismaService(testRuntime(poolMax));
}

/** Configuration for an app booted against the test database (no migrations: npm test ran them). */
export function testConfig(overrides: Record<string, string> = {}): AppConfig {
  return loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    PORT: '0',
    DATABASE_URL: testDatabaseUrl(),
    DATABASE_POOL_MAX: String(testPoolMax()),
    MIGRATE_ON_START: 'false',
    // Anonymous requests from 127.0.0.1 share one count over every app on the test database
    // (the limit holds across instances), so suites that are not about limits must not meet it.
    RATE_LIMIT_ANONYMOUS: '100000',
    // Off unless a test asks: an app's workers on the shared test database would claim the other
    // suites' deadlines and deliveries (with their own clock and catalog) while those suites run.
    WORKERS_ENABLED: 'false',
    ...overrides,
  });
}

let counter = 0;
/** A game id no other test (or earlier run against the same database) uses. */
export function uniqueId(prefix = 'g'): string {
  counter += 1;
  return `${prefix}-${process.pid}-${Date.now().toString(36)}-${counter}-${Math.random().toString(36).slice(2, 8)}`;
}
