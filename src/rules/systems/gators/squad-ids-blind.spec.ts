import { join } from 'node:path';
import { loadScenario } from '../../../scenarios/load-scenario';
import { ForcedDice } from '../../dice/forced-dice';
import { RawSubmission, RulesEvent } from '../../engine/types';
import { eventAsSeenBy } from '../../engine/visibility';
import { campaign } from './examples';
import { GState } from './ext';
import { gators } from './index';

const scenario = loadScenario(join(__dirname, '../../../scenarios/gators-unnarstan'));

type Step = { side: string; orders: unknown; dice?: number[] };

/** Plays the steps; returns the state and every event, as the events were written. */
function play(steps: Step[]): { state: GState; events: RulesEvent[] } {
  const events: RulesEvent[] = [...gators.start(scenario, { sides: ['P1', 'P2'] })];
  let state = events.reduce<GState | undefined>((s, e) => gators.evolve(s, e), undefined)!;
  for (const [k, step] of steps.entries()) {
    const parsed = gators.parse(state, step.side, { kind: 'orders', orders: step.orders } as RawSubmission);
    if (!parsed.ok) throw new Error(`step ${k}: ${JSON.stringify(parsed.violations)}`);
    const violations = gators.validate(state, step.side, parsed.value);
    if (violations.length > 0) throw new Error(`step ${k}: ${JSON.stringify(violations)}`);
    const out = gators.resolve(state, step.side, parsed.value, new ForcedDice(step.dice ?? []));
    events.push(...out);
    state = out.reduce((s, e) => gators.evolve(s, e), state);
  }
  return { state, events };
}

/** The campaign's setup (P1's sealed setup with `extra` orders added), then a platoon landed and split on land. */
function game(extra: unknown[]): Step[] {
  const [p1, p2, ships] = campaign().steps;
  const orders = (s: typeof p1) => (s!.submission as { orders: unknown[] }).orders;
  return [
    { side: 'P1', orders: [...orders(p1), ...extra], dice: p1!.dice },
    { side: 'P2', orders: orders(p2), dice: p2!.dice },
    { side: 'P1', orders: orders(ships), dice: ships!.dice },
    { side: 'P1', orders: [{ kind: 'launch', unit: 'p1-ch53-3', hex: '1018' }] },
    { side: 'P1', orders: [] },
    { side: 'P1', orders: [{ kind: 'move', unit: 'p1-ch53-3', path: ['1118', '1117'] }, { kind: 'unload', unit: 'p1-rp-lhd-1', hex: '1116' }] },
    { side: 'P1', orders: [] },
    { side: 'P2', orders: [] },
    { side: 'P2', orders: [] },
    { side: 'P2', orders: [] },
    { side: 'P1', orders: [] },
    { side: 'P1', orders: [] },
    { side: 'P1', orders: [{ kind: 'split', platoon: 'p1-rp-lhd-1', to: [{ hex: '1115' }, { hex: '1115' }] }] },
  ];
}

/**
 * Squads are alike counters: which pool squads a split on land names must not tell P2 what P1's
 * sealed setup took from the pool (Q-GT-01: the placement sheet is hidden). Before, a split took
 * the lowest-numbered squads left, so one more platoon split at setup moved every later id by 3.
 */
describe('the squads a split on land takes from the pool', () => {
  it('are named the same to P2 and to a spectator whatever P1 split at setup', () => {
    const plain = play(game([]));
    const more = play(game([{ kind: 'split', platoon: 'p1-rp-lsd-2' }]));
    expect(more.state.units['p1-rp-lsd-2']!.loc).toEqual({ at: 'box', box: 'split' });
    const seen = (events: RulesEvent[], side: string | null) => JSON.stringify(events.map((e) => eventAsSeenBy(e, side)));
    const splitAt = (events: RulesEvent[]) => events.findIndex((e) => e.type === 'PlatoonSplitOnLand');
    expect(splitAt(plain.events)).toBeGreaterThan(0);
    for (const side of ['P2', null]) {
      const a = plain.events.slice(splitAt(plain.events));
      const b = more.events.slice(splitAt(more.events));
      expect(seen(b, side)).toBe(seen(a, side));
    }
  });
});
