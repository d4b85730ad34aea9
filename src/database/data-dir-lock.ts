import { createHash, randomBytes } from 'node:crypto';
import { closeSync, linkSync, openSync, readFileSync, renameSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';

const LOCK_FILE = 'fieldpost.lock';
/** The folders this process has open: a second open in the same process is refused too. */
const claimed = new Set<string>();

/**
 * `hardLinks: false` creates the claim as on a file system without hard links (some network and
 * FAT mounts), as the claim does by itself where linking fails there; tests use it to run that way
 * on any file system.
 */
export interface ClaimOptions {
  hardLinks?: boolean;
}

/**
 * Claims the folder for this process until it stops. PGlite keeps the database in memory and
 * writes its files as it goes, without locking them (its postmaster.pid names no process): two
 * processes on one folder would each overwrite the other's writes. The claim is a file naming the
 * process (its id and start time); a claim whose process is gone (killed, crashed) is stale and taken over, so a
 * server killed with SIGKILL does not lock out the next one.
 */
export function claimDataDir(dir: string, options: ClaimOptions = {}): () => void {
  const file = join(dir, LOCK_FILE);
  if (claimed.has(dir)) throw inUse(dir, process.pid, file);
  const mine = claimText();
  try {
    claim(file, mine, options.hardLinks !== false);
  } catch (err) {
    if (err instanceof Held) throw inUse(dir, err.pid, file);
    throw err;
  }
  claimed.add(dir);
  return () => {
    if (!claimed.delete(dir)) return;
    if (read(file) === mine) rmSync(file, { force: true });
  };
}

/** How long a takeover by another live process may take before that process is named as the holder. */
const TAKEOVER_WAIT_MS = 2000;

/** Thrown by `claim` when a live process holds the file. */
class Held {
  constructor(readonly pid: number) {}
}

/**
 * Creates `file` holding `mine`, or takes it over from a holder that is gone. Servers started at
 * the same moment after a crash all find the same stale claim: removing it and creating their own
 * would let a slow one remove a claim just made by a fast one, and both would run. So a stale claim
 * is replaced only by the process that creates the takeover file named after that very claim's
 * text, itself a claim (taken over the same way if its taker died in between).
 */
function claim(file: string, mine: string, links: boolean): void {
  for (let waited = 0, unfinished = 0; ; ) {
    if (create(file, mine, links)) return;
    const held = read(file);
    if (held === undefined) continue;
    // Created without a link, a claim is empty or part-written for a moment, while its writer is
    // alive: read as it stands, it would name no process, and be taken over.
    if (!held.endsWith('\n') && unfinished < TAKEOVER_WAIT_MS) {
      pause();
      unfinished += 10;
      continue;
    }
    const holder = holderOf(held);
    // The file naming this very process is left by an earlier run that had the same id (a container restarted).
    if (holder.pid !== process.pid && isRunning(holder)) throw new Held(holder.pid);
    const takeover = `${file}.takeover-${createHash('sha256').update(held).digest('hex').slice(0, 16)}`;
    try {
      claim(takeover, mine, links);
    } catch (err) {
      // Another process is taking the claim over: the one to name is the one it ends up holding,
      // which may not be that process (it may find the claim already taken over and stand back).
      if (!(err instanceof Held) || waited >= TAKEOVER_WAIT_MS) throw err;
      pause();
      waited += 10;
      continue;
    }
    try {
      if (read(file) === held) return replace(file, mine);
    } finally {
      rmSync(takeover, { force: true });
    }
  }
}

function pause(): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10);
}

/** What link(2) answers where the file system has no hard links. */
const NO_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS']);

/**
 * Never shows a half-written claim where it can: the text is written aside, then linked in whole
 * or not at all. Where the file system has no hard links, the file is created exclusively and
 * written at once, and readers wait for its line to end (`claim`).
 */
function create(file: string, text: string, links: boolean): boolean {
  if (!links) return createExclusive(file, text);
  const aside = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  writeFileSync(aside, text);
  try {
    linkSync(aside, file);
    return true;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? '';
    if (code === 'EEXIST') return false;
    if (NO_LINKS.has(code)) return createExclusive(file, text);
    throw err;
  } finally {
    rmSync(aside, { force: true });
  }
}

function createExclusive(file: string, text: string): boolean {
  let fd: number;
  try {
    fd = openSync(file, 'wx');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  }
  try {
    writeSync(fd, text);
  } finally {
    closeSync(fd);
  }
  return true;
}

function replace(file: string, text: string): void {
  const aside = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  writeFileSync(aside, text);
  renameSync(aside, file);
}

function read(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

/**
 * A pid alone does not name a process: once the holder is gone, the system may give its pid to any
 * new process. The start time beside it does; where it is unknown (no /proc, or a claim written by an
 * older server) the pid alone tells.
 */
function isRunning(holder: Holder): boolean {
  const { pid, start } = holder;
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  const stat = procStat(pid);
  if (!stat) return true;
  // A killed process whose parent has not yet waited for it keeps its pid but holds no files.
  if (stat.state === 'Z' || stat.state === 'X') return false;
  return start === undefined || start === stat.start;
}

/** The state and start time (clock ticks since boot) of a process, on Linux. */
function procStat(pid: number): { state: string; start: string } | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // The command name, in parentheses, may itself hold ") ": the fields from the state (3rd) on follow the last one.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { state: fields[0] ?? '', start: fields[19] ?? '' };
}

interface Holder {
  pid: number;
  start?: string;
}

/** A claim's text is "<pid> <start time or -> <random>": the random part makes each claim's text unique. */
function claimText(): string {
  return `${process.pid} ${procStat(process.pid)?.start ?? '-'} ${randomBytes(8).toString('hex')}\n`;
}

function holderOf(text: string): Holder {
  const [pid, start] = text.trim().split(/\s+/);
  return { pid: Number(pid), start: start && /^\d+$/.test(start) ? start : undefined };
}

/** DATA_DIR cannot serve as the database's folder: a refusal to start, told as plainly as a bad setting. */
export class DataDirError extends Error {}

/** Another process serves DATA_DIR. */
export class DataDirInUseError extends DataDirError {}

function inUse(dir: string, pid: number, file: string): Error {
  return new DataDirInUseError(
    `DATA_DIR ${dir} is in use by another Fieldpost process (pid ${Number.isInteger(pid) ? pid : 'unknown'}): stop it, or give this server another DATA_DIR. ` +
      `If no Fieldpost process uses the folder, remove ${file}.`,
  );
}
