import fc from 'fast-check';
import { join } from 'node:path';
import { loadScenario } from '../../../scenarios/load-scenario';
import { SeededDice } from '../../dice/seeded-dice';
import { boardOf } from '../../engine/board';
import { Submission } from '../../engine/kit/types';
import { RulesEvent, Violation } from '../../engine/types';
import { concealedFrom, eventAsSeenBy } from '../../engine/visibility';
import { JsonObject } from '../../model/json';
import { buildState } from '../../testing/prestate';
import { GATORS_SPEC, gators } from './index';
import { GState } from './ext';

/**
 * Hidden information in play (part 3): whatever P2 hides, whatever its
 * standing orders for unmasking, and whatever P1 does around the markers —
 * flying past them, ending next to them, attacking them, landing medics, P2
 * raising guerrillas, working on Debris and hiding units again — P1's view
 * and every event as P1 reads it never name a P2 unit that was camouflaged
 * all along. (What the rules reveal — uncovering, retreat, unmasking — is
 * public and names the unit from then on.)
 */
const scenario = loadScenario(join(__dirname, '../../../scenarios/gators-unnarstan'));
const board = boardOf(scenario);
const SPOTS = ['1811', '1910', '1911', '1712', '1812', '2010', '2011', '1610', '1711', '2012', '2013', '1912', '1609'];
const TYPES = ['militia', 'infantry-platoon', 'stinger-team', 'mortar-team', 'm113', 'jeep-tow', 'guerrillas', 'hawk'];

const plan = fc.record({
  hide: fc.uniqueArray(fc.record({ spot: fc.integer({ min: 0, max: SPOTS.length - 1 }), type: fc.oneof({ arbitrary: fc.constantFrom(...TYPES), weight: 2 }, { arbitrary: fc.constant('stinger-team'), weight: 1 }), open: fc.boolean() }), { minLength: 1, maxLength: 8, selector: (p) => p.spot }),
  standing: fc.constantFrom('all', 'none', 'ask'),
  // From 1709 east and south, over the spots (grid directions 1 NE, 2 SE, 3 S).
  flight: fc.array(fc.constantFrom(1, 2, 3), { minLength: 2, maxLength: 6 }),
  step: fc.integer({ min: 0, max: 5 }),
  targets: fc.array(fc.integer({ min: 0, max: SPOTS.length - 1 }), { maxLength: 3 }),
  answers: fc.array(fc.boolean(), { minLength: 8, maxLength: 8 }),
  seed: fc.integer(),
});

function fold(state: GState, events: readonly RulesEvent[]): GState {
  return events.reduce((s, e) => gators.evolve(s, e), state);
}

/** Submits orders, leaving out those that are not legal, and answers or lets expire every reaction. */
function play(state: GState, side: string, orders: JsonObject[], dice: SeededDice, answers: boolean[], seen: RulesEvent[]): GState {
  let list = orders;
  for (let guard = 0; guard < 10; guard++) {
    const p = gators.parse(state, side, { kind: 'orders', orders: list });
    const v: Violation[] = p.ok ? gators.validate(state, side, p.value) : p.violations;
    if (v.length === 0 && p.ok) {
      let events = gators.resolve(state, side, p.value, dice);
      seen.push(...events);
      state = fold(state, events);
      while (state.phase.mode === 'reaction') {
        const req = state.pending!.request!;
        const eligible = (req.privatePrompt as { eligible?: string[] }).eligible ?? [];
        const answer = answers.shift() ?? false;
        const sub: Submission = { kind: 'reaction', answer: { unmask: answer ? eligible : [] } };
        events = answer ? gators.resolve(state, req.side, sub, dice) : gators.expireReaction(state, dice);
        seen.push(...events);
        state = fold(state, events);
      }
      return state;
    }
    const bad = new Set(v.map((x) => x.orderIndex));
    list = bad.has(null) ? [] : list.filter((_o, i) => !bad.has(i));
  }
  throw new Error('no legal submission found');
}

describe('P1 never learns what stays camouflaged in play', () => {
  it('camouflaged identities stay out of P1\'s view and events through a turn of ground rules', () => {
    fc.assert(
      fc.property(plan, ({ hide, standing, flight, step, targets, answers: given, seed }) => {
        const answers = [...given];
        const p2 = hide.map((h, k) => ({ id: `p2-x-${k}`, type: h.type, side: 'P2', hex: SPOTS[h.spot]!, ...(h.open ? {} : { hidden: '?' }) }));
        const units = [
          ...p2,
          { id: 'p2-aa', type: 'stinger-team', side: 'P2', hex: '1810', hidden: '?' },
          { id: 'p2-lost', type: 'militia', side: 'P2', eliminated: true },
          { id: 'p2-guerrillas-1', type: 'guerrillas', side: 'P2', box: 'guerrilla-pool' },
          { id: 'p1-heli', type: 'ch-46e', side: 'P1', hex: '1709' },
          { id: 'p1-plt', type: 'rifle-platoon', side: 'P1', hex: '1608' },
          { id: 'p1-mortar', type: 'mortar-81', side: 'P1', hex: '1708' },
          { id: 'p1-recon', type: 'recon-team', side: 'P1', hex: '1710' },
          { id: 'p1-medics', type: 'medical-team', side: 'P1', hex: '2210' },
        ];
        // Every other P2 unit stands on Debris, so that Militia start removing it (debris-work.ts) unseen.
        const debris = p2.filter((_u, k) => k % 2 === 0).map((u) => u.hex);
        let state = buildState(scenario, { phase: 'p1-movement', units, standing: { P2: { 'camouflage-unmask': standing } }, ext: { debris } }, GATORS_SPEC.initialExt(scenario)) as GState;
        const hidden = [...p2.filter((u) => u.hidden !== undefined).map((u) => u.id), 'p2-aa'];
        const dice = new SeededDice(seed);
        const seen: RulesEvent[] = [];
        // Past the Stinger at 1810 first, then on.
        const path: string[] = ['1809'];
        let at = board.grid.indexOf('1809');
        for (const d of flight) {
          at = board.grid.neighbour(at, d);
          if (at < 0) break;
          path.push(board.grid.label(at));
        }
        const walk = board.grid.neighbour(board.grid.indexOf('1710'), step);
        const p1Moves: JsonObject[] = [
          ...(path.length > 0 ? [{ kind: 'move', unit: 'p1-heli', path }] : []),
          ...(walk >= 0 ? [{ kind: 'move', unit: 'p1-recon', path: [board.grid.label(walk)] }] : []),
        ];
        state = play(state, 'P1', p1Moves, dice, answers, seen);
        const attacks = targets.map((t) => ({ kind: 'attack', attackers: [{ unit: 'p1-mortar' }], target: SPOTS[t]! }));
        state = play(state, 'P1', attacks.slice(0, 1), dice, answers, seen);
        state = play(state, 'P2', [{ kind: 'raise-guerrillas', hex: '2114' }], dice, answers, seen);
        state = play(state, 'P2', [{ kind: 'camouflage', hex: SPOTS[hide[0]!.spot]! }], dice, answers, seen);
        const stillHidden = hidden.filter((id) => concealedFrom(state, state.units[id]!).includes('P1') && !seen.some((e) => e.type === 'UnitRevealed' && (e.data as { unit: string }).unit === id));
        const text = [JSON.stringify(gators.view(state, { kind: 'side', side: 'P1' })), ...seen.map((e) => JSON.stringify(eventAsSeenBy(e, 'P1')))].join('\n');
        for (const id of stillHidden) expect([id, text.includes(`"${id}"`)]).toEqual([id, false]);
      }),
      { numRuns: 60 },
    );
  });
});
