import { GameState } from '../../model/state';
import { buildState } from '../../testing/prestate';
import { testScenario } from '../../testing/scenario-files';
import { recordingContext } from '../../testing/resolve-context';
import { boardOf } from '../board';
import { hexOf } from '../queries';
import { AttackerFate, applyAttackerResults, validateRetreatChoices } from './attacker-retreat';
import { OddsHooks, resolveOddsAttack } from './odds-step';
import { RetreatChoice } from './owner-choice';

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

describe('attacking stacks of two hexes that both retreat (GT-7N.2)', () => {
  // Squads of two hexes, the second in the hex the first retreats into; whether they could
  // attack from there is validation's concern (a scenario without GT-7J.1's exemption for
  // ranged attackers), not how a result is applied.
  const target = '0604';
  const grid = boardOf(testScenario()).grid;
  const from = grid.indexOf('0504');
  const behind = grid.label([0, 1, 2, 3, 4, 5].map((d) => grid.neighbour(from, d)).find((n) => n >= 0 && grid.distance(n, grid.indexOf(target)) === 2)!);
  const twoStacks = () =>
    buildState(testScenario(), {
      phase: 'a-attack',
      units: [
        { id: 'a-sq1', type: 'squad', side: 'A', hex: '0504' },
        { id: 'a-sq2', type: 'squad', side: 'A', hex: behind },
        { id: 'b-inf', type: 'infantry', side: 'B', hex: target },
      ],
    });
  const fate = (s: GameState, id: string, retreat?: RetreatChoice): AttackerFate => ({ unit: s.units[id]!, effect: 'retreat', hexes: 1, retreat });

  it('a stack that retreats into the hex of attackers still to retreat retreats once, not again with them', () => {
    const ctx = recordingContext(twoStacks(), []);
    const s = ctx.state;
    applyAttackerResults(ctx, [fate(s, 'a-sq1', { to: behind }), fate(s, 'a-sq2')], ['a-sq1', 'a-sq2'], target, true, 'test');
    expect(moves(ctx.events)).toEqual([
      ['UnitRetreated', 'a-sq1'],
      ['UnitRetreated', 'a-sq2'],
    ]);
    expect(ctx.state.units['a-sq1']!.loc).toEqual({ at: 'hex', hex: behind });
    expect(grid.distance(grid.indexOf(hexOf(ctx.state, ctx.state.units['a-sq2']!)!), grid.indexOf(target))).toBe(3);
  });
});

describe('two attackers of one hex naming their retreat (GT-7N.2, Q-GT-35)', () => {
  const s = () => state();
  const grid = boardOf(testScenario()).grid;
  const away = [0, 1, 2, 3, 4, 5].map((d) => grid.neighbour(grid.indexOf('0504'), d)).filter((n) => n >= 0 && grid.distance(n, grid.indexOf('0604')) === 2).map((n) => grid.label(n));
  const codes = (a: RetreatChoice, b: RetreatChoice) =>
    validateRetreatChoices(s(), [{ unit: 'a-plt', retreat: a }, { unit: 'a-hw', retreat: b }], '0604', 0).map((v) => v.code);

  it('agree when one names the next hex with "to" and the other as a one-hex path', () => {
    expect(codes({ to: away[0]! }, { path: [away[0]!] })).toEqual([]);
  });

  it('conflict when they name different hexes', () => {
    expect(away.length).toBeGreaterThan(1);
    expect(codes({ to: away[0]! }, { path: [away[1]!] })).toEqual(['combat/conflicting_retreats']);
  });
});
