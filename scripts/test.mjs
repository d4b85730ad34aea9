#!/usr/bin/env node
// `npm test`: generate the Prisma client, compile (type errors fail the run), pick a database,
// apply migrations, run every jest test. The database is DATABASE_URL if set, else the local
// server at postgresql://postgres@127.0.0.1:5432 if it answers, else the embedded PGlite.
// FIELDPOST_TEST_DB=embedded picks a fresh PGlite whatever answers: CI always finds the local
// server, so this is the only way to run the tests on what `npm start` uses on a fresh machine.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

const root = fileURLToPath(new URL('..', import.meta.url));
const LOCAL = 'postgresql://postgres@127.0.0.1:5432';
// One database per run, so runs started at the same time (several engineers, one machine) never
// drop each other's database; it is dropped again when the run ends.
const TEST_DB = `fieldpost_test_${process.pid}`;

function run(cmd, args, env = {}) {
  return new Promise((done) => {
    const child = spawn(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
    child.on('exit', (code, signal) => done(code ?? (signal ? 1 : 0)));
  });
}

async function answers(url) {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** A fresh database on the local server, so every run starts from the migrations. */
async function adminQuery(sql) {
  const admin = new pg.Client({ connectionString: `${LOCAL}/postgres` });
  await admin.connect();
  try {
    await admin.query(sql);
  } finally {
    await admin.end();
  }
}

async function freshLocalDatabase() {
  await adminQuery(`DROP DATABASE IF EXISTS ${TEST_DB} WITH (FORCE)`);
  await adminQuery(`CREATE DATABASE ${TEST_DB}`);
  return `${LOCAL}/${TEST_DB}`;
}

async function chooseDatabase() {
  if (process.env.FIELDPOST_TEST_DB === 'embedded') return embeddedDatabase('embedded PGlite (FIELDPOST_TEST_DB=embedded)');
  if (process.env.DATABASE_URL) return { kind: 'postgres (DATABASE_URL)', url: process.env.DATABASE_URL, poolMax: 10 };
  if (await answers(`${LOCAL}/postgres`)) {
    return {
      kind: `postgres (local server, database ${TEST_DB})`,
      url: await freshLocalDatabase(),
      poolMax: 10,
      stop: () => adminQuery(`DROP DATABASE IF EXISTS ${TEST_DB} WITH (FORCE)`).catch(() => undefined),
    };
  }
  return embeddedDatabase('embedded PGlite (no Postgres server answered)');
}

/** `kind` starts with 'embedded': test/support/isolated-database.ts reads it. */
async function embeddedDatabase(kind) {
  const { PGlite } = await import('@electric-sql/pglite');
  const { PGLiteSocketServer } = await import('@electric-sql/pglite-socket');
  const dir = mkdtempSync(join(tmpdir(), 'fieldpost-test-'));
  const db = await PGlite.create(dir);
  // Several connections (tests open more than one pool); PGlite serialises their statements.
  const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections: 32 });
  await server.start();
  return {
    kind,
    url: `postgresql://postgres@${server.getServerConn()}/postgres?sslmode=disable`,
    poolMax: 1,
    async stop() {
      await server.stop();
      await db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function main() {
  const wanted = process.env.FIELDPOST_TEST_DB;
  // A misspelt switch must not quietly test on another database than the one asked for.
  if (wanted && wanted !== 'embedded') {
    console.error(`FIELDPOST_TEST_DB=${wanted}: the only value is 'embedded' (unset: DATABASE_URL, else the local server, else PGlite)`);
    return 1;
  }
  if ((await run(process.execPath, ['scripts/prisma.mjs', 'generate'])) !== 0) return 1;
  if ((await run(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.json', '--noEmit'])) !== 0) return 1;
  if ((await run(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json'])) !== 0) return 1;
  const database = await chooseDatabase();
  console.log(`\n[fieldpost] tests use ${database.kind}\n`);
  try {
    if ((await run(process.execPath, ['scripts/prisma.mjs', 'migrate', 'deploy'], { DATABASE_URL: database.url })) !== 0) return 1;
    // PGlite loads its WebAssembly with a dynamic import, which jest's VM only allows with this flag.
    const jestArgs = ['--experimental-vm-modules', 'node_modules/jest/bin/jest.js', ...(database.poolMax === 1 ? ['--runInBand'] : []), ...process.argv.slice(2)];
    const code = await run(process.execPath, jestArgs, {
      TEST_DATABASE_URL: database.url,
      TEST_DATABASE_POOL_MAX: String(database.poolMax),
      TEST_DATABASE_KIND: database.kind,
    });
    console.log(`\n[fieldpost] tests used ${database.kind}`);
    return code;
  } finally {
    await database.stop?.();
  }
}

main().then((code) => process.exit(code), (err) => {
  console.error(err);
  process.exit(1);
});
