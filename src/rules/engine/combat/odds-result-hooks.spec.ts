import { GameState } from '../../model/state';
import { buildState } from '../../testing/prestate';
import { testScenario } from '../../testing/scenario-files';
import { recordingContext } from '../../testing/resolve-context';
import { OddsHooks, resolveOddsAttack } from './odds-step';

/**
 * Two system hooks on what an attack's data effects are (GT-2.13: a small
 * team's pre-roll widened by an aircraft next to it) and on how one attacker
 * suffers an attacker result (GT-7J.2: a ranged unit firing into the next hex
 * is destroyed where the others retreat).
 */
function state(): GameState {
  return buildState(testScenario(), {
    phase: 'a-attack',
    units: [
      { id: 'a-plt', type: 'rifle-platoon', side: 'A', hex: '0504' },
      { id: 'a-sq', type: 'squad', side: 'A', hex: '0603' },
      { id: 'b-inf', type: 'infantry', side: 'B', hex: '0604' },
    ],
  });
}

const ctxOf = recordingContext;

const both = [{ unit: 'a-plt' }, { unit: 'a-sq' }];
const preRoll: OddsHooks = { adjustEffects: (_s, _a, effects) => [...effects, { kind: 'pre-roll', max: 2, when: 'defender-in', ruleId: 'TEST-PRE' }] };

describe('odds hooks: adjustEffects and attackerResult', () => {
  it('adjustEffects changes the data effects of the attack: a pre-roll it adds cancels the attack on a failed roll', () => {
    const ctx = ctxOf(state(), [3]);
    expect(resolveOddsAttack(ctx, both, '0604', preRoll).cancelled).toBe(true);
    expect(ctx.events.map((e) => [e.type, (e.data as { ruleId?: string }).ruleId])).toEqual([['AttackCancelled', 'TEST-PRE']]);
  });

  it('adjustEffects: the widened pre-roll passes and the attack is resolved', () => {
    const ctx = ctxOf(state(), [2, 4]);
    expect(resolveOddsAttack(ctx, both, '0604', preRoll).cancelled).toBe(false);
    expect(ctx.events.some((e) => e.type === 'AttackResolved')).toBe(true);
  });

  it('without attackerResult every attacker suffers the result itself; with it, each as the hook says', () => {
    const plain = ctxOf(state(), [1]);
    expect(resolveOddsAttack(plain, both, '0604').result).toBe('A R1');
    expect(plain.events.filter((e) => e.type === 'UnitRetreated').map((e) => (e.data as { unit: string }).unit)).toEqual(['a-plt', 'a-sq']);
    const ctx = ctxOf(state(), [1]);
    const seen: string[] = [];
    const hooks: OddsHooks = {
      attackerResult: (_s, _a, u, r) => {
        seen.push(`${u.id}:${r}`);
        return u.id === 'a-sq' ? 'A X' : r;
      },
    };
    resolveOddsAttack(ctx, both, '0604', hooks);
    expect(seen).toEqual(['a-plt:A R1', 'a-sq:A R1']);
    expect(ctx.events.filter((e) => e.type === 'UnitRetreated').map((e) => (e.data as { unit: string }).unit)).toEqual(['a-plt']);
    expect(ctx.events.filter((e) => e.type === 'UnitEliminated').map((e) => (e.data as { unit: string }).unit)).toEqual(['a-sq']);
  });
});
