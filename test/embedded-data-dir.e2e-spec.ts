import { ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const main = resolve(__dirname, '../dist/src/main.js');

interface Server {
  child: ChildProcess;
  output: () => string;
  /** The address it listens on, once it does; rejects if it exits first. */
  url: Promise<string>;
  exited: Promise<number | null>;
}

function start(dataDir: string): Server {
  const child = spawn(process.execPath, [main], {
    env: { PATH: process.env.PATH ?? '', NODE_ENV: 'test', HOST: '127.0.0.1', PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
  const url = new Promise<string>((done, fail) => {
    const read = (d: Buffer) => {
      text += d.toString();
      const m = /"url":"(http:\/\/127\.0\.0\.1:\d+)"[^\n]*"Fieldpost is listening"/.exec(text);
      if (m) done(m[1]!);
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    void exited.then((code) => fail(new Error(`the server exited (${code}) before listening:\n${text.slice(-2000)}`)));
  });
  url.catch(() => undefined);
  return { child, output: () => text, url, exited };
}

/** The folder of the embedded database's socket, from the start's log line that gives its address. */
function socketFolderOf(output: string): string {
  const psql = /"psql":"([^"]+)"[^\n]*"embedded database started"/.exec(output);
  expect(psql).not.toBeNull();
  return decodeURIComponent(new URL(psql![1]!).searchParams.get('host')!);
}

async function health(url: string): Promise<number> {
  return (await fetch(`${url}/health`)).status;
}

/**
 * The embedded database is one PGlite per process over the files of DATA_DIR: two processes on the
 * same folder would each keep their own copy in memory and overwrite each other's writes.
 */
describe('the embedded database folder', () => {
  let dataDir: string;
  const started: Server[] = [];
  beforeAll(() => {
    expect(existsSync(main)).toBe(true);
    dataDir = mkdtempSync(join(tmpdir(), 'fieldpost-datadir-'));
  });
  afterAll(async () => {
    for (const s of started) if (s.child.exitCode === null && s.child.signalCode === null) s.child.kill('SIGKILL');
    await Promise.all(started.map((s) => s.exited));
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('refuses a second server on a folder in use, naming it, and is taken over once its server was killed', async () => {
    const first = start(dataDir);
    started.push(first);
    const firstUrl = await first.url;

    const second = start(dataDir);
    started.push(second);
    expect(await second.url.then(() => 'listening', () => 'stopped')).toBe('stopped');
    expect(await second.exited).not.toBe(0);
    expect(second.output()).toContain(`DATA_DIR ${dataDir} is in use by another Fieldpost process (pid ${first.child.pid})`);
    expect(second.output()).not.toMatch(/\n\s+at /);
    expect(await health(firstUrl)).toBe(200);

    // Killed, the first leaves its claim behind: the next server must not be locked out by it.
    const firstSockets = socketFolderOf(first.output());
    first.child.kill('SIGKILL');
    await first.exited;
    expect(existsSync(firstSockets)).toBe(true);
    const third = start(dataDir);
    started.push(third);
    expect(await health(await third.url)).toBe(200);
    // Nor does it leave the killed server's socket folder behind in the temporary folder for good.
    expect(existsSync(firstSockets)).toBe(false);
    expect(existsSync(socketFolderOf(third.output()))).toBe(true);
    third.child.kill('SIGTERM');
    expect(await third.exited).toBe(0);

    // Stopped cleanly, it let go of the folder.
    const fourth = start(dataDir);
    started.push(fourth);
    expect(await health(await fourth.url)).toBe(200);
    fourth.child.kill('SIGTERM');
    expect(await fourth.exited).toBe(0);
  }, 240_000);

  it('refuses a DATA_DIR that is a file, or a folder of other files it would litter, saying so in one line', async () => {
    const base = mkdtempSync(join(tmpdir(), 'fieldpost-baddir-'));
    try {
      const file = join(base, 'a-file');
      writeFileSync(file, 'not a folder');
      const notes = join(base, 'notes');
      mkdirSync(notes);
      writeFileSync(join(notes, 'todo.txt'), 'mine');
      const cases: Array<[string, string]> = [
        [file, `DATA_DIR ${file} cannot be used: it is a file, not a folder.`],
        [notes, `DATA_DIR ${notes} holds other files (todo.txt) and no Fieldpost database: give DATA_DIR an empty or new folder.`],
      ];
      for (const [dir, message] of cases) {
        const server = start(dir);
        started.push(server);
        expect(await server.exited).toBe(1);
        expect(server.output()).toContain(message);
        expect(server.output()).not.toMatch(/\n\s+at |EEXIST/);
      }
      // The user's folder is as it was: no database files were written next to their own.
      expect(readdirSync(notes)).toEqual(['todo.txt']);
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
  }, 60_000);

  it('takes over a folder whose server was killed but not yet reaped by its parent', async () => {
    // A parent that never waits for its child (here: sh replaced by sleep) leaves the killed server
    // a zombie: it still has its pid, but it holds no files and writes nothing.
    const parent = spawn('sh', ['-c', `"${process.execPath}" "${main}" & echo "pid $!"; exec sleep 600`], {
      env: { PATH: process.env.PATH ?? '', NODE_ENV: 'test', HOST: '127.0.0.1', PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    try {
      let text = '';
      await new Promise<void>((done) =>
        parent.stdout!.on('data', (d: Buffer) => {
          text += d.toString();
          if (text.includes('Fieldpost is listening')) done();
        }),
      );
      const pid = Number(/^pid (\d+)/m.exec(text)![1]);
      process.kill(pid, 'SIGKILL');
      const state = () => /\) (\S)/.exec(readFileSync(`/proc/${pid}/stat`, 'utf8'))![1];
      while (state() !== 'Z') await new Promise((r) => setTimeout(r, 50));
      const next = start(dataDir);
      started.push(next);
      expect(await health(await next.url)).toBe(200);
      // Stopped, not killed, so that it takes its socket folder with it.
      next.child.kill('SIGTERM');
      expect(await next.exited).toBe(0);
    } finally {
      parent.kill('SIGKILL');
    }
  }, 240_000);
});
