import { join } from 'node:path';
import { loadCases } from '../../../test/support/rule-cases';
import { fuzzCases } from '../testing/order-fuzz';
import { testScenario } from '../testing/scenario-files';
import { testSpec, testSystem } from '../testing/test-system';

const cases = loadCases(join(__dirname, 'cases'));

describe('kernel orders broken at random', () => {
  const seed = Number(process.env.FUZZ_SEED ?? 20261130);

  it('come back as violations or events, never as an exception (the server would answer 500)', () => {
    const { runs, crashes } = fuzzCases({ system: testSystem, scenario: testScenario(), initialExt: testSpec.initialExt }, cases, { seed, perStep: 100 });
    expect(runs).toBeGreaterThan(5_000);
    expect(crashes).toEqual([]);
  });
});
