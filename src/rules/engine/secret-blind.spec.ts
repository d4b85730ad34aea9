import { join } from 'node:path';
import { loadCases } from '../../../test/support/rule-cases';
import { GameState } from '../model/state';
import { caseSteps } from '../testing/order-fuzz';
import { testScenario } from '../testing/scenario-files';
import { secretBlind } from '../testing/secret-blind';
import { testSpec, testSystem } from '../testing/test-system';

const cases = loadCases(join(__dirname, 'cases'));

describe("the kernel's answers to a side say nothing of what the other side hides", () => {
  it('refused orders, unit options and orders carried out read the same in states the side cannot tell apart (every kernel rule case)', () => {
    const target = { system: testSystem, scenario: testScenario(), initialExt: testSpec.initialExt };
    const steps = [...caseSteps(target, cases)].map((c) => ({ label: c.file, state: c.state as GameState, side: c.side, submission: c.submission, dice: c.dice }));
    const r = secretBlind(testSystem, steps, { seed: Number(process.env.FUZZ_SEED ?? 20261201), broken: Number(process.env.BROKEN ?? 10), maxTwins: Number(process.env.MAX_TWINS ?? 3) });
    expect(r.twins).toBeGreaterThan(100);
    expect(r.probes).toBeGreaterThan(1_500);
    expect(r.outcomes).toBeGreaterThan(400);
    expect(r.leaks).toEqual([]);
  });
});
