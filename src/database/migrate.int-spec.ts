import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { isolatedDatabase } from '../../test/support/isolated-database';
import { configureLogger } from '../logging/logger';
import { openDatabase } from './database';
import { applyMigrations, pendingMigrations } from './migrate';

/** The start command's migrations (MIGRATE_ON_START) on an empty database and on an up-to-date one. */
describe('migrations at start', () => {
  const committed = readdirSync(join(__dirname, '../../prisma/migrations')).filter((f) => /^\d{14}_/.test(f)).sort();

  it('reports the migrations it applied, and none once the schema is up to date', async () => {
    const db = await isolatedDatabase('migrate', { migrated: false });
    try {
      expect(await pendingMigrations(db.url)).toEqual(committed);
      expect(await applyMigrations(db.url)).toEqual(committed);
      expect(await pendingMigrations(db.url)).toEqual([]);
      expect(await applyMigrations(db.url)).toEqual([]);
    } finally {
      await db.drop();
    }
  });

  it('says in the server log which migrations a start applied', async () => {
    const db = await isolatedDatabase('migrate_log', { migrated: false });
    const lines: string[] = [];
    configureLogger('info', new Writable({ write: (chunk: Buffer, _enc, done) => (lines.push(chunk.toString()), done()) }));
    try {
      const config = { url: db.url, poolMax: 1, dataDir: '', migrateOnStart: true };
      await (await openDatabase(config)).close();
      await (await openDatabase(config)).close();
      const logged = lines.map((l) => JSON.parse(l) as { msg: string; migrations?: string[] }).filter((l) => l.msg === 'database migrations applied');
      expect(logged.map((l) => l.migrations)).toEqual([committed]);
    } finally {
      configureLogger('silent');
      await db.drop();
    }
  });
});
