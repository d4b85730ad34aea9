import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '..');

/**
 * The built server started on a copy of the project whose src/scenarios holds what a test
 * writes there: the scenarios are read from the project root, so they cannot be swapped in place.
 */
function project(): string {
  const root = mkdtempSync(join(tmpdir(), 'fieldpost-scenarios-'));
  cpSync(join(ROOT, 'dist'), join(root, 'dist'), { recursive: true });
  for (const f of ['prisma', 'scripts', 'prisma.config.ts', 'package.json']) cpSync(join(ROOT, f), join(root, f), { recursive: true });
  symlinkSync(join(ROOT, 'node_modules'), join(root, 'node_modules'), 'dir');
  cpSync(join(ROOT, 'src/scenarios/gators-unnarstan'), join(root, 'src/scenarios/gators-unnarstan'), { recursive: true });
  return root;
}

function run(root: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [join(root, 'dist/src/main.js')], {
    env: { PATH: process.env.PATH ?? '', NODE_ENV: 'test', HOST: '127.0.0.1', PORT: '0', DATA_DIR: join(root, 'data'), LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  return new Promise((done) =>
    child.on('exit', (code) => {
      clearTimeout(timer);
      done({ code, stdout, stderr });
    }),
  );
}

describe('a scenario refused at start', () => {
  const roots: string[] = [];
  afterAll(() => roots.forEach((r) => rmSync(r, { recursive: true, force: true })));

  it('is reported in plain lines (scenario, file, JSON path, every mistake) and exits 78, like a configuration error', async () => {
    const root = project();
    roots.push(root);
    const dir = join(root, 'src/scenarios/gators-unnarstan');
    const rules = JSON.parse(readFileSync(join(dir, 'rules.json'), 'utf8'));
    rules.combat.odds.columns[9].min = 7;
    writeFileSync(join(dir, 'rules.json'), JSON.stringify(rules));
    const setup = JSON.parse(readFileSync(join(dir, 'setup.json'), 'utf8'));
    setup.zones['p2-land'].medium = 'lnd';
    writeFileSync(join(dir, 'setup.json'), JSON.stringify(setup));
    mkdirSync(join(root, 'src/scenarios/draft'));

    const { code, stdout, stderr } = await run(root);
    expect(code).toBe(78);
    expect(stderr).toMatch(/^scenario gators-unnarstan refused: 2 mistakes\n/);
    expect(stderr).toContain('\n  rules.json at combat.odds.columns[9]: no column for odds 6');
    expect(stderr).toContain('\n  setup.json at zones["p2-land"].medium: "lnd" is not a medium of terrain.json');
    expect(stderr).not.toMatch(/\n\s+at |"level":"fatal"/);
    expect(stdout).toMatch(/"msg":"scenario folder draft skipped: it has no scenario\.json/);
    expect(stdout).not.toMatch(/"level":"fatal"/);
  }, 90_000);
});
