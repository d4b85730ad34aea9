import { join } from 'node:path';
import { loadCases } from '../../../../test/support/rule-cases';
import { loadScenario } from '../../../scenarios/load-scenario';
import { SeededDice } from '../../dice/seeded-dice';
import { GATORS_SPEC, gators } from '../../systems/gators';
import { CaseTarget } from '../../testing/case-runner';
import { caseSteps } from '../../testing/order-fuzz';
import { testScenario } from '../../testing/scenario-files';
import { testSpec, testSystem } from '../../testing/test-system';
import { JsonObject } from '../../model/json';

/**
 * Resolution uses the very order objects parse() made, and the checks validation made on them,
 * instead of parsing and checking again (runner.ts markParsed, remembered-check.ts). That is only
 * sound while an order schema's output parses to itself (no transforms) and a remembered check
 * equals a fresh one. So every rule case's accepted submission is resolved both ways, from the
 * objects parse made and from a plain copy of them (parsed and checked afresh, as orders read
 * back from a suspended resolution are), with the same dice: the events must be the same bytes.
 */
function sameEitherWay<X extends JsonObject>(target: CaseTarget<X>, cases: Array<{ file: string; json: unknown }>): { compared: number; differ: string[] } {
  const { system } = target;
  let compared = 0;
  const differ: string[] = [];
  for (const { file, state, side, submission } of caseSteps(target, cases)) {
    if (submission.kind === 'standing-orders') continue;
    const parsed = system.parse(state, side, submission);
    if (!parsed.ok || system.validate(state, side, parsed.value).length > 0) continue;
    const made = JSON.stringify(system.resolve(state, side, parsed.value, new SeededDice(7)));
    const copied = JSON.stringify(system.resolve(state, side, structuredClone(parsed.value), new SeededDice(7)));
    compared++;
    if (made !== copied) differ.push(file);
  }
  return { compared, differ };
}

describe('resolution from the objects parse made', () => {
  it('gives the same events as from orders parsed afresh (kernel cases)', () => {
    const r = sameEitherWay({ system: testSystem, scenario: testScenario(), initialExt: testSpec.initialExt }, loadCases(join(__dirname, '../cases')));
    expect(r.differ).toEqual([]);
    expect(r.compared).toBeGreaterThan(50);
  });

  it('gives the same events as from orders parsed afresh (Gators! cases)', () => {
    const scenario = loadScenario(join(__dirname, '../../../scenarios/gators-unnarstan'));
    const r = sameEitherWay({ system: gators, scenario, initialExt: GATORS_SPEC.initialExt }, loadCases(join(__dirname, '../../systems/gators/cases')));
    expect(r.differ).toEqual([]);
    expect(r.compared).toBeGreaterThan(200);
  });
});
