import { GameState } from '../../model/state';
import { buildState } from '../../testing/prestate';
import { testScenario } from '../../testing/scenario-files';
import { recordingContext } from '../../testing/resolve-context';
import { OddsHooks, resolveOddsAttack } from './odds-step';

/**
 * GT-7N.2 for attackers, as the kernel applies it with the system's exemption
 * hooks (Q-GT-36): attackers of one hex retreat as one stack, but an attacker
 * for whom the result is ignored is not carried off by its stack-mate's retreat.
 */
function state(): GameState {
  return buildState(testScenario(), {
    phase: 'a-attack',
    units: [
      { id: 'a-plt', type: 'rifle-platoon', side: 'A', hex: '0504' },
      { id: 'a-hw', type: 'heavy-weapons', side: 'A', hex: '0504' },
      { id: 'b-inf', type: 'infantry', side: 'B', hex: '0604' },
    ],
  });
}

// 2 against 1: column 2, where a 2 reads A R1.
const both = [
  { unit: 'a-plt', strength: 1 },
  { unit: 'a-hw', strength: 1 },
];
const moves = (events: { type: string; data: unknown }[]) =>
  events.filter((e) => e.type === 'UnitRetreated' || e.type === 'UnitEliminated').map((e) => [e.type, (e.data as { unit: string; with?: string[] }).unit, ...((e.data as { with?: string[] }).with ?? [])]);

describe('an attacker result on a stack of attackers (GT-7N.2, Q-GT-36)', () => {
  it('two attackers of one hex retreat together, in one retreat', () => {
    const ctx = recordingContext(state(), [2]);
    expect(resolveOddsAttack(ctx, both, '0604').result).toBe('A R1');
    expect(moves(ctx.events)).toEqual([['UnitRetreated', 'a-plt', 'a-hw']]);
  });

  it('an exempt attacker stays where it is while its stack-mate retreats', () => {
    const ctx = recordingContext(state(), [2]);
    const hooks: OddsHooks = { attackerExempt: (_s, _a, u) => u.id === 'a-hw' };
    resolveOddsAttack(ctx, both, '0604', hooks);
    expect(moves(ctx.events)).toEqual([['UnitRetreated', 'a-plt']]);
    expect(ctx.state.units['a-hw']!.loc).toEqual({ at: 'hex', hex: '0504' });
  });

  it('an attacker destroyed by its own result is not part of the retreat; the rest of the stack retreats', () => {
    const ctx = recordingContext(state(), [2]);
    const hooks: OddsHooks = { attackerResult: (_s, _a, u, r) => (u.id === 'a-plt' ? 'A X' : r) };
    resolveOddsAttack(ctx, both, '0604', hooks);
    expect(moves(ctx.events)).toEqual([
      ['UnitEliminated', 'a-plt'],
      ['UnitRetreated', 'a-hw'],
    ]);
  });
});
