import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { claimDataDir } from './data-dir-lock';

export { DataDirInUseError } from './data-dir-lock';

/**
 * Postgres compiled to WebAssembly, persisted in a folder and served over the wire protocol
 * on a loopback port, so Prisma (client and migrations) talks to it exactly as to a real
 * server. PGlite runs one session: statements from all connections take turns.
 */
const MAX_CONNECTIONS = 16;

export interface EmbeddedPostgres {
  url: string;
  dataDir: string;
  stop(): Promise<void>;
}

export async function startEmbeddedPostgres(dataDir: string): Promise<EmbeddedPostgres> {
  const dir = resolve(dataDir);
  mkdirSync(dir, { recursive: true });
  const release = claimDataDir(dir);
  let db: PGlite | undefined;
  try {
    db = await PGlite.create(dir);
    // PGlite is one session; the socket server queues every connection's statements onto it and
    // keeps an open transaction's connection first in line, so several connections are safe. More
    // than one is needed anyway: a connection the pool drops after an error is replaced before
    // the server has let go of the old one, and a second would be refused.
    const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections: MAX_CONNECTIONS });
    await server.start();
    const open = db;
    let stopped = false;
    return {
      url: `postgresql://postgres@${server.getServerConn()}/postgres?sslmode=disable`,
      dataDir: dir,
      async stop() {
        if (stopped) return;
        stopped = true;
        await server.stop();
        await open.close();
        release();
      },
    };
  } catch (err) {
    await db?.close().catch(() => undefined);
    release();
    throw err;
  }
}
