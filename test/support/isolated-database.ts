import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
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

/** Multi-connection tests need a Postgres server; the embedded PGlite serves one connection. */
export const onPostgresServer = !process.env.TEST_DATABASE_KIND?.startsWith('embedded');
export const describeOnServer = onPostgresServer ? describe : describe.skip;

export async function isolatedDatabase(label: string): Promise<IsolatedDatabase> {
  const base = new URL(testDatabaseUrl());
  const name = `fp_ntf_${label}_${process.pid}_${Date.now().toString(36)}`.toLowerCase().replace(/[^a-z0-9_]/g, '_');
  const admin = new pg.Client({ connectionString: base.toString() });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(`/${name}`, base).toString();
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const dir = join(__dirname, '../../prisma/migrations');
  for (const folder of readdirSync(dir).filter((f) => /^\d/.test(f)).sort()) {
    await client.query(readFileSync(join(dir, folder, 'migration.sql'), 'utf8'));
  }
  await client.end();
  const clients: PrismaService[] = [];
  return {
    url,
    prisma(poolMax = 10) {
      const p = new PrismaService({ kind: 'postgres', url, poolMax, close: async () => undefined });
      clients.push(p);
      return p;
    },
    async drop() {
      for (const p of clients) await p.onModuleDestroy().catch(() => undefined);
      const a = new pg.Client({ connectionString: base.toString() });
      await a.connect();
      await a.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await a.end();
    },
  };
}
