import { testPrisma } from '../../test/support/database';
import { onPostgresServer } from '../../test/support/isolated-database';

describe('PrismaService.statementName', () => {
  // A pool of one is the embedded database's, and a valid DATABASE_POOL_MAX: the transaction
  // holds the only connection, so learning whether names are allowed must not need another.
  it('answers inside a transaction on a pool of one, before it has ever asked the server', async () => {
    const p = testPrisma(1);
    try {
      const started = Date.now();
      const got = await p.$transaction(async (tx) => {
        await p.statementName('probe');
        return tx.$queryRawUnsafe<Array<{ one: number }>>('SELECT 1 AS one');
      }, { timeout: 4000 });
      expect(got).toEqual([{ one: 1 }]);
      expect(Date.now() - started).toBeLessThan(3000);
    } finally {
      await p.onModuleDestroy();
    }
  });

  it('names statements once it knows the server is a Postgres server, and never on PGlite', async () => {
    const p = testPrisma(1);
    try {
      await p.statementName('probe');
      let name: string | undefined;
      for (let i = 0; i < 50 && name === undefined; i++) {
        await p.pool.query('SELECT 1');
        name = await p.statementName('probe');
      }
      expect(name).toBe(onPostgresServer ? 'probe' : undefined);
    } finally {
      await p.onModuleDestroy();
    }
  });
});
