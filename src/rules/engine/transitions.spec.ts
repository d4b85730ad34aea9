import { ForcedDice } from '../dice/forced-dice';
import { sameJson } from '../model/json';
import { buildState } from '../testing/prestate';
import { testScenario } from '../testing/scenario-files';
import { testSystem } from '../testing/test-system';
import { evolve } from './evolve';
import { enemyVersion } from './unit-index';

function start() {
  return buildState(testScenario(), {
    phase: 'a-move',
    units: [
      { id: 'a-car', type: 'fast-car', side: 'A', hex: '0503' },
      { id: 'a-tank', type: 'tank', side: 'A', hex: '0303' },
      { id: 'b-m1', type: 'mortar', side: 'B', hex: '1008' },
    ],
  });
}

const orders = {
  kind: 'orders' as const,
  orders: [
    { kind: 'move', unit: 'a-car', path: ['0603', '0703'] },
    { kind: 'move', unit: 'a-tank', path: ['0403'] },
  ],
};

describe('remembered transitions', () => {
  it('resolve walks the states validation projected, and folding its events returns them: the same states as evolving afresh', () => {
    const s = start();
    const p = testSystem.parse(s, 'A', orders);
    if (!p.ok) throw new Error(JSON.stringify(p.violations));
    expect(testSystem.validate(s, 'A', p.value)).toEqual([]);
    const events = testSystem.resolve(s, 'A', p.value, new ForcedDice([]));
    const folded = events.reduce((x, e) => testSystem.evolve(x, { type: e.type, data: e.data }), s);
    // The same events evolved from copies, with nothing remembered.
    const fresh = events.reduce((x, e) => testSystem.evolve(x, structuredClone({ type: e.type, data: e.data })), structuredClone(s));
    expect(JSON.stringify(folded)).toEqual(JSON.stringify(fresh));
    // Each remembered step is used once: a second fold evolves again, to equal states.
    const again = events.reduce((x, e) => testSystem.evolve(x, { type: e.type, data: e.data }), s);
    expect(again).not.toBe(folded);
    expect(JSON.stringify(again)).toEqual(JSON.stringify(folded));
  });

  it('a different event from a state with a remembered step is evolved, not taken from the memo', () => {
    const s = start();
    const p = testSystem.parse(s, 'A', orders);
    if (!p.ok) throw new Error(JSON.stringify(p.violations));
    testSystem.validate(s, 'A', p.value);
    const other = evolve(s, { type: 'UnitMoved', data: { unit: 'a-car', path: ['0503', '0604'], cost: 1 } });
    expect(other.units['a-car']!.loc).toEqual({ at: 'hex', hex: '0604' });
  });

  it('after an event that changes only seq, the step validation remembered is taken again, with seq counted on', () => {
    const s = start();
    const p = testSystem.parse(s, 'A', orders);
    if (!p.ok) throw new Error(JSON.stringify(p.violations));
    testSystem.validate(s, 'A', p.value);
    // The same events, resolved from another copy of the start, so that s keeps its remembered step.
    const copy = start();
    const q = testSystem.parse(copy, 'A', orders);
    if (!q.ok) throw new Error(JSON.stringify(q.violations));
    const move = testSystem.resolve(copy, 'A', q.value, new ForcedDice([]))[0]!;
    const note = { type: 'OrderCancelled', data: { side: 'A', index: 9, kind: 'move', reason: 'test', ruleId: 'T' } };
    const noted = testSystem.evolve(s, note);
    expect(noted.seq).toBe(s.seq + 1);
    const next = testSystem.evolve(noted, { type: move.type, data: move.data });
    expect(next.seq).toBe(s.seq + 2);
    const fresh = [note, move].reduce((x, e) => testSystem.evolve(x, structuredClone({ type: e.type, data: e.data })), structuredClone(s));
    expect(JSON.stringify(next)).toEqual(JSON.stringify(fresh));
    // The state validation made, still remembered from s: next is it with another seq, its units shared.
    const projected = testSystem.evolve(s, { type: move.type, data: move.data });
    expect(projected.seq).toBe(s.seq + 1);
    expect(next.units).toBe(projected.units);
  });

  it('when other decisions have turned the young memo tables over since validation, resolve gives the same events (recent-weak-map.ts)', () => {
    const s = start();
    const p = testSystem.parse(s, 'A', orders);
    if (!p.ok) throw new Error(JSON.stringify(p.violations));
    expect(testSystem.validate(s, 'A', p.value)).toEqual([]);
    const version = enemyVersion(s, 'A');
    for (let k = 0; k < 100; k++) {
      const other = start();
      const q = testSystem.parse(other, 'A', orders);
      if (!q.ok) throw new Error(JSON.stringify(q.violations));
      testSystem.validate(other, 'A', q.value);
    }
    // s's index was let go and built again: what was derived from it is derived again.
    expect(enemyVersion(s, 'A')).not.toBe(version);
    const events = testSystem.resolve(s, 'A', p.value, new ForcedDice([]));
    const copy = start();
    const c = testSystem.parse(copy, 'A', orders);
    if (!c.ok) throw new Error(JSON.stringify(c.violations));
    expect(events).toEqual(testSystem.resolve(copy, 'A', c.value, new ForcedDice([])));
    const folded = events.reduce((x, e) => testSystem.evolve(x, { type: e.type, data: e.data }), s);
    const fresh = events.reduce((x, e) => testSystem.evolve(x, structuredClone({ type: e.type, data: e.data })), structuredClone(s));
    expect(JSON.stringify(folded)).toEqual(JSON.stringify(fresh));
  });

  it('compares JSON with object keys in order', () => {
    const same = (a: unknown, b: unknown) => sameJson(a, b, 'significant');
    expect(same({ a: 1, b: [1, { c: null }] }, { a: 1, b: [1, { c: null }] })).toBe(true);
    expect(same({ a: 1, b: 2 }, { b: 2, a: 1 })).toBe(false);
    expect(same([1, 2], { 0: 1, 1: 2 })).toBe(false);
    expect(same({ a: undefined }, {})).toBe(false);
    expect(same('1', 1)).toBe(false);
  });
});
