import { Json } from '../../model/json';
import { Scenario } from '../../model/scenario';
import { ScenarioIssue, issueList } from '../../model/scenario-error';
import { SystemSpec } from './types';

/**
 * A system's check of a scenario that already passed the generic checks (parse-scenario.ts):
 * every phase kind of turns.json is one the system plays, then the system's own check of its
 * data. Run at load (games/load-catalog.ts) and again at start, so that no game begins on a
 * scenario a system cannot play. Cached per scenario object: scenarios never change.
 */
export function scenarioChecker<X extends Json>(spec: SystemSpec<X>): (scenario: Scenario) => readonly ScenarioIssue[] {
  const cache = new WeakMap<Scenario, readonly ScenarioIssue[]>();
  return (scenario) => {
    let issues = cache.get(scenario);
    if (issues === undefined) {
      issues = [...phaseKindIssues(spec, scenario), ...(spec.checkScenario?.(scenario) ?? [])];
      cache.set(scenario, issues);
    }
    return issues;
  };
}

function phaseKindIssues<X extends Json>(spec: SystemSpec<X>, s: Scenario): ScenarioIssue[] {
  const { issues, report } = issueList();
  const known = Object.keys(spec.phases);
  for (const key of ['setup', 'phases'] as const)
    s.turns[key].forEach((p, i) => {
      if (!Object.hasOwn(spec.phases, p.kind))
        report('turns.json', [key, i, 'kind'], `system ${spec.id} has no phase kind "${p.kind}" (it has ${known.join(', ')})`);
    });
  return issues;
}
