import { createHash } from 'node:crypto';
import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { transpileModule, ModuleKind } from 'typescript';
import { ClaimOptions, claimDataDir } from './data-dir-lock';

const LOCK = 'fieldpost.lock';

/** A pid that certainly names no process: one that has just exited and been reaped. */
function deadPid(): number {
  return Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout.toString());
}

/**
 * A claimant in a process of its own (a claim names its process, and one process never claims a
 * folder twice). On each line "go <links|no-links> <dir>" it claims the folder (with or without hard
 * links) and answers "won" or "lost <message>", keeping what it won until its input ends.
 */
function claimant(module: string): { child: ChildProcess; next: () => Promise<string> } {
  const code = `
    const { claimDataDir } = require(${JSON.stringify(module)});
    require('node:readline').createInterface({ input: process.stdin }).on('line', (line) => {
      const [mode, ...dir] = line.slice(3).split(' ');
      try { claimDataDir(dir.join(' '), { hardLinks: mode === 'links' }); console.log('won'); } catch (err) { console.log('lost ' + err.message); }
    });
    console.log('ready');`;
  const child = spawn(process.execPath, ['-e', code], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines: string[] = [];
  const waiting: ((line: string) => void)[] = [];
  createInterface({ input: child.stdout! }).on('line', (line) => {
    const w = waiting.shift();
    if (w) w(line);
    else lines.push(line);
  });
  const next = () => (lines.length ? Promise.resolve(lines.shift()!) : new Promise<string>((done) => waiting.push(done)));
  return { child, next };
}

describe('the DATA_DIR claim', () => {
  let root: string;
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'fieldpost-lock-'));
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it.each(['links', 'no-links'])('lets exactly one of several servers starting at once take over a claim left by a dead process (%s)', async (mode) => {
    // The module as plain JavaScript, so that separate node processes can load it.
    const module = join(root, 'data-dir-lock.js');
    const source = readFileSync(join(__dirname, 'data-dir-lock.ts'), 'utf8');
    writeFileSync(module, transpileModule(source, { compilerOptions: { module: ModuleKind.CommonJS } }).outputText);
    const claimants = Array.from({ length: 6 }, () => claimant(module));
    try {
      for (const c of claimants) expect(await c.next()).toBe('ready');
      const stale = deadPid();
      for (let round = 0; round < 15; round++) {
        const dir = mkdtempSync(join(root, 'data-'));
        writeFileSync(join(dir, LOCK), `${stale}\n`);
        for (const c of claimants) c.child.stdin!.write(`go ${mode} ${dir}\n`);
        const answers = await Promise.all(claimants.map((c) => c.next()));
        const winners = claimants.filter((_, i) => answers[i] === 'won');
        expect({ round, winners: winners.length }).toEqual({ round, winners: 1 });
        const holder = winners[0]!.child.pid!;
        expect(Number.parseInt(readFileSync(join(dir, LOCK), 'utf8'), 10)).toBe(holder);
        expect(readdirSync(dir)).toEqual([LOCK]);
        for (const answer of answers.filter((a) => a !== 'won')) {
          expect(answer).toContain(`is in use by another Fieldpost process (pid ${holder})`);
          expect(answer).toContain(`remove ${join(dir, LOCK)}`);
        }
      }
    } finally {
      for (const c of claimants) c.child.kill('SIGKILL');
    }
  }, 60_000);

  it('is not locked out by a takeover whose taker died in the middle of it', () => {
    const dir = mkdtempSync(join(root, 'data-'));
    const stale = `${deadPid()}\n`;
    writeFileSync(join(dir, LOCK), stale);
    writeFileSync(join(dir, `${LOCK}.takeover-${createHash('sha256').update(stale).digest('hex').slice(0, 16)}`), `${deadPid()}\n`);
    const release = claimDataDir(dir);
    expect(readdirSync(dir)).toEqual([LOCK]);
    expect(Number.parseInt(readFileSync(join(dir, LOCK), 'utf8'), 10)).toBe(process.pid);
    release();
    expect(readdirSync(dir)).toEqual([]);
  });

  describe('a claim naming a live process', () => {
    let other: ChildProcess;
    let pid: number;
    /** Field 22 of /proc/<pid>/stat, after the command name in parentheses. */
    const startTime = () => readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[19]!;
    beforeAll(() => {
      other = spawn('sleep', ['60'], { stdio: 'ignore' });
      pid = other.pid!;
    });
    afterAll(() => other.kill('SIGKILL'));
    const claimWith = (text: string) => {
      const dir = mkdtempSync(join(root, 'data-'));
      writeFileSync(join(dir, LOCK), text);
      return { dir, claim: (options?: ClaimOptions) => claimDataDir(dir, options) };
    };

    it('is refused when that process is the one that made it', () => {
      const { dir, claim } = claimWith(`${pid} ${startTime()} 0123456789abcdef\n`);
      expect(claim).toThrow(`DATA_DIR ${dir} is in use by another Fieldpost process (pid ${pid})`);
      expect(claim).toThrow(`remove ${join(dir, LOCK)}`);
    });

    it('is taken over when the pid was reused by another process, which started at another time', () => {
      const { dir, claim } = claimWith(`${pid} ${Number(startTime()) - 1} 0123456789abcdef\n`);
      claim()();
      expect(readdirSync(dir)).toEqual([]);
    });

    it('is waited for while its writer has not finished it (a file system without hard links), then refused', () => {
      const { dir, claim } = claimWith('');
      // The claim's writer is another process: this one waits without turning its event loop.
      spawn('sh', ['-c', `sleep 0.3; printf '%s' '${pid} ${startTime()} 0123456789abcdef\n' >> ${join(dir, LOCK)}`], { stdio: 'ignore' });
      const started = Date.now();
      expect(() => claim({ hardLinks: false })).toThrow(`DATA_DIR ${dir} is in use by another Fieldpost process (pid ${pid})`);
      expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    });

    it('is taken over when its writer never finishes it (it died between creating and writing)', () => {
      const { dir, claim } = claimWith('');
      const release = claim({ hardLinks: false });
      expect(Number.parseInt(readFileSync(join(dir, LOCK), 'utf8'), 10)).toBe(process.pid);
      release();
      expect(readdirSync(dir)).toEqual([]);
    });

    it('is refused when it names no start time (written by an older server, or where /proc is absent)', () => {
      const { dir, claim } = claimWith(`${pid}\n`);
      expect(claim).toThrow(`DATA_DIR ${dir} is in use by another Fieldpost process (pid ${pid})`);
    });
  });
});
