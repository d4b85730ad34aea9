import { RecentWeakMap } from './recent-weak-map';

function keys(n: number): object[] {
  return Array.from({ length: n }, () => ({}));
}

describe('RecentWeakMap', () => {
  it('finds an entry for at least one generation of insertions after it was written', () => {
    const m = new RecentWeakMap<object, number>(4);
    const [a, ...rest] = keys(5);
    m.set(a!, 1);
    rest.forEach((k, i) => m.set(k, i));
    expect(m.get(a!)).toBe(1);
  });

  it('loses an entry written and not read for two generations', () => {
    const m = new RecentWeakMap<object, number>(4);
    const [a, ...rest] = keys(9);
    m.set(a!, 1);
    rest.forEach((k, i) => m.set(k, i));
    expect(m.get(a!)).toBeUndefined();
  });

  it('carries over an entry read from the previous generation, so one in use is kept', () => {
    const m = new RecentWeakMap<object, number>(4);
    const [a, ...rest] = keys(13);
    m.set(a!, 1);
    rest.forEach((k, i) => {
      m.set(k, i);
      if (i % 3 === 2) expect(m.get(a!)).toBe(1);
    });
    expect(m.get(a!)).toBe(1);
  });

  it('answers the latest value written for a key', () => {
    const m = new RecentWeakMap<object, number>(2);
    const [a, b] = keys(2);
    m.set(a!, 1);
    m.set(b!, 2);
    m.set(a!, 3);
    expect(m.get(a!)).toBe(3);
    expect(m.get(b!)).toBe(2);
  });
});
