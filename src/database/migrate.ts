import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
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
