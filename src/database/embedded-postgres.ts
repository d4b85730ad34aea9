import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { claimDataDir } from './data-dir-lock';

export { DataDirInUseError } from './data-dir-lock';

/**
 * Postgres compiled to WebAssembly, persisted in a folder and served over the wire protocol,
 * so Prisma (client and migrations) talks to it exactly as to a real server. PGlite runs one
 * session: statements from all connections take turns.
 *
 * It is served on a Unix socket in a folder only this user may enter, not on a loopback port:
 * PGlite asks no password and every connection is a superuser, so on a port any local process
 * could read the games' secret dice seeds, change any row, or hold a transaction open and stall
 * the server.
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
  let socketDir: string | undefined;
  try {
    db = await PGlite.create(dir);
    // PGlite is one session; the socket server queues every connection's statements onto it and
    // keeps an open transaction's connection first in line, so several connections are safe. More
    // than one is needed anyway: a connection the pool drops after an error is replaced before
    // the server has let go of the old one, and a second would be refused.
    // mkdtemp makes the folder 0700; the socket bears the name a Postgres client looks for in it.
    socketDir = mkdtempSync(join(tmpdir(), 'fieldpost-pg-'));
    const server = new PGLiteSocketServer({ db, path: join(socketDir, '.s.PGSQL.5432'), maxConnections: MAX_CONNECTIONS });
    await server.start();
    const open = db;
    const sockets = socketDir;
    let stopped = false;
    return {
      url: `postgresql://postgres@localhost/postgres?host=${encodeURIComponent(sockets)}`,
      dataDir: dir,
      async stop() {
        if (stopped) return;
        stopped = true;
        await server.stop();
        await open.close();
        rmSync(sockets, { recursive: true, force: true });
        release();
      },
    };
  } catch (err) {
    await db?.close().catch(() => undefined);
    if (socketDir) rmSync(socketDir, { recursive: true, force: true });
    release();
    throw err;
  }
}
