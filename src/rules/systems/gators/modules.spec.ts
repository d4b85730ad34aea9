import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadScenario } from '../../../scenarios/load-scenario';
import { Scenario } from '../../model/scenario';
import { RulesEvent } from '../../engine/types';
import { runCaseWith } from '../../testing/case-runner';
import { FEATURES, GATORS_MODULES, MODULES, featuresFor } from './features';
import { GATORS_SPEC, gators } from './index';

/** scenario.json `modules` switch the Gators! features on: a scenario without one never does what it does. */
const scenario = loadScenario(join(__dirname, '../../../scenarios/gators-unnarstan'));
const readCase = (file: string): unknown => JSON.parse(readFileSync(join(__dirname, 'cases', file), 'utf8'));

function without(module: string): Scenario {
  return { ...scenario, manifest: { ...scenario.manifest, modules: scenario.manifest.modules.filter((m) => m !== module) } };
}

function run(s: Scenario, file: string): { failures: string[]; events: RulesEvent[] } {
  const events: RulesEvent[] = [];
  const { failures } = runCaseWith({ system: gators, scenario: s, initialExt: GATORS_SPEC.initialExt }, readCase(file), (_r, e) => events.push(...e));
  return { failures, events };
}

describe('scenario.json modules', () => {
  it('the first scenario lists every module, so it plays every feature', () => {
    expect([...scenario.manifest.modules].sort()).toEqual([...GATORS_MODULES].sort());
    expect(featuresFor(scenario.manifest.modules)).toEqual(FEATURES);
  });

  it('features in no module are always on; a module id the system does not know switches nothing on', () => {
    const core = featuresFor([]).map((f) => f.id);
    expect(core).toEqual(['setup-p2', 'setup-p1', 'ship-placement', 'movement-rules', 'ship-cargo', 'passenger-fire', 'landing-craft-fire', 'landed-aircraft', 'recon', 'command-vehicle', 'owner-choice']);
    expect(featuresFor(['__proto__', 'constructor']).map((f) => f.id)).toEqual(core);
    expect(featuresFor(['guerrillas']).map((f) => f.id)).toEqual(FEATURES.map((f) => f.id).filter((id) => core.includes(id) || id === 'guerrillas'));
  });

  it('every optional feature belongs to exactly one module', () => {
    const owned = Object.values(MODULES).flat();
    expect(new Set(owned).size).toBe(owned.length);
  });

  it.each([
    ['guerrillas', 'guerrillas/raise-accepted.json'],
    ['squads', 'setup/p1-split-accepted.json'],
    ['squads', 'squads/merge-accepted.json'],
    ['debris', 'setup/p2-debris-accepted.json'],
    ['seal-attack', 'sabotage/tank-accepted.json'],
  ])('without "%s", its order in %s is refused as unknown', (module, file) => {
    expect(run(scenario, file).failures).toEqual([]);
    expect(run(without(module), file).failures.join('\n')).toMatch(/input\/unknown_order/);
  });

  it('without "breakdown", the setup ends with no breakdown roll (GT-4.8)', () => {
    const types = (s: Scenario) => run(s, 'breakdown/roll-1-2-accepted.json').events.map((e) => e.type);
    expect(types(scenario)).toContain('BreakdownDetermined');
    expect(types(without('breakdown'))).not.toContain('BreakdownDetermined');
  });

  it('without "rowpu", a ROWPU by a city does not raise the need (GT-6M.3)', () => {
    const need = (s: Scenario) => run(s, 'guerrillas/rowpu-needs-six-accepted.json').events.flatMap((e) => (e.type.startsWith('Guerrillas') ? [(e.data as { need: number }).need] : []));
    expect(need(scenario)).toEqual([6]);
    expect(need(without('rowpu'))).toEqual([4]);
  });
});
