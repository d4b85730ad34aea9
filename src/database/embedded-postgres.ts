import { accessSync, constants, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { claimDataDir, DataDirError } from './data-dir-lock';

export { DataDirError, DataDirInUseError } from './data-dir-lock';

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
  usable(dir);
  const release = claimDataDir(dir);
  let db: PGlite | undefined;
  let socketDir: string | undefined;
  try {
    db = await PGlite.create(dir).catch((err: unknown) => {
      throw new DataDirError(`The database in DATA_DIR ${dir} could not be opened (${err instanceof Error ? err.message : String(err)}): it may be damaged. Restore the folder from a backup, or give DATA_DIR a new folder.`);
    });
    // PGlite is one session; the socket server queues every connection's statements onto it and
    // keeps an open transaction's connection first in line, so several connections are safe. More
    // than one is needed anyway: a connection the pool drops after an error is replaced before
    // the server has let go of the old one, and a second would be refused.
    // mkdtemp makes the folder 0700; the socket bears the name a Postgres client looks for in it.
    clearStaleSockets(dir);
    socketDir = mkdtempSync(join(tmpdir(), SOCKET_PREFIX));
    writeFileSync(join(dir, SOCKET_NOTE), `${socketDir}\n`);
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
        rmSync(join(dir, SOCKET_NOTE), { force: true });
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

const SOCKET_PREFIX = 'fieldpost-pg-';
/** Names the socket folder of the server that holds DATA_DIR, for the next one to clear if it was killed. */
const SOCKET_NOTE = 'fieldpost.socket';

/**
 * A server killed with SIGKILL cannot remove its socket folder; the next one on the same DATA_DIR
 * can, as holding the folder's claim proves that server gone. Only a folder of the name this code
 * makes, directly in the temporary folder, is removed, whatever the note says.
 */
function clearStaleSockets(dir: string): void {
  let noted: string;
  try {
    noted = readFileSync(join(dir, SOCKET_NOTE), 'utf8').trim();
  } catch {
    return;
  }
  if (dirname(noted) === resolve(tmpdir()) && /^fieldpost-pg-[A-Za-z0-9]{6}$/.test(basename(noted))) rmSync(noted, { recursive: true, force: true });
  rmSync(join(dir, SOCKET_NOTE), { force: true });
}

/**
 * A folder the database may live in: new, empty, or one it made. A mistyped DATA_DIR (a home
 * folder, a file) was filled with Postgres files, or failed with a bare EEXIST that named nothing.
 */
function usable(dir: string): void {
  let entries: string[];
  try {
    mkdirSync(dir, { recursive: true });
    entries = readdirSync(dir);
    accessSync(dir, constants.W_OK);
  } catch (err) {
    const why = (err as NodeJS.ErrnoException).code === 'EEXIST' || (err as NodeJS.ErrnoException).code === 'ENOTDIR' ? 'it is a file, not a folder' : (err as Error).message;
    throw new DataDirError(`DATA_DIR ${dir} cannot be used: ${why}. Give DATA_DIR a folder this user may write.`);
  }
  const others = entries.filter((e) => !e.startsWith('fieldpost.lock') && e !== SOCKET_NOTE);
  if (others.length > 0 && !entries.includes('PG_VERSION')) {
    throw new DataDirError(`DATA_DIR ${dir} holds other files (${others.slice(0, 3).join(', ')}${others.length > 3 ? ', …' : ''}) and no Fieldpost database: give DATA_DIR an empty or new folder.`);
  }
}
