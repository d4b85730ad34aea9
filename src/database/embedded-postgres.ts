import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

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

const LOCK_FILE = 'fieldpost.lock';
/** The folders this process has open: a second open in the same process is refused too. */
const claimed = new Set<string>();

/**
 * Claims the folder for this process until it stops. PGlite keeps the database in memory and
 * writes its files as it goes, without locking them (its postmaster.pid names no process): two
 * processes on one folder would each overwrite the other's writes. The claim is a file holding the
 * process id; a claim whose process is gone (killed, crashed) is stale and taken over, so a
 * server killed with SIGKILL does not lock out the next one.
 */
function claimDataDir(dir: string): () => void {
  const file = join(dir, LOCK_FILE);
  if (claimed.has(dir)) throw inUse(dir, process.pid, file);
  for (let attempt = 0; ; attempt++) {
    try {
      writeFileSync(file, `${process.pid}\n`, { flag: 'wx' });
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const pid = Number.parseInt(readFileSync(file, 'utf8'), 10);
      // Another attempt means another process took the stale claim over at the same moment.
      // The file naming this very process is left by an earlier run that had the same id (a container restarted).
      if (attempt > 0 || (pid !== process.pid && isRunning(pid))) throw inUse(dir, pid, file);
      rmSync(file, { force: true });
    }
  }
  claimed.add(dir);
  return () => {
    if (!claimed.delete(dir)) return;
    rmSync(file, { force: true });
  };
}

function isRunning(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
  return !isZombie(pid);
}

/**
 * A killed process whose parent has not yet waited for it keeps its pid but holds no files. Linux
 * tells it by its state (Z) in /proc; elsewhere it counts as running.
 */
function isZombie(pid: number): boolean {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return false;
  }
  // The command name, in parentheses, may itself hold ") ": the state follows the last one.
  const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
  return state === 'Z' || state === 'X';
}

/** Another process serves DATA_DIR: a refusal to start, told as plainly as a bad setting. */
export class DataDirInUseError extends Error {}

function inUse(dir: string, pid: number, file: string): Error {
  return new DataDirInUseError(
    `DATA_DIR ${dir} is in use by another Fieldpost process (pid ${Number.isInteger(pid) ? pid : 'unknown'}): stop it, or give this server another DATA_DIR. ` +
      `If no Fieldpost process uses the folder, remove ${file}.`,
  );
}
