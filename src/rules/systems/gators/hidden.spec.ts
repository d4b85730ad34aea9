import fc from 'fast-check';
import { join } from 'node:path';
import { loadScenario } from '../../../scenarios/load-scenario';
import { ForcedDice } from '../../dice/forced-dice';
import { boardOf, hasOverlay } from '../../engine/board';
import { mediumAt } from '../../engine/queries';
import { RulesEvent } from '../../engine/types';
import { eventAsSeenBy } from '../../engine/visibility';
import { buildState } from '../../testing/prestate';
import { GATORS_SPEC, gators } from './index';
import { GState } from './ext';

/**
 * Hidden information (GT-4.3, GT-4.8, Q-GT-14, Q-GT-27): whatever P2 deploys
 * under "?" markers and whatever the breakdown roll, P1's view and every event
 * as P1 reads it never name a camouflaged unit, nor tell the roll or what broke.
 */
const scenario = loadScenario(join(__dirname, '../../../scenarios/gators-unnarstan'));
const board = boardOf(scenario);
const LAND = Array.from({ length: board.grid.size }, (_, i) => i)
  .filter((i) => mediumAt(board, i) === 'land' && !hasOverlay(board, i, 'bridge') && !hasOverlay(board, i, 'airfield'))
  .map((i) => board.grid.label(i));
const TYPES = ['infantry-platoon', 'militia', 'heavy-weapons-p2', 'dragon-team', 'mortar-team', 'stinger-team', 'jeep-tow', 'm113', 'm48', 'howitzer-75', 'truck-p2'];
/** The units the breakdown roll may break, always present, at fixed places. */
const FIXED: [string, string, string, string][] = [
  ['p2-x-a41', 'a-4', 'p2-airfield', '1319'],
  ['p2-x-a42', 'a-4', 'p2-airfield', '1319'],
  ['p2-x-h1', 'hawk', 'p2-land', LAND[0]!],
  ['p2-x-h2', 'hawk', 'p2-land', LAND[1]!],
  ['p2-x-mb', 'missile-boat', 'p2-shore', '1708'],
];

const deployment = fc.record({
  picks: fc.uniqueArray(fc.record({ type: fc.constantFrom(...TYPES), at: fc.integer({ min: 2, max: LAND.length - 1 }), hidden: fc.boolean() }), { maxLength: 14, selector: (p) => p.at }),
  fixedHidden: fc.array(fc.boolean(), { minLength: 5, maxLength: 5 }),
  roll: fc.integer({ min: 1, max: 6 }),
  chooseSecondHawk: fc.boolean(),
});

function fold(state: GState, events: readonly RulesEvent[]): GState {
  return events.reduce((s, e) => gators.evolve(s, e), state);
}

function submit(state: GState, side: string, orders: unknown, dice: ForcedDice): { state: GState; events: RulesEvent[] } {
  const p = gators.parse(state, side, { kind: 'orders', orders });
  if (!p.ok) throw new Error(JSON.stringify(p.violations));
  const v = gators.validate(state, side, p.value);
  if (v.length > 0) throw new Error(JSON.stringify(v));
  const events = gators.resolve(state, side, p.value, dice);
  return { state: fold(state, events), events };
}

describe('P1 never learns what P2 hides', () => {
  it('camouflaged identities and the breakdown roll stay out of P1\'s view and events', () => {
    fc.assert(
      fc.property(deployment, ({ picks, fixedHidden, roll, chooseSecondHawk }) => {
        const units = [
          ...FIXED.map(([id, type, zone]) => ({ id, type, side: 'P2', box: 'setup', attrs: { setupZone: zone } })),
          ...picks.map((p, k) => ({ id: `p2-x-${k}`, type: p.type, side: 'P2', box: 'setup', attrs: { setupZone: 'p2-land' } })),
          ...['lhd', 'lpd', 'lsd'].map((t) => ({ id: `p1-${t}`, type: t, side: 'P1', box: 'setup', attrs: { setupZone: 'p1-sea' } })),
        ];
        let state = buildState(scenario, { phase: 'setup', turn: 0, units }, GATORS_SPEC.initialExt(scenario)) as GState;
        const hidden = new Set<string>();
        const orders: unknown[] = FIXED.map(([id, , , hex], k) => {
          if (fixedHidden[k]) hidden.add(id);
          return { kind: 'place', unit: id, hex, ...(fixedHidden[k] ? { hidden: true } : {}) };
        });
        picks.forEach((p, k) => {
          if (p.hidden) hidden.add(`p2-x-${k}`);
          orders.push({ kind: 'place', unit: `p2-x-${k}`, hex: LAND[p.at]!, ...(p.hidden ? { hidden: true } : {}) });
        });
        if (chooseSecondHawk) orders.push({ kind: 'breakdown', units: ['p2-x-h2'] });
        const seen: string[] = [];
        const a = submit(state, 'P1', [], new ForcedDice([]));
        const dice = new ForcedDice([roll]);
        const b = submit(a.state, 'P2', orders, dice);
        const c = submit(b.state, 'P1', [{ kind: 'place', unit: 'p1-lhd', hex: '0911' }, { kind: 'place', unit: 'p1-lsd', hex: '0712' }, { kind: 'place', unit: 'p1-lpd', hex: '0811' }], new ForcedDice([]));
        state = c.state;
        for (const e of [...a.events, ...b.events, ...c.events]) seen.push(JSON.stringify(eventAsSeenBy(e, 'P1')));
        seen.push(JSON.stringify(gators.view(b.state, { kind: 'side', side: 'P1' })), JSON.stringify(gators.view(state, { kind: 'side', side: 'P1' })));
        seen.push(JSON.stringify(gators.phase(state)));
        const text = seen.join('\n');
        for (const id of hidden) expect(text).not.toContain(`"${id}"`);
        for (const secret of ['BreakdownDetermined', 'broken', 'breakdownChoice', 'serviceable', '"roll"']) expect(text).not.toContain(secret);
        expect(dice.rolls).toEqual([{ sides: 6, value: roll, purpose: 'breakdown roll (GT-4.8)', visibleTo: ['P2'] }]);
        expect(JSON.stringify(gators.view(state, { kind: 'side', side: 'P2' }))).toContain('"broken"');
        expect(state.phase.stage).toBe('turns');
      }),
      { numRuns: 60 },
    );
  });
});

describe('anti-landing fire from camouflaged units', () => {
  it('P1 reads the result of the attack, never who made it (unless it is destroyed)', () => {
    const around = ['1609', '1509', '1709'];
    fc.assert(
      fc.property(
        fc.array(fc.record({ type: fc.constantFrom('dragon-team', 'm48', 'jeep-rcr', 'infantry-platoon'), hidden: fc.boolean() }), { minLength: 1, maxLength: 3 }),
        fc.array(fc.integer({ min: 1, max: 6 }), { minLength: 4, maxLength: 4 }),
        (defenders, rolls) => {
          const units = [
            { id: 'aav', type: 'aav', side: 'P1', hex: '1607' },
            ...defenders.map((d, k) => ({ id: `p2-secret-${k}`, type: d.type, side: 'P2', hex: around[k]!, ...(d.hidden ? { hidden: '?' } : {}) })),
          ];
          const state = buildState(scenario, { phase: 'p1-movement', units, standing: { P2: { 'anti-landing': 'all' } } }, GATORS_SPEC.initialExt(scenario)) as GState;
          const { events } = submit(state, 'P1', [{ kind: 'move', unit: 'aav', path: ['1608'] }], new ForcedDice(rolls));
          const revealed = new Set(events.filter((e) => e.reveals === true).map((e) => (e.data as { unit: string }).unit));
          const text = events.map((e) => JSON.stringify(eventAsSeenBy(e, 'P1'))).join('\n') + JSON.stringify(gators.view(fold(state, events), { kind: 'side', side: 'P1' }));
          defenders.forEach((d, k) => {
            if (d.hidden && !revealed.has(`p2-secret-${k}`)) expect(text).not.toContain(`p2-secret-${k}`);
          });
        },
      ),
      { numRuns: 80 },
    );
  });
});

describe('whether an anti-landing window opens', () => {
  /** The landing's events as P1 reads them (Q-GT-45), for one P2 unit next to the landing hex. */
  const p1Reads = (lander: [string, string, string], p2: { type: string; hex: string; hidden?: string }, standing: Record<string, unknown>, broken: string[] = []) => {
    const units = [{ id: 'lander', type: lander[0], side: 'P1', hex: lander[1] }, { id: 'p2-x', side: 'P2', ...p2 }];
    const notes = { P2: { breakdown: { roll: 3, result: 1, text: '', broken, recorded: [] } } };
    const state = buildState(scenario, { phase: 'p1-movement', units, standing: { P2: standing }, notes }, GATORS_SPEC.initialExt(scenario)) as GState;
    const { events } = submit(state, 'P1', [{ kind: 'move', unit: 'lander', path: [lander[2]] }], new ForcedDice([]));
    return JSON.stringify(events.map((e) => eventAsSeenBy(e, 'P1')));
  };

  it('tells P1 nothing of what a "?" next to the landing hides, with or without standing orders', () => {
    for (const standing of [{}, { 'anti-landing': 'none' }]) {
      const reads = ['dragon-team', 'stinger-team', 'truck-p2'].map((type) => p1Reads(['aav', '1607', '1608'], { type, hex: '1609', hidden: '?' }, standing));
      expect(new Set(reads).size).toBe(1);
    }
  });

  it('tells P1 nothing of the breakdown roll (Q-GT-14): a broken-down Missile Boat is asked about as a working one', () => {
    for (const standing of [{}, { 'anti-landing': 'none' }]) {
      const working = p1Reads(['seal-team', '1308', '1309'], { type: 'missile-boat', hex: '1209' }, standing);
      expect(p1Reads(['seal-team', '1308', '1309'], { type: 'missile-boat', hex: '1209' }, standing, ['p2-x'])).toBe(working);
    }
  });

  it('tells P1 nothing of the breakdown of a unit that could not fire anyway: a broken-down A-4 on its airfield (landed, GT-7H.1) is asked about as a working one', () => {
    for (const standing of [{}, { 'anti-landing': 'none' }]) {
      const working = p1Reads(['seal-team', '1120', '1219'], { type: 'a-4', hex: '1319' }, standing);
      expect(p1Reads(['seal-team', '1120', '1219'], { type: 'a-4', hex: '1319' }, standing, ['p2-x'])).toBe(working);
    }
  });
});
