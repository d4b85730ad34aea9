import { join } from 'node:path';
import { loadCases } from '../../../test/support/rule-cases';
import type { RecordedRoll } from '../../rules/dice/forced-dice';
import type { RulesEvent } from '../../rules/engine/types';
import { GATORS_SPEC, gators } from '../../rules/systems/gators';
import { runCase, runCaseWith } from '../../rules/testing/case-runner';
import { loadScenario } from '../../scenarios/load-scenario';
import { submissionProblems } from './roll-uses';

/**
 * The verifier's cross-check of rules events against rolls must never fire on a real game. The
 * rule cases make every kind of roll the engine has (each `dice.roll` call site of src/rules), so
 * each resolved step of every case that rolls is checked here as the verifier checks a submission.
 */
describe('rules events record the rolls they used, in roll order', () => {
  const gatorsTarget = { system: gators, scenario: loadScenario(join(__dirname, '../../scenarios/gators-unnarstan')), initialExt: GATORS_SPEC.initialExt };
  type Observe = (rolls: readonly RecordedRoll[], events: readonly RulesEvent[]) => void;
  const cases = [
    ...loadCases(join(__dirname, '../../rules/engine/cases')).map((c) => ({ name: `kernel ${c.file}`, run: (o: Observe) => runCase(c.json, o), json: c.json })),
    ...loadCases(join(__dirname, '../../rules/systems/gators/cases')).map((c) => ({ name: `gators ${c.file}`, run: (o: Observe) => runCaseWith(gatorsTarget, c.json, o), json: c.json })),
  ].filter((c) => JSON.stringify(c.json).includes('"dice"'));
  // The sniper's shot needs a single-person counter, which the scenario lacks: a Colonel is added (as in ground.spec.ts).
  const s = gatorsTarget.scenario;
  const withColonel = { ...s, units: { ...s.units, types: { ...s.units.types, colonel: { ...s.units.types['militia']!, name: 'Colonel', tags: ['single-person', 'ground'], strength: {} } } } };
  const shot = {
    ruleId: 'GT-2.15',
    title: 'sniper shot',
    prestate: { phase: 'p1-combat', units: [{ id: 'p1-sniper', type: 'scout-sniper', side: 'P1', hex: '1810' }, { id: 'p2-colonel', type: 'colonel', side: 'P2', hex: '1910' }] },
    steps: [{ side: 'P1', submission: { kind: 'orders', orders: [{ kind: 'snipe', unit: 'p1-sniper', target: 'p2-colonel' }] }, dice: [3], expect: { violations: [] } }],
  };
  cases.push({ name: 'gators sniper shot', run: (o: Observe) => runCaseWith({ ...gatorsTarget, scenario: withColonel }, shot, o), json: shot });
  const purposes = new Set<string>();
  const found: string[] = [];

  beforeAll(() => {
    for (const c of cases) {
      c.run((rolls, events) => {
        for (const r of rolls) purposes.add(r.purpose.replace(/ (on|at|in|against) \S+/, ' $1 X').replace(/\(.*\)$/, '(...)'));
        const logged = rolls.map((r, i) => ({ version: i + 1, n: i + 1, sides: r.sides, value: r.value, purpose: r.purpose }));
        const problems = submissionProblems(logged, events.map((e, i) => ({ version: 1000 + i, type: e.type, data: e.data })));
        found.push(...problems.map((p) => `${c.name}: ${p}`));
      });
    }
  });

  it('every step of every case that rolls maps its rolls to its rules events', () => {
    expect(cases.length).toBeGreaterThan(50);
    expect(found).toEqual([]);
  });

  it('the cases make every kind of roll', () => {
    const kinds = ['attack on X', 'pre-roll ', 'HERS explosion', 'booby trap in X', 'booby trap attack in X', 'breakdown roll', 'guerrillas', 'sniper shot at X', 'medics in X'];
    for (const k of kinds) expect([k, [...purposes].some((p) => p.startsWith(k))]).toEqual([k, true]);
  });
});
