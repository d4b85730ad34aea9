import { join } from 'node:path';
import { loadScenario } from '../../../scenarios/load-scenario';
import { JsonObject } from '../../model/json';
import { buildState } from '../../testing/prestate';
import { GATORS_SPEC, gators } from './index';
import { GState } from './ext';

/**
 * The refusal of a tower ending by an own untowed gun (GT-6D.1 (3), `transport/enter_to_tow`) tells
 * what was refused: the cases check its rule and code, this its words, which differ for an unload.
 */
const scenario = loadScenario(join(__dirname, '../../../scenarios/gators-unnarstan'));
const state = buildState(
  scenario,
  {
    phase: 'p1-movement',
    turn: 2,
    units: [
      { id: 'ch', type: 'ch-53e', side: 'P1', hex: '1312' },
      { id: 't', type: 'truck-5t', side: 'P1', carrier: 'ch' },
      { id: 't2', type: 'truck-5t', side: 'P1', hex: '1213' },
      { id: 'g', type: 'howitzer-155', side: 'P1', hex: '1313' },
    ],
  },
  GATORS_SPEC.initialExt(scenario),
) as GState;

function refusal(order: JsonObject): string {
  const p = gators.parse(state, 'P1', { kind: 'orders', orders: [order] });
  if (!p.ok) throw new Error(JSON.stringify(p.violations));
  const v = gators.validate(state, 'P1', p.value);
  expect(v.map((x) => x.code)).toEqual(['transport/enter_to_tow']);
  return v[0]!.message;
}

describe('the tow refusal (GT-6D.1 (3)) in words', () => {
  it('for an unload, says that the unload is refused, and gives no advice the unloaded truck cannot follow', () => {
    const m = refusal({ kind: 'unload', unit: 't', hex: '1313' });
    expect(m).toMatch(/^t may not be unloaded into g's hex 1313: /);
    expect(m).not.toMatch(/entering|path|order a hitch/);
  });

  it('for a move, points to the hitch whose path enters the hex', () => {
    expect(refusal({ kind: 'move', unit: 't2', path: ['1313'] })).toBe("t2 may stand in g's hex only to take it in tow, entering by a hitch of g whose path ends there");
  });
});
