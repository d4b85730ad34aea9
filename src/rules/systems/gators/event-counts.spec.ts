import { join } from 'node:path';
import { loadScenario } from '../../../scenarios/load-scenario';
import { ForcedDice } from '../../dice/forced-dice';
import { concealedFrom, eventAsSeenBy } from '../../engine/visibility';
import { RawSubmission } from '../../engine/types';
import { JsonObject } from '../../model/json';
import { buildState, Prestate } from '../../testing/prestate';
import { GATORS_SPEC, gators } from './index';
import { GState, gext } from './ext';
import setupP1 from './examples/setup-p1.json';
import setupP2 from './examples/setup-p2.json';

/**
 * Every event takes the next version, one a side may not read too, so the other side counts
 * them: what it reads of a submission, with a gap for each event it may not read, must be the
 * same whatever the submission's secrets (the units under a "?" that take part, hidden cargo).
 */
const scenario = loadScenario(join(__dirname, '../../../scenarios/gators-unnarstan'));

function readBy(side: string | null, prestate: Prestate, by: string, submission: RawSubmission, dice: number[]): string[] {
  return readOfSteps(side, prestate, [{ by, submission, dice }])[0]!;
}

/** What `side` (null: a spectator) reads of each step, a submission after another. */
function readOfSteps(side: string | null, prestate: Prestate, steps: ReadonlyArray<{ by: string; submission: RawSubmission; dice: number[] }>): string[][] {
  let state = buildState(scenario, prestate, GATORS_SPEC.initialExt(scenario) as unknown as JsonObject) as unknown as GState;
  return steps.map(({ by, submission, dice }) => {
    const parsed = gators.parse(state, by, submission);
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.violations));
    const violations = gators.validate(state, by, parsed.value);
    if (violations.length > 0) throw new Error(JSON.stringify(violations));
    const events = gators.resolve(state, by, parsed.value, new ForcedDice(dice));
    state = events.reduce((s, e) => gators.evolve(s, e), state);
    return events.map((e) => JSON.stringify(eventAsSeenBy(e, side)));
  });
}

/** A CH-53E with two platoons aboard, and a Hawk under a "?" whose ZOC stops it short of 1411 (GT-6F.1), so that the unloads after the move are cancelled. */
const helicopterBeforeHiddenHawk: Prestate['units'] = [
        { id: 'h', type: 'ch-53e', side: 'P1', hex: '1213' },
        { id: 's1', type: 'rifle-platoon', side: 'P1', carrier: 'h' },
        { id: 's2', type: 'rifle-platoon', side: 'P1', carrier: 'h' },
        { id: 'hawk', type: 'hawk', side: 'P2', hex: '1412', hidden: '?' },
];
const helicopterIntoHawkZoc = { kind: 'move', unit: 'h', path: ['1313', '1312', '1411'] };

describe('what a side reads of the other side submission does not count its secrets', () => {
  it('an attack by one camouflaged unit or by two reads the same to the defender (GT-6L.2)', () => {
    const prestate: Prestate = {
      phase: 'p2-combat',
      units: [
        { id: 'p1-plt', type: 'rifle-platoon', side: 'P1', hex: '1709' },
        { id: 'p2-mortar-x', type: 'mortar-team', side: 'P2', hex: '1810', hidden: '?' },
        { id: 'p2-mortar-y', type: 'mortar-team', side: 'P2', hex: '1610', hidden: '?' },
      ],
    };
    const attack = (units: string[]): RawSubmission => ({ kind: 'orders', orders: [{ kind: 'attack', attackers: units.map((unit) => ({ unit })), target: '1709' }] });
    const one = readBy('P1', prestate, 'P2', attack(['p2-mortar-x']), [1]);
    const two = readBy('P1', prestate, 'P2', attack(['p2-mortar-x', 'p2-mortar-y']), [1]);
    expect(one.some((e) => e.includes('AttackResolved'))).toBe(true);
    expect(two).toEqual(one);
  });

  it('a sealed setup reads the same to the other side whatever is loaded aboard the transports (GT-4.10)', () => {
    const readOfSetups = (p1Orders: unknown[]) => {
      let state = gators.start(scenario, { sides: ['P1', 'P2'] }).reduce<GState | undefined>((s, e) => gators.evolve(s, e), undefined)!;
      const seal = (side: string, orders: unknown[]) => {
        const parsed = gators.parse(state, side, { kind: 'orders', orders });
        if (!parsed.ok || gators.validate(state, side, parsed.value).length > 0) throw new Error(`${side}'s setup was refused`);
        const events = gators.resolve(state, side, parsed.value, new ForcedDice([3]));
        state = events.reduce((s, e) => gators.evolve(s, e), state);
        return events.map((e) => JSON.stringify(eventAsSeenBy(e, 'P2')));
      };
      return [...seal('P1', p1Orders), ...seal('P2', setupP2.orders)];
    };
    const all: Array<Record<string, unknown>> = setupP1.orders;
    const unloaded = all.filter((o) => !(o['kind'] === 'load' && o['unit'] === 'p1-rp-lhd-1'));
    expect(unloaded.length).toBe(all.length - 1);
    const read = readOfSetups(all);
    expect(read.some((e) => e.includes('"MarkerPlaced"') || e.includes('"UnitLoaded"'))).toBe(false);
    expect(readOfSetups(unloaded)).toEqual(read);
  });

  it('an attack on a "?" rolls the same dice, as the attacker reads them, whatever the "?" hides (GT-6M.4, Q-GT-27)', () => {
    const readOfAttack = (type: string) => {
      const state = buildState(
        scenario,
        { phase: 'p1-combat', units: [{ id: 'p1-plt', type: 'rifle-platoon', side: 'P1', hex: '1710' }, { id: 'p2-x', type, side: 'P2', hex: '1810', hidden: '?' }] },
        GATORS_SPEC.initialExt(scenario) as unknown as JsonObject,
      ) as unknown as GState;
      const parsed = gators.parse(state, 'P1', { kind: 'orders', orders: [{ kind: 'attack', attackers: [{ unit: 'p1-plt' }], target: '1810' }] });
      if (!parsed.ok || gators.validate(state, 'P1', parsed.value).length > 0) throw new Error('the attack was refused');
      const dice = new ForcedDice([6, 6]);
      const events = gators.resolve(state, 'P1', parsed.value, dice);
      // The server logs each roll as DiceRolled: a secret one (visibleTo) reads to the others as a roll of that die.
      const rolls = dice.rolls.map((r) => (r.visibleTo === undefined || r.visibleTo.includes('P1') ? `${r.sides}:${r.purpose}` : `${r.sides}:secret`));
      return { rolls, events: events.map((e) => JSON.stringify(eventAsSeenBy(e, 'P1'))) };
    };
    expect(readOfAttack('guerrillas').rolls).toEqual(readOfAttack('infantry-platoon').rolls);
  });

  it('an air attack on a "?" in jungle rolls the same dice, as the attacker reads them, whether it hides Guerrillas or not (GT-3.8 beside GT-6M.4, Q-GT-27)', () => {
    const readOfAttack = (type: string) => {
      const state = buildState(
        scenario,
        { phase: 'p1-combat', turn: 2, units: [{ id: 'p1-ah1w', type: 'ah-1w', side: 'P1', hex: '3215' }, { id: 'p2-x', type, side: 'P2', hex: '3316', hidden: '?' }] },
        GATORS_SPEC.initialExt(scenario) as unknown as JsonObject,
      ) as unknown as GState;
      const parsed = gators.parse(state, 'P1', { kind: 'orders', orders: [{ kind: 'attack', attackers: [{ unit: 'p1-ah1w' }], target: '3316' }] });
      if (!parsed.ok || gators.validate(state, 'P1', parsed.value).length > 0) throw new Error('the attack was refused');
      // Every pre-roll passes (GT-3.8 needs 4+, GT-6M.4 5+), then the attack's own die.
      const dice = new ForcedDice([6, 6, 6]);
      const events = gators.resolve(state, 'P1', parsed.value, dice);
      expect(events.map((e) => e.type)).toContain('AttackResolved');
      return dice.rolls.map((r) => (r.visibleTo === undefined || r.visibleTo.includes('P1') ? `${r.sides}:${r.purpose}` : `${r.sides}:secret`));
    };
    const guerrillas = readOfAttack('guerrillas');
    expect(guerrillas.filter((r) => r === '6:secret').length).toBe(2);
    expect(readOfAttack('infantry-platoon')).toEqual(guerrillas);
  });

  it('a sabotage attack on a "?" rolls the same dice, as the SEALs\' side reads them, whether it hides Guerrillas or not (GT-7K.2, Q-GT-27)', () => {
    const readOfSabotage = (type: string) => {
      const state = buildState(
        scenario,
        { phase: 'p1-combat', units: [{ id: 'p1-seal', type: 'seal-team', side: 'P1', hex: '1710' }, { id: 'p2-x', type, side: 'P2', hex: '1810', hidden: '?' }] },
        GATORS_SPEC.initialExt(scenario) as unknown as JsonObject,
      ) as unknown as GState;
      const parsed = gators.parse(state, 'P1', { kind: 'orders', orders: [{ kind: 'sabotage', unit: 'p1-seal', target: '1810' }] });
      if (!parsed.ok || gators.validate(state, 'P1', parsed.value).length > 0) throw new Error('the sabotage was refused');
      const dice = new ForcedDice([1, 1]);
      const events = gators.resolve(state, 'P1', parsed.value, dice);
      expect(events.map((e) => e.type)).toContain('AttackResolved');
      return dice.rolls.map((r) => (r.visibleTo === undefined || r.visibleTo.includes('P1') ? `${r.sides}:${r.purpose}` : `${r.sides}:secret`));
    };
    expect(readOfSabotage('guerrillas')).toEqual(readOfSabotage('mortar-team'));
  });

  it('a HERS explosion next to a "?" reads the same, with the same dice, to P1 and a spectator whether the "?" hides one unit or two (GT-6N.8, Q-GT-29)', () => {
    const explode = (hidden: Prestate['units']) => {
      const units: Prestate['units'] = [
        { id: 'ch53', type: 'ch-53e', side: 'P1', hex: '1709' },
        { id: 'hers', type: 'hers', side: 'P1', carrier: 'ch53' },
        { id: 'inf', type: 'infantry-platoon', side: 'P2', hex: '1609' },
        { id: 'sq', type: 'squad', side: 'P1', hex: '1809' },
        ...hidden,
      ];
      const state = buildState(scenario, { phase: 'p2-combat', units }, GATORS_SPEC.initialExt(scenario) as unknown as JsonObject) as unknown as GState;
      const parsed = gators.parse(state, 'P2', { kind: 'orders', orders: [{ kind: 'attack', attackers: [{ unit: 'inf' }], target: '1709' }] });
      if (!parsed.ok || gators.validate(state, 'P2', parsed.value).length > 0) throw new Error('the attack was refused');
      // 4: the CH-53E is destroyed (D X); 3: no result on column 2, so nothing the blast does reveals the "?".
      const dice = new ForcedDice([4, ...Array<number>(12).fill(3)]);
      const events = gators.resolve(state, 'P2', parsed.value, dice);
      const read = (side: string | null) => events.map((e) => JSON.stringify(eventAsSeenBy(e, side)));
      const rolls = dice.rolls.map((r) => (r.visibleTo === undefined || r.visibleTo.includes('P1') ? `${r.sides}:${r.purpose}` : `${r.sides}:secret`));
      return { p1: read('P1'), spectator: read(null), rolls, types: events.map((e) => e.type) };
    };
    const one = explode([{ id: 'p2-a', type: 'infantry-platoon', side: 'P2', hex: '1710', hidden: '?' }]);
    const two = explode([
      { id: 'p2-a', type: 'infantry-platoon', side: 'P2', hex: '1710', hidden: '?' },
      { id: 'p2-b', type: 'dragon-team', side: 'P2', hex: '1710', hidden: '?' },
    ]);
    expect(one.types).toContain('HersExploded');
    expect(two.p1).toEqual(one.p1);
    expect(two.spectator).toEqual(one.spectator);
    expect(two.rolls).toEqual(one.rolls);
  });

  it('an attack on a counter in sight stacked with a "?" reads the same to the attacker whichever of them defends (GT-7N.1, Q-GT-27)', () => {
    const attack = (hiddenType: string) =>
      readBy(
        'P1',
        {
          phase: 'p1-combat',
          units: [
            { id: 'p1-lav', type: 'lav-25', side: 'P1', hex: '1710' },
            { id: 'p2-seen', type: 'infantry-platoon', side: 'P2', hex: '1810' },
            { id: 'p2-x', type: hiddenType, side: 'P2', hex: '1810', hidden: '?' },
          ],
        },
        'P1',
        { kind: 'orders', orders: [{ kind: 'attack', attackers: [{ unit: 'p1-lav' }], target: '1810' }] },
        [3, 3],
      );
    // An M48 (defense 2) defends before the platoon in sight (defense 1); Militia (defense 1) does not.
    // Up to the attack itself: its results show, as after any attack on a "?".
    const upToAttack = (read: string[]) => read.slice(0, read.findIndex((e) => e.includes('AttackResolved')) + 1);
    const read = upToAttack(attack('militia'));
    expect(read.length).toBeGreaterThan(0);
    expect(upToAttack(attack('m48'))).toEqual(read);
  });

  it('a "?" moving through jungle reads the same whatever it hides, a platoon that may leave Debris or not (GT-6L.2, Q-GT-32)', () => {
    const move = (type: string) =>
      readBy('P1', { phase: 'p2-movement', units: [{ id: 'p2-x', type, side: 'P2', hex: '1711', hidden: '?' }] }, 'P2', { kind: 'orders', orders: [{ kind: 'move', unit: 'p2-x', path: ['1610'] }] }, []);
    expect(move('infantry-platoon')).toEqual(move('militia'));
  });

  it('a "?" on Debris reads the same at the start of its movement phase whether it may remove the Debris or not (GT-6Q.6, Q-GT-32)', () => {
    const start = (type: string) =>
      readBy('P1', { phase: 'p2-guerrillas', units: [{ id: 'p2-x', type, side: 'P2', hex: '1711', hidden: '?' }], ext: { debris: ['1711'] } }, 'P2', { kind: 'orders', orders: [] }, []);
    expect(start('militia')).toEqual(start('infantry-platoon'));
  });

  it('an attack on a "?" on Debris reads the same whether it hid Militia at work or not (GT-6Q.6, Q-GT-32)', () => {
    const attack = (type: string, attrs: Record<string, unknown>) =>
      readBy(
        'P1',
        { phase: 'p1-combat', units: [{ id: 'p1-plt', type: 'rifle-platoon', side: 'P1', hex: '1710' }, { id: 'p2-x', type, side: 'P2', hex: '1810', hidden: '?', attrs }], ext: { debris: ['1810'] } },
        'P1',
        { kind: 'orders', orders: [{ kind: 'attack', attackers: [{ unit: 'p1-plt' }], target: '1810' }] },
        [1, 1],
      );
    const read = attack('militia', { debrisWork: { hex: '1810', turns: 0 } });
    expect(read.some((e) => e.includes('AttackResolved'))).toBe(true);
    expect(attack('infantry-platoon', {})).toEqual(read);
  });

  it('a "?" on Debris that attacked reads the same at the end of the turn whether it was at work or not (GT-6Q.6, Q-GT-32)', () => {
    const attack = (type: string, attrs: Record<string, unknown>) =>
      readBy(
        'P1',
        { phase: 'p2-combat', units: [{ id: 'p1-plt', type: 'rifle-platoon', side: 'P1', hex: '1710' }, { id: 'p2-x', type, side: 'P2', hex: '1810', hidden: '?', attrs }], ext: { debris: ['1810'] } },
        'P2',
        { kind: 'orders', orders: [{ kind: 'attack', attackers: [{ unit: 'p2-x' }], target: '1710' }] },
        [6],
      );
    const read = attack('militia', { debrisWork: { hex: '1810', turns: 0 } });
    expect(read.some((e) => e.includes('AttackResolved'))).toBe(true);
    expect(attack('guerrillas', {})).toEqual(read);
  });

  it('re-arming one aircraft or two aboard the LHD reads the same to the other side and to a spectator (GT-6B.4, GT-6C.2)', () => {
    const prestate: Prestate = {
      phase: 'p1-launch',
      units: [
        { id: 'lhd', type: 'lhd', side: 'P1', hex: '0911' },
        { id: 'ah-1', type: 'ah-1w', side: 'P1', carrier: 'lhd' },
        { id: 'ah-2', type: 'ah-1w', side: 'P1', carrier: 'lhd' },
      ],
    };
    const arm = (units: string[]): RawSubmission => ({ kind: 'orders', orders: units.map((unit) => ({ kind: 'arm', unit, markers: ['Ground', 'Ground'] })) });
    for (const reader of ['P2', null]) {
      const one = readBy(reader, prestate, 'P1', arm(['ah-1']), []);
      expect(one.some((e) => e.includes('PhaseAdvanced'))).toBe(true);
      expect(readBy(reader, prestate, 'P1', arm(['ah-1', 'ah-2']), [])).toEqual(one);
    }
  });

  it('a recovery reads the same to the other side and to a spectator, and leaves them the same view, whether a used HERS was hidden aboard or not (GT-6N.4, Q-GT-29)', () => {
    const recovery = (aboard: Prestate['units'], refuel: Record<string, number>) => {
      const prestate: Prestate = {
        phase: 'p1-recovery',
        units: [{ id: 'lhd', type: 'lhd', side: 'P1', hex: '0911' }, { id: 'ch53', type: 'ch-53e', side: 'P1', hex: '1010' }, ...aboard],
        ext: { refuel },
      };
      const before = buildState(scenario, prestate, GATORS_SPEC.initialExt(scenario) as unknown as JsonObject) as unknown as GState;
      const parsed = gators.parse(before, 'P1', { kind: 'orders', orders: [{ kind: 'recover', unit: 'ch53', ship: 'lhd' }] });
      if (!parsed.ok) throw new Error(JSON.stringify(parsed.violations));
      expect(gators.validate(before, 'P1', parsed.value)).toEqual([]);
      const events = gators.resolve(before, 'P1', parsed.value, new ForcedDice([]));
      const after = events.reduce((s, e) => gators.evolve(s, e), before);
      const read = (side: string | null) => ({
        events: events.map((e) => JSON.stringify(eventAsSeenBy(e, side))),
        views: [before, after].map((s) => JSON.stringify(gators.view(s, side === null ? { kind: 'spectator' } : { kind: 'side', side }))),
      });
      return { before, after, read };
    };
    const used = recovery([{ id: 'hers', type: 'hers', side: 'P1', carrier: 'ch53' }], { hers: 1 });
    expect(concealedFrom(used.before, used.before.units['hers']!)).toEqual(['P2']);
    // P1 reads the refill and the HERS is full again.
    expect(used.read('P1').events.some((e) => e.includes('RefuelRefilled') && e.includes('"unit":"hers"'))).toBe(true);
    expect(gext(used.after).refuel['hers']).toBeUndefined();
    const full = recovery([{ id: 'hers', type: 'hers', side: 'P1', carrier: 'ch53' }], {});
    const none = recovery([], {});
    for (const reader of ['P2', null]) {
      expect(used.read(reader)).toEqual(none.read(reader));
      expect(full.read(reader)).toEqual(none.read(reader));
    }
  });

  it('one unloading cancelled or two, after a hidden Hawk stopped the helicopter, read the same to the other side and to a spectator (Q-GT-21, GT-6F.1)', () => {
    const prestate: Prestate = {
      phase: 'p1-movement',
      units: [
        ...helicopterBeforeHiddenHawk,
      ],
    };
    const move = helicopterIntoHawkZoc;
    const unloads = [
      { kind: 'unload', unit: 's1', hex: '1410' },
      { kind: 'unload', unit: 's2', hex: '1511' },
    ];
    for (const reader of ['P2', null]) {
      const one = readBy(reader, prestate, 'P1', { kind: 'orders', orders: [move, unloads[0]!] }, []);
      expect(one.some((e) => e.includes('"stoppedBy":"zoc"'))).toBe(true);
      expect(readBy(reader, prestate, 'P1', { kind: 'orders', orders: [move, ...unloads] }, [])).toEqual(one);
    }
    const own = readBy('P1', prestate, 'P1', { kind: 'orders', orders: [move, ...unloads] }, []).join();
    expect(own.match(/"OrderCancelled"/g)?.length).toBe(2);
  });

  it('cancelled orders before and after a reaction read the same to the other side in each part, whatever their number (Q-GT-21, GT-7O.2)', () => {
    const prestate: Prestate = {
      phase: 'p1-movement',
      units: [
        ...helicopterBeforeHiddenHawk,
        { id: 'aav', type: 'aav', side: 'P1', hex: '1607' },
        { id: 'q', type: 'squad', side: 'P1', carrier: 'aav' },
        { id: 'd', type: 'dragon-team', side: 'P2', hex: '1609' },
      ],
    };
    const steps = (orders: unknown[]) => [
      { by: 'P1', submission: { kind: 'orders', orders } as RawSubmission, dice: [] },
      { by: 'P2', submission: { kind: 'reaction', orders: { attackers: ['d'] } } as RawSubmission, dice: [5] },
    ];
    const move = helicopterIntoHawkZoc;
    const s1 = { kind: 'unload', unit: 's1', hex: '1410' };
    const s2 = { kind: 'unload', unit: 's2', hex: '1511' };
    const land = { kind: 'move', unit: 'aav', path: ['1608'] };
    const q = { kind: 'unload', unit: 'q', hex: '1709' };
    const oneAndOne = readOfSteps('P2', prestate, steps([move, s1, land, q]));
    expect(oneAndOne[0]!.some((e) => e.includes('ReactionRequested'))).toBe(true);
    expect(oneAndOne[1]!.some((e) => e.includes('"result":"D R1"'))).toBe(true);
    expect(readOfSteps('P2', prestate, steps([move, s1, s2, land]))).toEqual(oneAndOne);
  });

  it('attacks cancelled after the defender chose its retreat read the same to it, one or two (Q-GT-35, GT-7A.1)', () => {
    const prestate: Prestate = {
      phase: 'p2-combat',
      units: [
        { id: 'p', type: 'rifle-platoon', side: 'P1', hex: '1709' },
        { id: 'e1', type: 'infantry-platoon', side: 'P2', hex: '1710' },
        { id: 'e2', type: 'infantry-platoon', side: 'P2', hex: '1609' },
        { id: 'e3', type: 'infantry-platoon', side: 'P2', hex: '1809' },
      ],
      standing: { P1: { retreat: 'ask' } },
    };
    const attack = (unit: string) => ({ kind: 'attack', attackers: [{ unit }], target: '1709' });
    const steps = (units: string[]) => [
      { by: 'P2', submission: { kind: 'orders', orders: units.map(attack) } as RawSubmission, dice: [5] },
      { by: 'P1', submission: { kind: 'reaction', orders: { to: '1808' } } as RawSubmission, dice: [] },
    ];
    const one = readOfSteps('P1', prestate, steps(['e1', 'e2']));
    expect(one[1]!.some((e) => e.includes('"path":["1709","1808"]'))).toBe(true);
    expect(readOfSteps('P1', prestate, steps(['e1', 'e2', 'e3']))).toEqual(one);
  });
});
