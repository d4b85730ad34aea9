import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import pg from 'pg';
import { dirname, resolve } from 'node:path';

/** The nearest folder above this file holding prisma/schema.prisma (works from src/ and dist/). */
export function projectRoot(from = __dirname): string {
  let dir = from;
  while (!existsSync(resolve(dir, 'prisma/schema.prisma'))) {
    const up = dirname(dir);
    if (up === dir) throw new Error(`prisma/schema.prisma not found above ${from}`);
    dir = up;
  }
  return dir;
}

/**
 * Applies the committed migrations with `prisma migrate deploy`. Asynchronous on purpose:
 * the embedded database is served from this very process, so a blocking spawn would
 * deadlock it.
 */
export async function applyMigrations(databaseUrl: string): Promise<string[]> {
  const root = projectRoot();
  // Starting the Prisma CLI costs 10-20 s on the embedded database: not worth it to learn that
  // every committed migration is in place, as it is at every start but an upgrade's first.
  if ((await pendingMigrations(databaseUrl, root)).length === 0) return [];
  const output: string[] = [];
  const code = await new Promise<number | null>((done, fail) => {
    const child = spawn(process.execPath, [resolve(root, 'scripts/prisma.mjs'), 'migrate', 'deploy'], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: databaseUrl },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.on('data', (d: Buffer) => output.push(d.toString()));
    child.stderr.on('data', (d: Buffer) => output.push(d.toString()));
    child.on('error', fail);
    // 'close', not 'exit': the list of applied migrations is read from output that may still be arriving at exit.
    child.on('close', done);
  });
  if (code !== 0) throw new Error(`prisma migrate deploy failed (exit ${code}):\n${output.join('').slice(-4000)}`);
  return appliedMigrations(output.join(''));
}

/**
 * The migrations `prisma migrate deploy` reports it applied (none when the schema was up to
 * date), so that the server can say in its log that an upgrade changed the database.
 */
export function appliedMigrations(deployOutput: string): string[] {
  const listed = deployOutput.split(/following migration(?:\(s\)|s)? ha(?:ve|s) been applied/)[1];
  return listed ? [...listed.matchAll(/(\d{14}_[A-Za-z0-9_]+)\//g)].map((m) => m[1]!) : [];
}

/**
 * The committed migrations the database has not recorded as applied, by Prisma's own table (all
 * of them when it has none yet). Only a shortcut: `prisma migrate deploy` decides what to apply.
 */
export async function pendingMigrations(databaseUrl: string, root = projectRoot()): Promise<string[]> {
  const committed = readdirSync(resolve(root, 'prisma/migrations')).filter((f) => /^\d{14}_/.test(f));
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const table = await client.query<{ found: string | null }>("SELECT to_regclass('_prisma_migrations')::text AS found");
    if (table.rows[0]?.found === null) return committed.sort();
    const done = await client.query<{ migration_name: string }>('SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL');
    const applied = new Set(done.rows.map((r) => r.migration_name));
    return committed.filter((m) => !applied.has(m)).sort();
  } finally {
    await client.end();
  }
}
