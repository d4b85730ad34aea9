import { ForcedDice, SeededDice, d6, drawFromCup, hits, rollPool, twoD6 } from './index';

describe('ForcedDice', () => {
  it('hands out forced results in order and records them', () => {
    const dice = new ForcedDice([3, { value: 5, sides: 6 }, 2]);
    expect(d6(dice, 'a')).toBe(3);
    expect(twoD6(dice, 'b')).toEqual({ dice: [5, 2], total: 7 });
    expect(dice.remaining).toBe(0);
    expect(dice.rolls.map((r) => r.value)).toEqual([3, 5, 2]);
  });

  it('throws a clear error when exhausted', () => {
    const dice = new ForcedDice([4]);
    d6(dice, 'first');
    expect(() => d6(dice, 'combat 0503')).toThrow(/ForcedDice exhausted: roll #2 \(d6, "combat 0503"\)/);
  });

  it('throws when a forced value cannot come up', () => {
    expect(() => d6(new ForcedDice([7]), 'x')).toThrow(/forced result #1 is 7, which a d6 cannot roll/);
    expect(() => d6(new ForcedDice([0]), 'x')).toThrow(/which a d6 cannot roll/);
  });

  it('throws when a forced roll was meant for other dice or another purpose', () => {
    expect(() => d6(new ForcedDice([{ value: 2, sides: 10 }]), 'x')).toThrow(/is for a d10, but roll #1 is a d6/);
    expect(() => d6(new ForcedDice([{ value: 2, purpose: 'morale' }]), 'combat')).toThrow(/is for "morale"/);
  });
});

describe('dice helpers', () => {
  it('rollPool and hits (World at War style pools)', () => {
    const dice = new ForcedDice([6, 2, 5, 4]);
    const pool = rollPool(dice, 4, 6, 'fire');
    expect(pool).toEqual([6, 2, 5, 4]);
    expect(hits(pool, 5)).toBe(2);
  });

  it('drawFromCup draws the rolled chit and leaves the rest in order', () => {
    const r = drawFromCup(new ForcedDice([3]), ['a', 'b', 'c', 'd'], 'activation');
    expect(r).toEqual({ drawn: 'c', index: 2, rest: ['a', 'b', 'd'] });
    expect(() => drawFromCup(new ForcedDice([1]), [], 'x')).toThrow(/empty cup/);
  });

  it('SeededDice is deterministic and in range', () => {
    const a = new SeededDice(42);
    const b = new SeededDice(42);
    const xs = Array.from({ length: 200 }, () => a.roll(6));
    expect(xs).toEqual(Array.from({ length: 200 }, () => b.roll(6)));
    expect(Math.min(...xs)).toBe(1);
    expect(Math.max(...xs)).toBe(6);
  });
});
