import { join } from 'node:path';
import { Scenario } from '../../src/rules/model/scenario';
import { loadCases } from './rule-cases';
import { caseSchema } from '../../src/rules/testing/case-runner';
import { buildState, Prestate } from '../../src/rules/testing/prestate';
import { GState } from '../../src/rules/systems/gators/ext';
import { GATORS_SPEC } from '../../src/rules/systems/gators/index';

/** The states the rule cases start from: each prestate, built as the case runner builds it (cases with `start` are left out). */
export function casePrestates(scenario: Scenario): [string, GState][] {
  return loadCases(join(__dirname, '../../src/rules/systems/gators/cases')).flatMap((c) => {
    const prestate = caseSchema.parse(c.json).prestate;
    return prestate === undefined ? [] : [[`case ${c.file}`, buildState(scenario, prestate as Prestate, GATORS_SPEC.initialExt(scenario)) as GState] as [string, GState]];
  });
}

/**
 * The order kinds of the Gators! phases, by what offers them: a unit's options (`unit`), the side's
 * options (`side`: an order of no one unit, as a hex to raise guerrillas in), or nothing (`none`).
 */
export function orderKinds(): Map<string, 'unit' | 'side' | 'none'> {
  const out = new Map<string, 'unit' | 'side' | 'none'>();
  for (const phase of Object.values(GATORS_SPEC.phases))
    for (const h of phase.orders ?? []) {
      const now = h.options !== undefined ? 'unit' : h.sideOptions !== undefined ? 'side' : 'none';
      const was = out.get(h.kind);
      out.set(h.kind, was === undefined || was === 'none' ? now : was);
    }
  return out;
}
