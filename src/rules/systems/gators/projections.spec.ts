import { join } from 'node:path';
import { loadScenario } from '../../../scenarios/load-scenario';
import { ForcedDice } from '../../dice/forced-dice';
import { handlerFor } from '../../engine/kit/runner';
import { unbundled } from '../../engine/kit/sealed-secrets';
import { RawSubmission } from '../../engine/types';
import { JsonObject } from '../../model/json';
import { buildState, Prestate } from '../../testing/prestate';
import { GATORS_SPEC, gators } from './index';
import { GState } from './ext';

/**
 * Validation folds what each order projects; resolution then walks those very states
 * (transitions.ts) only when it writes the same events. So an order projects the events it
 * writes when nothing random intervenes: they come, in order, among what resolve writes.
 */
const scenario = loadScenario(join(__dirname, '../../../scenarios/gators-unnarstan'));

function projectedAndWritten(prestate: Prestate, side: string, submission: RawSubmission, dice: number[]) {
  const state = buildState(scenario, prestate, GATORS_SPEC.initialExt(scenario) as unknown as JsonObject) as unknown as GState;
  const parsed = gators.parse(state, side, submission);
  if (!parsed.ok || gators.validate(state, side, parsed.value).length > 0) throw new Error(JSON.stringify(parsed.ok ? gators.validate(state, side, parsed.value) : parsed.violations));
  const order = (parsed.value as { orders: readonly JsonObject[] }).orders[0]!;
  const projected = handlerFor(GATORS_SPEC, state, String(order['kind']))!.project(state, side, order);
  // A side's records are logged at the end of the run (own-records.ts), but resolution applied each in place.
  const written = unbundled(gators.resolve(state, side, parsed.value, new ForcedDice(dice))).map((e) => ({ type: e.type, data: e.data }));
  const at = written.findIndex((e) => e.type === projected[0]?.type);
  return { projected, written: written.slice(at, at + projected.length) };
}

describe('an order projects the events it writes (GT-7F.3, GT-7B)', () => {
  it('passenger fire: the attackers marked in one event, then the launch slots used', () => {
    const { projected, written } = projectedAndWritten(
      {
        phase: 'p1-combat',
        units: [
          { id: 'lhd', type: 'lhd', side: 'P1', hex: '0911' },
          { id: 'av', type: 'avenger', side: 'P1', carrier: 'lhd' },
          { id: 'f5', type: 'f-5a', side: 'P2', hex: '1010' },
        ],
      },
      'P1',
      { kind: 'orders', orders: [{ kind: 'passenger-fire', attackers: [{ unit: 'av' }], target: '1010' }] },
      [4],
    );
    expect(projected.length).toBe(2);
    expect(projected).toEqual(written);
  });

  it('an attack: its attackers marked in one event', () => {
    const { projected, written } = projectedAndWritten(
      {
        phase: 'p1-combat',
        units: [
          { id: 'p1-a', type: 'rifle-platoon', side: 'P1', hex: '1710' },
          { id: 'p1-b', type: 'rifle-platoon', side: 'P1', hex: '1811' },
          { id: 'p2-x', type: 'infantry-platoon', side: 'P2', hex: '1810' },
        ],
      },
      'P1',
      { kind: 'orders', orders: [{ kind: 'attack', attackers: [{ unit: 'p1-a' }, { unit: 'p1-b' }], target: '1810' }] },
      [4],
    );
    expect(projected.length).toBe(1);
    expect(projected).toEqual(written);
  });

  it('a re-arming in play: the loadout, logged with the side\'s records of the run', () => {
    const { projected, written } = projectedAndWritten(
      {
        phase: 'p1-launch',
        units: [
          { id: 'lhd', type: 'lhd', side: 'P1', hex: '0911' },
          { id: 'ah', type: 'ah-1w', side: 'P1', carrier: 'lhd' },
        ],
      },
      'P1',
      { kind: 'orders', orders: [{ kind: 'arm', unit: 'ah', markers: ['Ground', 'Ground'] }] },
      [],
    );
    expect(projected.length).toBe(1);
    expect(projected).toEqual(written);
  });
});
