import { join } from 'node:path';
import { loadScenario } from '../../../scenarios/load-scenario';
import { ForcedDice } from '../../dice/forced-dice';
import { Scenario } from '../../model/scenario';
import { Prestate, buildState } from '../../testing/prestate';
import { GATORS_SPEC, gators } from './index';
import { GState } from './ext';

/**
 * A game carries the scenario it was started with (GameStarted), as the data was then: games
 * stored before a field of rules.json existed must still be read, viewed and played on.
 */
const scenario = loadScenario(join(__dirname, '../../../scenarios/gators-unnarstan'));

/** The scenario as a game started before Q-GT-49 stored it: rules.json had no visibility.seenCargoWhen. */
function beforeSeenCargoWhen(): Scenario {
  const s = structuredClone(scenario) as unknown as { rules: { visibility: Record<string, unknown> } };
  delete s.rules.visibility['seenCargoWhen'];
  return s as unknown as Scenario;
}

const state = (sc: Scenario, p: Prestate) => buildState(sc, p, GATORS_SPEC.initialExt(sc) as never) as unknown as GState;

describe('a game stored before visibility.seenCargoWhen', () => {
  const prestate: Prestate = {
    phase: 'p1-combat',
    units: [
      { id: 'c', type: 'lcac', side: 'P1', hex: '1608' },
      { id: 'aav', type: 'aav', side: 'P1', carrier: 'c' },
      { id: 'e', type: 'infantry-platoon', side: 'P2', hex: '1509' },
    ],
  };

  it('still shows P2 the craft and hides its cargo', () => {
    const seen = JSON.stringify(gators.view(state(beforeSeenCargoWhen(), prestate), { kind: 'side', side: 'P2' }));
    expect(seen).toContain('"c"');
    expect(seen).not.toContain('"aav"');
  });

  it('still resolves fire from aboard a landing craft (GT-6G.5)', () => {
    const s = state(beforeSeenCargoWhen(), prestate);
    const parsed = gators.parse(s, 'P1', { kind: 'orders', orders: [{ kind: 'attack', attackers: [{ unit: 'aav' }], target: '1509' }] });
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.violations));
    expect(gators.validate(s, 'P1', parsed.value)).toEqual([]);
    const events = gators.resolve(s, 'P1', parsed.value, new ForcedDice([4]));
    expect(events.map((e) => e.type)).toContain('AttackResolved');
  });
});

describe('a game stored before a run of orders gathered its records', () => {
  it('still folds a re-arming and a cancelled order logged in place, each its own event (GT-6B.4)', () => {
    const s = state(scenario, {
      phase: 'p1-launch',
      units: [
        { id: 'lhd', type: 'lhd', side: 'P1', hex: '0911' },
        { id: 'ah', type: 'ah-1w', side: 'P1', carrier: 'lhd' },
      ],
    });
    const logged = [
      { type: 'AircraftArmed', data: { side: 'P1', unit: 'ah', markers: ['Ground', 'Ground'] } },
      { type: 'OrderCancelled', data: { side: 'P1', index: 1, kind: 'arm', reason: 'test', ruleId: 'GT-6B.4' } },
    ];
    const after = logged.reduce((x, e) => gators.evolve(x, e), s);
    expect(after.seq).toBe(s.seq + 2);
    expect(JSON.stringify(gators.view(after, { kind: 'side', side: 'P1' }))).toContain('"ah":["Ground","Ground"]');
  });
});
