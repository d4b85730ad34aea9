import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseScenario } from '../../model/parse-scenario';
import { runCaseWith } from '../../testing/case-runner';
import { GATORS_SPEC, gators } from './index';

/**
 * Q-GT-40, GT-7B.1: the jettison its owner chose is carried out only once the attack takes place,
 * after its pre-rolls (OddsHooks.beforeDie). Unnarstan has no pre-roll against an aircraft in the
 * air (the jungle's is `ignoredByClasses: ["air"]`, GT-6B.1), so this runs on its data with the
 * jungle hiding aircraft in the air too.
 */
const REAL = join(__dirname, '../../../scenarios/gators-unnarstan');

type Effect = { kind: string; ignoredByClasses?: string[] };

function jungleHidesAircraft() {
  const files = Object.fromEntries(readdirSync(REAL).filter((f) => f.endsWith('.json')).map((f) => [f, JSON.parse(readFileSync(join(REAL, f), 'utf8')) as unknown]));
  const terrain = files['terrain.json'] as { terrain: { jungle: { effects: Effect[] } } };
  for (const e of terrain.terrain.jungle.effects) if (e.kind === 'pre-roll') delete e.ignoredByClasses;
  return parseScenario(files, 'jungle hides aircraft');
}

const notFound = {
  ruleId: 'Q-GT-40',
  title: 'an aircraft over jungle that its air attacker does not find (the GT-3.8 pre-roll fails, GT-7B.1) jettisons nothing',
  prestate: {
    phase: 'p2-combat',
    turn: 1,
    units: [
      { id: 'uh', type: 'uh-1b', side: 'P2', hex: '1509' },
      { id: 'ah', type: 'ah-1w', side: 'P1', hex: '1510' },
    ],
    notes: { P1: { loadouts: { ah: ['Ground', 'Ground'] } } },
    standing: { P1: { jettison: 'always' } },
  },
  steps: [
    {
      side: 'P2',
      submission: { kind: 'orders', orders: [{ kind: 'attack', attackers: [{ unit: 'uh' }], target: '1510' }] },
      expect: {
        violations: [],
        events: [
          { type: 'ReactionAnswered', data: { by: 'standing-orders' } },
          { type: 'AttackCancelled', data: { reason: 'pre_roll_failed', ruleId: 'GT-3.8' } },
        ],
        absent: ['MarkerJettisoned'],
        view: { side: 'P1', contains: ['"Ground","Ground"'] },
      },
      dice: [3],
    },
  ],
};

describe('a jettison waits for the pre-rolls (Q-GT-40)', () => {
  it('an aircraft its air attacker does not find keeps its marker', () => {
    const target = { system: gators, scenario: jungleHidesAircraft(), initialExt: GATORS_SPEC.initialExt };
    expect(runCaseWith(target, notFound).failures).toEqual([]);
  });
});
