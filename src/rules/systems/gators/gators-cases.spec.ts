import { join } from 'node:path';
import { expectWellFormed, loadCases } from '../../../../test/support/rule-cases';
import { loadScenario } from '../../../scenarios/load-scenario';
import { runCaseWith } from '../../testing/case-runner';
import { FEATURES } from './features';
import { GATORS_SPEC, gators } from './index';

/**
 * Every Gators! rule case under ./cases, one test each, run by the kernel's
 * case runner against the gators system and the real Unnarstan scenario.
 */
const scenario = loadScenario(join(__dirname, '../../../scenarios/gators-unnarstan'));
const target = { system: gators, scenario, initialExt: GATORS_SPEC.initialExt };
const all = loadCases(join(__dirname, 'cases'));

describe('Gators! rule cases', () => {
  it('every case is well-formed and cites a rule', () => {
    expect(all.length).toBeGreaterThan(0);
    expectWellFormed(all);
  });

  it('every rule ID the features implement has an accepted and a rejected case', () => {
    const byRule = new Map<string, { accepted: boolean; rejected: boolean }>();
    for (const c of all) {
      const j = c.json as { ruleId: string; alsoChecks?: string[] };
      const kind = /rejected/.test(c.file) ? 'rejected' : 'accepted';
      for (const id of [j.ruleId, ...(j.alsoChecks ?? [])]) {
        const e = byRule.get(id) ?? { accepted: false, rejected: false };
        e[kind] = true;
        byRule.set(id, e);
      }
    }
    const missing = [...new Set(GATORS_RULES)].filter((id) => !(byRule.get(id)?.accepted && byRule.get(id)?.rejected));
    expect(missing).toEqual([]);
  });

  it.each(all.map((c) => [`${c.file} (${(c.json as { ruleId?: string }).ruleId ?? '?'})`, c.json]))('%s', (_name, json) => {
    expect(runCaseWith(target, json).failures).toEqual([]);
  });
});

/** The rule IDs of part 1 that must have an accepted and a rejected case (the features' `rules` and the data rules). */
const GATORS_RULES = [
  ...FEATURES.flatMap((f) => f.rules),
  // rules carried by data and the kernel with the gators hooks
  'GT-3.3', 'GT-3.4', 'GT-3.5', 'GT-3.6', 'GT-3.7', 'GT-3.8', 'GT-3.10', 'GT-3.11', 'GT-3.13', 'GT-3.15', 'Q-GT-06', 'Q-GT-07', 'Q-GT-08', 'Q-GT-11', 'GT-2.46',
  'GT-6A.1', 'GT-6A.2', 'GT-6A.3', 'GT-6B.1', 'GT-6C.2', 'GT-6C.3', 'GT-6D.1', 'Q-GT-22', 'GT-6E.1', 'GT-6E.2', 'Q-GT-23',
  'GT-6F.2', 'GT-6F.3', 'GT-6G.1', 'GT-6G.3', 'GT-6G.4', 'GT-6G.6', 'Q-GT-16', 'Q-GT-02', 'GT-9.3',
  'GT-6K.1', 'GT-6K.2', 'GT-6K.4', 'GT-6K.5', 'Q-GT-26', 'Q-GT-47',
  'GT-7A.1', 'GT-7A.2', 'GT-7A.3', 'GT-7A.4', 'GT-7A.5', 'Q-GT-33', 'GT-7B.1', 'GT-7B.5', 'GT-7B.6', 'Q-GT-35', 'GT-7D.1', 'GT-7D.2', 'GT-7F.1', 'Q-GT-38', 'GT-7E.1', 'GT-7F.2', 'GT-7L.2', 'GT-7N.1', 'GT-7N.2', 'Q-GT-44', 'Q-GT-34',
  'GT-8.1', 'GT-8.2', 'Q-GT-46', 'GT-3.16', 'GT-5.1',
];
