import { Dice, SideId } from '../engine/types';

/**
 * Rolls and draws on top of the contract's `Dice`. Inside the engine every
 * random number comes through `Dice.roll`, which the application implements
 * from a secret seed and a roll counter and records in the log; nothing here
 * keeps state of its own.
 */

export function d6(dice: Dice, purpose: string, visibleTo?: SideId[]): number {
  return dice.roll(6, purpose, visibleTo);
}

/** Two six-sided dice, each recorded as its own roll; `total` is the 2d6 result. */
export function twoD6(dice: Dice, purpose: string, visibleTo?: SideId[]): { dice: [number, number]; total: number } {
  const a = dice.roll(6, `${purpose} (die 1 of 2d6)`, visibleTo);
  const b = dice.roll(6, `${purpose} (die 2 of 2d6)`, visibleTo);
  return { dice: [a, b], total: a + b };
}

/** A pool of `count` dice of `sides` (World at War fire). */
export function rollPool(dice: Dice, count: number, sides: number, purpose: string, visibleTo?: SideId[]): number[] {
  if (!Number.isInteger(count) || count < 0) throw new RangeError(`a dice pool needs a whole number of dice, got ${count}`);
  return Array.from({ length: count }, (_, k) => dice.roll(sides, `${purpose} (die ${k + 1} of ${count})`, visibleTo));
}

/** Number of dice in a pool that hit `target` or better (>= target). */
export function hits(pool: readonly number[], target: number): number {
  return pool.filter((x) => x >= target).length;
}

/**
 * Draws one chit at random from a cup (World at War activation). The cup's
 * order is part of the state, so the same cup and roll always draw the same
 * chit. Returns the chit, its index and the cup without it.
 */
export function drawFromCup<T>(dice: Dice, cup: readonly T[], purpose: string, visibleTo?: SideId[]): { drawn: T; index: number; rest: T[] } {
  if (cup.length === 0) throw new RangeError(`cannot draw from an empty cup (${purpose})`);
  const index = dice.roll(cup.length, purpose, visibleTo) - 1;
  return { drawn: cup[index]!, index, rest: [...cup.slice(0, index), ...cup.slice(index + 1)] };
}
