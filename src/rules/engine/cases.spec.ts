import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { caseSchema, runCase } from '../testing/case-runner';

/** Every rule case under ./cases, one test each; each case cites the rule it checks. */
const root = join(__dirname, 'cases');

function files(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((f) => {
      const p = join(dir, f);
      return statSync(p).isDirectory() ? files(p) : f.endsWith('.json') ? [p] : [];
    });
}

const all = files(root).map((f) => ({ file: relative(root, f), json: JSON.parse(readFileSync(f, 'utf8')) as unknown }));

describe('rule cases', () => {
  it('there are cases, and every one is a well-formed case citing a rule', () => {
    expect(all.length).toBeGreaterThan(0);
    for (const c of all) {
      const r = caseSchema.safeParse(c.json);
      if (!r.success) throw new Error(`${c.file}: ${r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
    }
  });

  it.each(all.map((c) => [`${c.file} (${(c.json as { ruleId?: string }).ruleId ?? '?'})`, c.json]))('%s', (_name, json) => {
    expect(runCase(json).failures).toEqual([]);
  });
});
