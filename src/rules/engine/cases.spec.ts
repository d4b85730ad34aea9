import { join } from 'node:path';
import { expectWellFormed, loadCases } from '../../../test/support/rule-cases';
import { runCase } from '../testing/case-runner';

/** Every rule case under ./cases, one test each; each case cites the rule it checks. */
const all = loadCases(join(__dirname, 'cases'));

describe('rule cases', () => {
  it('there are cases, and every one is a well-formed case citing a rule', () => {
    expect(all.length).toBeGreaterThan(0);
    expectWellFormed(all);
  });

  it.each(all.map((c) => [`${c.file} (${(c.json as { ruleId?: string }).ruleId ?? '?'})`, c.json]))('%s', (_name, json) => {
    expect(runCase(json).failures).toEqual([]);
  });
});
