import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * src/rules is pure (STYLE.md, issue 3): no framework, database or I/O
 * imports, no clock, no Math.random. Specs are exempt (they read case files).
 */
const root = __dirname;

const BANNED_MODULES = [
  /^@nestjs\//,
  /^@prisma\//,
  /^prisma$/,
  /^pg(-.*)?$/,
  /^node:/,
  /^(fs|fs\/promises|path|os|http|https|http2|net|tls|dgram|dns|child_process|cluster|worker_threads|process|readline|stream|zlib|crypto|vm|v8|perf_hooks|async_hooks|inspector|timers)$/,
  /^(express|nodemailer|ws|pino|rxjs|@electric-sql\/.*|@apollo\/.*|graphql)$/,
];

const BANNED_CODE: [RegExp, string][] = [
  [/\bDate\.now\s*\(/, 'Date.now()'],
  [/\bnew\s+Date\s*\(/, 'new Date('],
  [/\bMath\.random\s*\(/, 'Math.random()'],
  [/\bperformance\.now\s*\(/, 'performance.now()'],
  [/\bprocess\.(env|hrtime|argv)\b/, 'process.*'],
  [/\brequire\s*\(/, 'require('],
  [/\bimport\s*\(/, 'dynamic import('],
];

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    if (statSync(p).isDirectory()) return sources(p);
    return p.endsWith('.ts') && !p.endsWith('.spec.ts') ? [p] : [];
  });
}

/** Module specifiers of static imports and re-exports. */
export function importsOf(code: string): string[] {
  const out: string[] = [];
  const re = /(?:^|[\n;])\s*(?:import|export)\s[^'";]*?from\s*['"]([^'"]+)['"]|(?:^|[\n;])\s*import\s*['"]([^'"]+)['"]/g;
  for (let m = re.exec(code); m !== null; m = re.exec(code)) out.push((m[1] ?? m[2])!);
  return out;
}

/** Offences in one file's code, as "what" strings. */
export function offences(code: string): string[] {
  const bad: string[] = [];
  for (const spec of importsOf(code)) if (BANNED_MODULES.some((r) => r.test(spec))) bad.push(`imports "${spec}"`);
  const stripped = code.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:])\/\/.*$/gm, '$1');
  for (const [re, what] of BANNED_CODE) if (re.test(stripped)) bad.push(`uses ${what}`);
  return bad;
}

describe('purity of src/rules', () => {
  it('no rules source imports frameworks or I/O, or reads the clock or Math.random', () => {
    const files = sources(root);
    expect(files.length).toBeGreaterThan(20);
    const found = files.flatMap((f) => offences(readFileSync(f, 'utf8')).map((o) => `${relative(root, f)}: ${o}`));
    expect(found).toEqual([]);
  });

  it('the checker itself catches what it should', () => {
    expect(offences(`import { readFileSync } from 'node:fs';`)).toEqual(['imports "node:fs"']);
    expect(offences(`import * as fs from "fs";\nexport { x } from '@nestjs/common';`)).toEqual(['imports "fs"', 'imports "@nestjs/common"']);
    expect(offences(`import { PrismaClient } from '@prisma/client'; import pg from 'pg';`)).toEqual(['imports "@prisma/client"', 'imports "pg"']);
    expect(offences(`const t = Date.now();`)).toEqual(['uses Date.now()']);
    expect(offences(`const r = Math.random() * 6;`)).toEqual(['uses Math.random()']);
    expect(offences(`const d = new Date();`)).toEqual(['uses new Date(']);
    expect(offences(`// Math.random() is mentioned in a comment only\nconst x = 1;`)).toEqual([]);
    expect(offences(`import { z } from 'zod';\nimport { hex } from '../hex/grid';`)).toEqual([]);
  });
});
