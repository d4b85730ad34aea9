import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { caseSchema } from '../../src/rules/testing/case-runner';

export interface CaseFile {
  /** The path below the cases folder, e.g. "movement/rejected-zoc.json". */
  file: string;
  json: unknown;
}

/** Every rule case (a .json file) below `root`, in path order. */
export function loadCases(root: string): CaseFile[] {
  const files = (dir: string): string[] =>
    readdirSync(dir)
      .sort()
      .flatMap((f) => {
        const p = join(dir, f);
        return statSync(p).isDirectory() ? files(p) : f.endsWith('.json') ? [p] : [];
      });
  return files(root).map((f) => ({ file: relative(root, f), json: JSON.parse(readFileSync(f, 'utf8')) as unknown }));
}

/** Fails naming the file and the problems when a case does not match the case schema. */
export function expectWellFormed(cases: CaseFile[]): void {
  if (cases.length === 0) throw new Error('no rule cases found');
  for (const c of cases) {
    const r = caseSchema.safeParse(c.json);
    if (!r.success) throw new Error(`${c.file}: ${r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  }
}
