import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

/**
 * Postgres compiled to WebAssembly, persisted in a folder and served over the wire protocol
 * on a loopback port, so Prisma (client and migrations) talks to it exactly as to a real
 * server. PGlite runs one session, so everything that connects must use a single connection.
 */
export interface EmbeddedPostgres {
  url: string;
  dataDir: string;
  stop(): Promise<void>;
}

export async function startEmbeddedPostgres(dataDir: string): Promise<EmbeddedPostgres> {
  const dir = resolve(dataDir);
  mkdirSync(dir, { recursive: true });
  const db = await PGlite.create(dir);
  const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections: 1 });
  await server.start();
  let stopped = false;
  return {
    url: `postgresql://postgres@${server.getServerConn()}/postgres?sslmode=disable`,
    dataDir: dir,
    async stop() {
      if (stopped) return;
      stopped = true;
      await server.stop();
      await db.close();
    },
  };
}
