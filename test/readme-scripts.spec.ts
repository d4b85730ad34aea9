import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';

// Every npm command the README shows exists, and what it runs is built from a source that exists.

const root = resolve(__dirname, '..');
const readme = readFileSync(resolve(root, 'README.md'), 'utf8');
const scripts = (JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;

describe('the npm scripts the README names', () => {
  const named = [...new Set([...readme.matchAll(/npm (?:run ([a-z:-]+)|(start|test)\b)/g)].map((m) => m[1] ?? m[2]!))];

  it('are all in package.json', () => {
    expect(named).toEqual(expect.arrayContaining(['start', 'test', 'build', 'verify-dice', 'bench:submit']));
    expect(named.filter((name) => !(name in scripts))).toEqual([]);
  });

  it('run compiled files whose TypeScript source exists, and node scripts that exist', () => {
    const missing = named.flatMap((name) =>
      [...(scripts[name] ?? '').matchAll(/node (\S+\.m?js)/g)].map((m) => m[1]!).filter((file) => {
        const source = file.startsWith('dist/') ? file.replace(/^dist\//, '').replace(/\.js$/, '.ts') : file;
        return !existsSync(resolve(root, source));
      }),
    );
    expect(missing).toEqual([]);
  });
});
