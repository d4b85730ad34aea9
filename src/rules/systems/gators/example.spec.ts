import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadScenario } from '../../../scenarios/load-scenario';
import { ForcedDice } from '../../dice/forced-dice';
import { RulesEvent, Viewer } from '../../engine/types';
import { UnitView } from '../../engine/view';
import { gators } from './index';
import { GState } from './ext';

/**
 * The worked example of examples/*.json (also for the application's tests):
 * a legal setup of both sides, the ship placement and a whole first turn.
 */
const scenario = loadScenario(join(__dirname, '../../../scenarios/gators-unnarstan'));
const example = (name: string) => JSON.parse(readFileSync(join(__dirname, 'examples', name), 'utf8')) as { side: string; phase: string; orders: unknown[] };

function submit(state: GState, side: string, phase: string, orders: unknown, dice: number[] = []): { state: GState; events: RulesEvent[] } {
  expect(gators.phase(state).phase).toBe(phase);
  const p = gators.parse(state, side, { kind: 'orders', orders });
  if (!p.ok) throw new Error(JSON.stringify(p.violations));
  expect(gators.validate(state, side, p.value)).toEqual([]);
  const events = gators.resolve(state, side, p.value, new ForcedDice(dice));
  return { state: events.reduce((s, e) => gators.evolve(s, e), state), events };
}

describe('worked example: setup and turn 1', () => {
  it('both setups, the ships and a first turn are legal', () => {
    let state = gators.start(scenario, { sides: ['P1', 'P2'] }).reduce<GState | undefined>((s, e) => gators.evolve(s, e), undefined)!;
    const p1 = example('setup-p1.json');
    const p2 = example('setup-p2.json');
    state = submit(state, p1.side, p1.phase, p1.orders).state;
    const setup = submit(state, p2.side, p2.phase, p2.orders, [2]);
    state = setup.state;
    expect(setup.events.map((e) => e.type)).toContain('BreakdownDetermined');
    expect(state.sides['P2']!.secret.notes['breakdown']).toMatchObject({ roll: 2, broken: ['p2-a4-1', 'p2-a4-2', 'p2-hawk-2'] });
    expect(state.units['p1-squad-1']!.loc).toEqual({ at: 'carried', by: 'p1-aav-1' });
    expect(state.units['p1-rp-lsd-1']!.loc).toEqual({ at: 'box', box: 'split' });
    const ships = example('ships.json');
    state = submit(state, ships.side, ships.phase, ships.orders).state;
    expect(gators.phase(state)).toMatchObject({ turn: 1, phase: 'p1-launch', acting: ['P1'] });
    const turn = JSON.parse(readFileSync(join(__dirname, 'examples', 'turn-1.json'), 'utf8')) as { submissions: { side: string; phase: string; orders: unknown[] }[] };
    for (const s of turn.submissions) state = submit(state, s.side, s.phase, s.orders).state;
    expect(gators.phase(state)).toMatchObject({ turn: 2, phase: 'p1-launch' });
    expect(state.units['p1-lhd']!.loc).toEqual({ at: 'hex', hex: '1110' });
    expect(state.units['p2-jeep-auto-1']!.loc).toEqual({ at: 'hex', hex: '2121' });
  });

  it("P2 reads nothing of what P1's sealed setup put aboard its ships (GT-4.10, Q-GT-01): no loadedCargo on them", () => {
    let state = gators.start(scenario, { sides: ['P1', 'P2'] }).reduce<GState | undefined>((s, e) => gators.evolve(s, e), undefined)!;
    const p1 = example('setup-p1.json');
    const p2 = example('setup-p2.json');
    state = submit(state, p1.side, p1.phase, p1.orders).state;
    state = submit(state, p2.side, p2.phase, p2.orders, [2]).state;
    const carriers = Object.values(state.units).flatMap((u) => (u.loc.at === 'carried' && ['p1-lpd', 'p1-lsd'].includes(u.loc.by) ? [u.loc.by] : []));
    expect(carriers.length).toBeGreaterThan(0);
    const flagsOf = (viewer: Viewer, id: string) => (gators.view(state, viewer) as { units: UnitView[] }).units.find((u) => u.id === id)?.flags;
    for (const ship of ['p1-lhd', 'p1-lpd', 'p1-lsd']) {
      expect(flagsOf({ kind: 'side', side: 'P2' }, ship)).not.toHaveProperty('loadedCargo');
      expect(flagsOf({ kind: 'spectator' }, ship)).not.toHaveProperty('loadedCargo');
    }
    // Its owner still reads it (GT-6G.1: a carrier that loaded this turn may not move).
    expect(flagsOf({ kind: 'side', side: 'P1' }, carriers[0]!)).toMatchObject({ loadedCargo: true });
  });
});
