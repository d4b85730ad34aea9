import { join } from 'node:path';
import { ForcedDice } from '../../dice/forced-dice';
import { GameState } from '../../model/state';
import { eventAsSeenBy } from '../../engine/visibility';
import { Prestate, buildState } from '../../testing/prestate';
import { loadScenario } from '../../../scenarios/load-scenario';
import { GATORS_SPEC, gators } from './index';
import { GatorsExt } from './ext';

/**
 * Air operations beyond the rule cases: what options() offers for the new
 * orders (the same checks as validation), and that P1 never reads P2's
 * loadout through the events of a marker attack or an anti-aircraft attack.
 */
const scenario = loadScenario(join(__dirname, '../../../scenarios/gators-unnarstan'));
const state = (p: Prestate) => buildState(scenario, p, GATORS_SPEC.initialExt(scenario) as never) as unknown as GameState<GatorsExt>;
const other = (s: GameState<GatorsExt>, side: string, unit: string) => {
  const o = gators.options(s, side, unit);
  if (Array.isArray(o)) throw new Error(JSON.stringify(o));
  return o.other ?? [];
};

describe('air operations: options', () => {
  it('a helicopter aboard a ship may be launched into each free adjacent hex', () => {
    const s = state({ phase: 'p1-launch', units: [{ id: 'lhd', type: 'lhd', side: 'P1', hex: '0911' }, { id: 'lpd', type: 'lpd', side: 'P1', hex: '1010' }, { id: 'ch', type: 'ch-46e', side: 'P1', carrier: 'lhd' }] });
    expect(other(s, 'P1', 'ch').map((x) => (x.detail as { hex: string }).hex).sort()).toEqual(['0810', '0811', '0910', '0912', '1011']);
  });

  it('a ship with no launches left offers none', () => {
    const s = state({ phase: 'p1-launch', ext: { launches: { lhd: 6 } }, units: [{ id: 'lhd', type: 'lhd', side: 'P1', hex: '0911' }, { id: 'ch', type: 'ch-46e', side: 'P1', carrier: 'lhd' }] });
    expect(other(s, 'P1', 'ch')).toEqual([]);
  });

  it('the AV-8B is offered recovery aboard the LHD only', () => {
    const s = state({ phase: 'p1-recovery', units: [{ id: 'lhd', type: 'lhd', side: 'P1', hex: '0911' }, { id: 'lpd', type: 'lpd', side: 'P1', hex: '1111' }, { id: 'av', type: 'av-8b', side: 'P1', hex: '1010' }] });
    expect(other(s, 'P1', 'av')).toEqual([{ action: 'recover', detail: { ship: 'lhd' } }]);
  });

  it('marker strikes are offered for each marker type against the targets it may hit', () => {
    const s = state({
      phase: 'p2-combat',
      notes: { P2: { loadouts: { uh: ['Ground', 'Armor'] } } },
      units: [{ id: 'uh', type: 'uh-1b', side: 'P2', hex: '1709' }, { id: 'hm', type: 'hmmwv-auto', side: 'P1', hex: '1710' }, { id: 'm1', type: 'm1a1', side: 'P1', hex: '1809' }],
    });
    expect(other(s, 'P2', 'uh')).toEqual([
      { action: 'air-strike', detail: { marker: 'Ground', hex: '1710' } },
      { action: 'air-strike', detail: { marker: 'Armor', hex: '1809' } },
    ]);
  });
});

describe('air operations: hidden loadouts', () => {
  it('P1 reads which marker was fired, never what P2 still carries', () => {
    const s = state({
      phase: 'p2-combat',
      notes: { P2: { loadouts: { uh: ['Ground', 'Armor'] } } },
      units: [{ id: 'uh', type: 'uh-1b', side: 'P2', hex: '1709' }, { id: 'hm', type: 'hmmwv-auto', side: 'P1', hex: '1710' }],
    });
    const p = gators.parse(s, 'P2', { kind: 'orders', orders: [{ kind: 'air-strike', unit: 'uh', marker: 'Ground', targets: [{ hex: '1710', markers: 1 }] }] });
    if (!p.ok) throw new Error(JSON.stringify(p.violations));
    const events = gators.resolve(s, 'P2', p.value, new ForcedDice([3]));
    const seen = JSON.stringify(events.map((e) => eventAsSeenBy(e, 'P1')));
    expect(seen).toContain('"marker":"Ground"');
    expect(seen).not.toContain('Armor');
    const after = events.reduce((x, e) => gators.evolve(x, e), s);
    expect(JSON.stringify(gators.view(after, { kind: 'side', side: 'P1' }))).not.toContain('Armor');
    expect(JSON.stringify(gators.view(after, { kind: 'side', side: 'P2' }))).toContain('"uh":["Armor"]');
  });

  it('a jettison question shows P2 the aircraft and hex only', () => {
    const s = state({
      phase: 'p2-combat',
      notes: { P1: { loadouts: { ah: ['Ground', 'Ground', 'Air', 'Air'] } } },
      units: [{ id: 'stg', type: 'stinger-team', side: 'P2', hex: '1709' }, { id: 'ah', type: 'ah-1w', side: 'P1', hex: '1710' }],
    });
    const p = gators.parse(s, 'P2', { kind: 'orders', orders: [{ kind: 'attack', attackers: [{ unit: 'stg' }], target: '1710' }] });
    if (!p.ok) throw new Error(JSON.stringify(p.violations));
    const events = gators.resolve(s, 'P2', p.value, new ForcedDice([]));
    const seen = JSON.stringify(events.map((e) => eventAsSeenBy(e, 'P2')));
    expect(seen).toContain('"kind":"jettison"');
    expect(seen).not.toContain('Ground');
    expect(seen).not.toContain('"Air"');
  });
});

describe('AIR-02: the HERS ashore is seen by both sides (rules.json visibility.seenCargo)', () => {
  const withHersAt = (hex: string) =>
    state({
      phase: 'p2-movement',
      units: [
        { id: 'ch53', type: 'ch-53e', side: 'P1', hex },
        { id: 'hers', type: 'hers', side: 'P1', carrier: 'ch53' },
        { id: 'sq', type: 'squad', side: 'P1', carrier: 'ch53' },
      ],
    });
  const p2Sees = (s: GameState<GatorsExt>) => JSON.stringify(gators.view(s, { kind: 'side', side: 'P2' }));

  it('shows P2 the HERS aboard its CH-53E on a beach or clear hex, and no other cargo', () => {
    const seen = p2Sees(withHersAt('2821'));
    expect(seen).toContain('"hers"');
    expect(seen).not.toContain('"sq"');
  });

  it('hides it, as any cargo, while the CH-53E is over the water', () => {
    const seen = p2Sees(withHersAt('0911'));
    expect(seen).toContain('"ch53"');
    expect(seen).not.toContain('"hers"');
  });
});
