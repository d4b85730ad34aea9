import { crossCheck } from './cross-checks';
import { SCENARIO_FILES, Scenario, ScenarioFileName } from './scenario';
import { ScenarioError, ScenarioIssue, zodIssues } from './scenario-error';

export type ScenarioCheck = { ok: true; scenario: Scenario } | { ok: false; issues: ScenarioIssue[] };

/**
 * Validates the parsed JSON of a scenario folder, keyed by file name
 * ("map.json" …). Pure: reading files is the caller's job
 * (src/scenarios/load-scenario.ts). Every mistake is reported, with its file
 * and JSON path; a scenario with any mistake is refused as a whole.
 */
export function checkScenario(files: Readonly<Record<string, unknown>>): ScenarioCheck {
  const issues: ScenarioIssue[] = [];
  const parsed: Partial<Record<ScenarioFileName, unknown>> = {};
  for (const name of Object.keys(SCENARIO_FILES) as ScenarioFileName[]) {
    if (!Object.hasOwn(files, name)) {
      issues.push({ file: name, path: '', message: 'file is missing' });
      continue;
    }
    const result = SCENARIO_FILES[name].safeParse(files[name]);
    if (result.success) parsed[name] = result.data;
    else issues.push(...zodIssues(name, [], result.error));
  }
  if (issues.length > 0) return { ok: false, issues };
  const scenario = {
    manifest: parsed['scenario.json'],
    map: parsed['map.json'],
    terrain: parsed['terrain.json'],
    rules: parsed['rules.json'],
    units: parsed['units.json'],
    oob: parsed['oob.json'],
    setup: parsed['setup.json'],
    turns: parsed['turns.json'],
    victory: parsed['victory.json'],
  } as Scenario;
  const crossIssues = crossCheck(scenario);
  return crossIssues.length > 0 ? { ok: false, issues: crossIssues } : { ok: true, scenario };
}

/** Like checkScenario, but throws one ScenarioError listing every mistake. */
export function parseScenario(files: Readonly<Record<string, unknown>>, name = scenarioName(files)): Scenario {
  const r = checkScenario(files);
  if (!r.ok) throw new ScenarioError(name, r.issues);
  return r.scenario;
}

function scenarioName(files: Readonly<Record<string, unknown>>): string {
  const m = files['scenario.json'];
  if (typeof m === 'object' && m !== null && 'id' in m && typeof m.id === 'string') return `"${m.id}"`;
  return '(unnamed)';
}
