import { sameJson } from './json';

describe('sameJson with key order ignored', () => {
  const same = (a: unknown, b: unknown) => sameJson(a, b, 'ignored');

  it('matches objects whose keys come in another order, at any depth', () => {
    expect(same({ a: 1, b: { c: [1, { d: null, e: 'x' }] } }, { b: { c: [1, { e: 'x', d: null }] }, a: 1 })).toBe(true);
  });

  it('still tells apart arrays in another order, missing or extra keys, and other values', () => {
    expect(same([1, 2], [2, 1])).toBe(false);
    expect(same({ a: 1 }, { a: 1, b: 2 })).toBe(false);
    expect(same({ a: 1, b: 2 }, { a: 1, c: 2 })).toBe(false);
    expect(same({ a: undefined }, {})).toBe(false);
    expect(same([1, 2], { 0: 1, 1: 2 })).toBe(false);
    expect(same({ a: '1' }, { a: 1 })).toBe(false);
    expect(same(null, {})).toBe(false);
  });
});
