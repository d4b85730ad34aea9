import fc from 'fast-check';
import { GameState, Location, UnitState } from '../model/state';
import { patchUnit } from './evolve';
import { allUnits, cargoOf, everythingAboard, towedBy, unitsAt } from './queries';
import { withTowed } from './stacking';
import { enemyVersion, replaceUnit, unitIndex } from './unit-index';

const IDS = ['a1', 'a2', 'a3', 'a4', 'b1', 'b2', 'b3', 'c1'];
// Enough hexes for a derived index to outgrow its layer of changes (Layered flattens past 16).
const HEXES = Array.from({ length: 40 }, (_, k) => `01${String(k + 1).padStart(2, '0')}`);
const SIDES = ['A', 'B', 'C'];

const locArb: fc.Arbitrary<Location> = fc.oneof(
  fc.constantFrom(...HEXES).map((hex): Location => ({ at: 'hex', hex })),
  fc.constantFrom(...IDS).map((by): Location => ({ at: 'carried', by })),
  fc.uniqueArray(fc.constantFrom(...IDS), { minLength: 1, maxLength: 2 }).map((by): Location => ({ at: 'towed', by })),
  fc.constant<Location>({ at: 'box', box: 'reserve' }),
  fc.constant<Location>({ at: 'eliminated' }),
);

const patchArb = fc.record({ id: fc.constantFrom(...IDS), loc: locArb, side: fc.option(fc.constantFrom(...SIDES), { nil: undefined }) });

function stateOf(units: Record<string, UnitState>): GameState {
  return { units } as unknown as GameState;
}

/** Whether no unit is (at any depth) aboard itself: everythingAboard needs that, random patches do not ensure it. */
function acyclic(s: GameState): boolean {
  return allUnits(s).every((u) => {
    let cur: UnitState | undefined = u;
    for (let k = 0; k <= IDS.length; k++) {
      if (cur === undefined) return true;
      const by: string | undefined = cur.loc.at === 'carried' ? cur.loc.by : cur.loc.at === 'towed' ? cur.loc.by[0] : undefined;
      if (by === undefined) return true;
      cur = s.units[by];
    }
    return false;
  });
}

/** Every answer of the index, for comparing a derived index with one built from scratch. */
function answers(s: GameState): unknown {
  return {
    all: allUnits(s).map((u) => u.id),
    at: HEXES.map((h) => unitsAt(s, h).map((u) => u.id)),
    cargo: IDS.map((c) => cargoOf(s, c).map((u) => u.id)),
    towed: IDS.map((t) => towedBy(s, t)?.id ?? null),
    aboard: acyclic(s) ? IDS.map((c) => everythingAboard(s, c).map((u) => u.id)) : null,
    withTowed: withTowed(s, allUnits(s).filter((u) => u.loc.at === 'hex')).map((u) => u.id),
  };
}

describe('unit index', () => {
  it('an index derived through patchUnit answers as one built from scratch, and an enemy version survives only changes to that side', () => {
    fc.assert(
      fc.property(fc.array(patchArb, { minLength: 1, maxLength: 80 }), (patches) => {
        const units: Record<string, UnitState> = {};
        IDS.forEach((id, k) => (units[id] = { id, type: 't', side: id[0]!.toUpperCase(), loc: { at: 'hex', hex: HEXES[k % HEXES.length]! }, flags: {}, attrs: {} }));
        let s = stateOf(units);
        unitIndex(s);
        for (const p of patches) {
          const before = s.units[p.id]!;
          const keys = SIDES.map((side) => enemyVersion(s, side));
          const next = patchUnit(s, p.id, (u) => ({ ...u, loc: p.loc, side: p.side ?? u.side }));
          const after = next.units[p.id]!;
          expect(answers(next)).toEqual(answers(stateOf({ ...next.units })));
          SIDES.forEach((side, k) => expect(enemyVersion(next, side) === keys[k]).toBe(before.side === side && after.side === side));
          s = next;
        }
      }),
    );
  });

  it('replaceUnit makes the record a spread would, from any earlier record, and never changes one already made', () => {
    const step = fc.record({ from: fc.nat(), id: fc.constantFrom(...IDS), hex: fc.constantFrom(...HEXES) });
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 60 }), (steps) => {
        const first: Record<string, UnitState> = {};
        IDS.forEach((id, k) => (first[id] = { id, type: 't', side: id[0]!.toUpperCase(), loc: { at: 'hex', hex: HEXES[k]! }, flags: {}, attrs: {} }));
        // Records branch (a fold from an earlier state), as validation and resolution do.
        const made: { units: Record<string, UnitState>; copy: [string, UnitState][] }[] = [{ units: first, copy: Object.entries(first) }];
        for (const st of steps) {
          const parent = made[st.from % made.length]!.units;
          const before = parent[st.id]!;
          const after: UnitState = { ...before, loc: { at: 'hex', hex: st.hex } };
          const child = replaceUnit(parent, st.id, before, after);
          expect(Object.entries(child)).toEqual(Object.entries({ ...parent, [st.id]: after }));
          made.push({ units: child as Record<string, UnitState>, copy: Object.entries(child) });
          for (const m of made) expect(Object.entries(m.units)).toEqual(m.copy);
        }
      }),
    );
  });
});
