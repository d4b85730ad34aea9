import { GameState, UnitState } from '../../model/state';
import { buildState } from '../../testing/prestate';
import { testScenario } from '../../testing/scenario-files';
import { recordingContext } from '../../testing/resolve-context';
import { attackTargets } from './attack-targets';
import { pickDefender, validateAttack } from './attack-checks';
import { OddsHooks, resolveOddsAttack } from './odds-step';

/**
 * The two system hooks on who defends and as what (GT-7H.1 landed aircraft are
 * soft targets; GT-7H.2 the top aircraft of a landed stack is hit): every
 * place that picks a defender or its class asks them.
 */
function state(): GameState {
  return buildState(testScenario(), {
    phase: 'a-attack',
    units: [
      { id: 'a-plt', type: 'rifle-platoon', side: 'A', hex: '0504' },
      { id: 'b-m48', type: 'm48', side: 'B', hex: '0604' },
      { id: 'b-inf', type: 'infantry', side: 'B', hex: '0604' },
    ],
  });
}

const ctxOf = recordingContext;

const byId = (id: string) => (_s: GameState, stack: readonly UnitState[]) => stack.find((u) => u.id === id);

describe('odds hooks: defender and targetClass', () => {
  it('without hooks the highest defense defends (GT-7N.1)', () => {
    expect(pickDefender(state(), '0604', 'A')?.id).toBe('b-m48');
  });

  it('the defender hook picks the counter that defends, in validation, options and resolution', () => {
    const hooks: OddsHooks = { defender: byId('b-inf') };
    const s = state();
    expect(pickDefender(s, '0604', 'A', hooks)?.id).toBe('b-inf');
    // The platoon (soft 2) has no strength against the armored M48, but may attack the infantry the hook names.
    const order = { kind: 'attack' as const, attackers: [{ unit: 'a-plt' }], target: '0604' };
    expect(validateAttack(s, 'A', order, 0, {}).map((v) => v.code)).toEqual(['combat/zero_strength']);
    expect(validateAttack(s, 'A', order, 0, hooks)).toEqual([]);
    expect(attackTargets(s, 'A', 'a-plt', hooks).map((t) => t.targetHex)).toEqual(['0604']);
    const ctx = ctxOf(s, [4]);
    resolveOddsAttack(ctx, order.attackers, '0604', hooks);
    expect(ctx.events.find((e) => e.type === 'AttackResolved')?.data).toMatchObject({ defender: 'b-inf', targetClass: 'soft', attack: 2 });
  });

  it('the targetClass hook decides what class the defender is attacked as', () => {
    const hooks: OddsHooks = { defender: byId('b-m48'), targetClass: (_s, u) => (u.id === 'b-m48' ? 'soft' : undefined) };
    const s = state();
    const order = { kind: 'attack' as const, attackers: [{ unit: 'a-plt' }], target: '0604' };
    expect(validateAttack(s, 'A', order, 0, hooks)).toEqual([]);
    const ctx = ctxOf(s, [4]);
    resolveOddsAttack(ctx, order.attackers, '0604', hooks);
    expect(ctx.events.find((e) => e.type === 'AttackResolved')?.data).toMatchObject({ defender: 'b-m48', targetClass: 'soft', attack: 2, defense: 2 });
  });
});
