import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { startEmbeddedPostgres } from '../../src/database/embedded-postgres';
import { PrismaService } from '../../src/database/prisma.service';
import { testDatabaseUrl } from './database';

/**
 * A fresh database per test file, from the committed migrations. Workers claim every due row
 * in their database, so a shared one would let another file's worker (with another config)
 * send this file's notifications. The SQL files are applied whole (they are valid SQL as a
 * whole); `npm test` has already checked them through `prisma migrate deploy`.
 */
export interface IsolatedDatabase {
  url: string;
  prisma(poolMax?: number): PrismaService;
  drop(): Promise<void>;
}

/** False on the embedded PGlite: one database and one session, no CREATE DATABASE nor another session's backend to end. */
export const onPostgresServer = !process.env.TEST_DATABASE_KIND?.startsWith('embedded');

/** `migrated: false` leaves the new database empty (for tests of the migrations themselves). */
export async function isolatedDatabase(label: string, { migrated = true } = {}): Promise<IsolatedDatabase> {
  if (!onPostgresServer) return isolatedEmbedded(migrated);
  const base = new URL(testDatabaseUrl());
  const name = `fp_ntf_${label}_${process.pid}_${Date.now().toString(36)}`.toLowerCase().replace(/[^a-z0-9_]/g, '_');
  await adminQuery(base, `CREATE DATABASE ${name}`);
  const url = new URL(`/${name}`, base).toString();
  if (migrated) await migrate(url);
  return handle(url, (poolMax) => poolMax, () => adminQuery(base, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
}

/**
 * On PGlite a database name in the URL is ignored (one database per instance), so an isolated
 * database is a PGlite of its own, started by the server's own embedded-database code.
 */
async function isolatedEmbedded(migrated: boolean): Promise<IsolatedDatabase> {
  const dir = mkdtempSync(join(tmpdir(), 'fieldpost-isolated-'));
  const server = await startEmbeddedPostgres(dir);
  if (migrated) await migrate(server.url);
  // One session serves every connection: a pool of one, whatever the test asks for.
  return handle(server.url, () => 1, async () => {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  });
}

/** The database's clients are closed before it goes. */
function handle(url: string, pool: (asked: number) => number, remove: () => Promise<void>): IsolatedDatabase {
  const clients: PrismaService[] = [];
  return {
    url,
    prisma(poolMax = 10) {
      const p = new PrismaService({ kind: 'postgres', url, poolMax: pool(poolMax), close: async () => undefined });
      clients.push(p);
      return p;
    },
    async drop() {
      for (const p of clients) await p.onModuleDestroy().catch(() => undefined);
      await remove();
    },
  };
}

async function adminQuery(base: URL, sql: string): Promise<void> {
  const admin = new pg.Client({ connectionString: base.toString() });
  await admin.connect();
  try {
    await admin.query(sql);
  } finally {
    await admin.end();
  }
}

async function migrate(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const dir = join(__dirname, '../../prisma/migrations');
  for (const folder of readdirSync(dir).filter((f) => /^\d/.test(f)).sort()) {
    await client.query(readFileSync(join(dir, folder, 'migration.sql'), 'utf8'));
  }
  await client.end();
}
