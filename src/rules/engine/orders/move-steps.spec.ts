import { z } from 'zod';
import { ForcedDice } from '../../dice/forced-dice';
import { Json, JsonObject } from '../../model/json';
import { buildState } from '../../testing/prestate';
import { testScenario } from '../../testing/scenario-files';
import { testSpec } from '../../testing/test-system';
import { boardOf } from '../board';
import { resolveOddsAttack } from '../combat/odds-step';
import { defineSystem } from '../kit/define-system';
import { ReactionKind, SystemSpec } from '../kit/types';
import { allUnits, flag, strengthVs, targetClassAt, typeOf, unitOf } from '../queries';
import { GameState } from '../../model/state';
import { RulesEvent } from '../types';
import { StepReaction, moveOrder } from './move';

/**
 * Reactions during a move (GA-FIRE-4 fire during movement; GT-6C.4): an
 * "overwatch" system built from the kernel test system, where the defender
 * may fire at a unit at each hex it enters within range of a ready unit.
 */
type Ext = JsonObject;

function watchers(state: GameState, unitId: string, hex: string): string[] {
  const board = boardOf(state.scenario);
  const mover = unitOf(state, unitId);
  const at = board.grid.indexOf(hex);
  const cls = targetClassAt(board, typeOf(state, mover), at);
  return allUnits(state)
    .filter((u) => u.side !== mover.side && u.loc.at === 'hex' && !flag(u, 'fired'))
    .filter((u) => {
      const d = board.grid.distance(board.grid.indexOf(u.loc.at === 'hex' ? u.loc.hex : ''), at);
      return d >= 1 && d <= typeOf(state, u).range && strengthVs(typeOf(state, u), cls) > 0;
    })
    .map((u) => u.id);
}

const overwatch: StepReaction<Ext> = {
  question: (state, step) => {
    const w = watchers(state, step.unit, step.path[step.at]!);
    if (w.length === 0) return null;
    return { side: unitOf(state, w[0]!).side, kind: 'overwatch', prompt: { unit: step.unit, hex: step.path[step.at]! }, privatePrompt: { watchers: w }, context: null };
  },
  apply: (ctx, step, answer) => {
    const fire = (answer as { fire: string[] }).fire;
    if (fire.length === 0) return true;
    for (const id of fire) ctx.emit({ type: 'UnitMarked', data: { unit: id, flags: { fired: true } }, visibility: { to: 'all' } });
    resolveOddsAttack(ctx, fire.map((unit) => ({ unit })), step.path[step.at]!, {}, { cause: 'overwatch' });
    const u = ctx.state.units[step.unit];
    return u !== undefined && u.loc.at === 'hex' && u.loc.hex === step.path[step.at];
  },
};

const overwatchKind: ReactionKind<Ext> = {
  answerSchema: z.strictObject({ fire: z.array(z.string()) }),
  standingSchema: z.enum(['always', 'never']),
  validateAnswer: () => [],
  fromStanding: (_s, req, standing) =>
    standing === undefined ? null : { fire: standing === 'always' ? ((req.privatePrompt as { watchers: string[] }).watchers as Json[]) : [] },
  none: () => ({ fire: [] }),
};

const spec: SystemSpec<Ext> = {
  ...testSpec,
  phases: { ...testSpec.phases, movement: { orders: [moveOrder<Ext>({ stepReaction: overwatch })] } },
  reactions: { ...testSpec.reactions, overwatch: overwatchKind },
};
const system = defineSystem(spec);

function start(standing?: 'always' | 'never') {
  return buildState(testScenario(), {
    phase: 'a-move',
    units: [
      { id: 'a-car', type: 'fast-car', side: 'A', hex: '0503' },
      { id: 'b-m1', type: 'mortar', side: 'B', hex: '0805' },
      { id: 'b-m2', type: 'mortar', side: 'B', hex: '1004' },
    ],
    standing: standing === undefined ? {} : { B: { overwatch: standing } },
  });
}

const order = { kind: 'orders' as const, orders: [{ kind: 'move', unit: 'a-car', path: ['0603', '0703', '0803', '0903'] }] };

function run(state: GameState<Ext>, side: string, raw: { kind: 'orders' | 'reaction'; orders: unknown }, dice: number[]): { events: RulesEvent[]; state: GameState<Ext> } {
  const p = system.parse(state, side, raw);
  if (!p.ok) throw new Error(JSON.stringify(p.violations));
  expect(system.validate(state, side, p.value)).toEqual([]);
  const events = system.resolve(state, side, p.value, new ForcedDice(dice));
  return { events, state: events.reduce((s, e) => system.evolve(s, e), state) };
}

const moves = (events: RulesEvent[]) => events.filter((e) => e.type === 'UnitMoved').map((e) => (e.data as { path: string[] }).path);

describe('reactions during a move', () => {
  it('standing "hold fire" answers each question at once; the move shows as stretches between the questions', () => {
    const { events, state } = run(start('never'), 'A', order, []);
    expect(moves(events)).toEqual([
      ['0503', '0603', '0703', '0803'],
      ['0803', '0903'],
    ]);
    expect(events.map((e) => e.type)).not.toContain('ResolutionSuspended');
    expect(events.filter((e) => e.type === 'UnitMoved').map((e) => (e.data as { cost: number }).cost)).toEqual([3, 1]);
    expect(state.units['a-car']!.loc).toEqual({ at: 'hex', hex: '0903' });
  });

  it('pauses where the unit comes within range, and goes on after a "hold fire"', () => {
    const first = run(start(), 'A', order, []);
    expect(moves(first.events)).toEqual([['0503', '0603', '0703', '0803']]);
    expect(first.state.phase.mode).toBe('reaction');
    expect(system.phase(first.state).reaction).toEqual({ side: 'B', kind: 'overwatch', prompt: { unit: 'a-car', hex: '0803' } });
    expect(JSON.stringify(system.view(first.state, { kind: 'side', side: 'B' }))).toContain('"watchers":["b-m1","b-m2"]');
    const second = run(first.state, 'B', { kind: 'reaction', orders: { fire: [] } }, []);
    expect(moves(second.events)).toEqual([['0803', '0903']]);
    expect(second.state.phase.mode).toBe('reaction');
    expect(system.phase(second.state).reaction?.prompt).toEqual({ unit: 'a-car', hex: '0903' });
    const third = run(second.state, 'B', { kind: 'reaction', orders: { fire: [] } }, []);
    expect(moves(third.events)).toEqual([]);
    expect(third.state.units['a-car']!.loc).toEqual({ at: 'hex', hex: '0903' });
    expect(third.events.map((e) => e.type)).toContain('PhaseAdvanced');
  });

  it('fire that makes the unit retreat ends its move there', () => {
    const first = run(start(), 'A', order, []);
    const second = run(first.state, 'B', { kind: 'reaction', orders: { fire: ['b-m1'] } }, [4]);
    expect(second.events.find((e) => e.type === 'AttackResolved')?.data).toMatchObject({ target: '0803', result: 'D R1', cause: 'overwatch' });
    expect(moves(second.events)).toEqual([]);
    expect(second.events.find((e) => e.type === 'UnitRetreated')?.data).toMatchObject({ unit: 'a-car' });
    expect(second.state.units['a-car']!.loc).not.toEqual({ at: 'hex', hex: '0903' });
    expect(second.state.phase.acting).toEqual(['A']);
  });

  it('standing orders fire at once, with no pause', () => {
    const { events, state } = run(start('always'), 'A', order, [6]);
    expect(events.map((e) => e.type)).not.toContain('ResolutionSuspended');
    expect(events.find((e) => e.type === 'AttackResolved')?.data).toMatchObject({ target: '0803', attack: 4, result: 'D X' });
    expect(state.units['a-car']!.loc).toEqual({ at: 'eliminated' });
  });
});
