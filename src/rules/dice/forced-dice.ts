import { Dice, SideId } from '../engine/types';

/** One forced result; `sides` and `purpose`, when given, must match the roll that takes it. */
export type ForcedRoll = number | { readonly value: number; readonly sides?: number; readonly purpose?: string };

export interface RecordedRoll {
  readonly sides: number;
  readonly value: number;
  readonly purpose: string;
  readonly visibleTo?: SideId[];
}

/**
 * Dice for tests: hands out a queue of forced results in order and records
 * every roll. Throws a clear error when the queue is exhausted, when a forced
 * value cannot come up on the die asked for, or when a forced roll names
 * other dice or another purpose than the roll that takes it.
 */
export class ForcedDice implements Dice {
  readonly rolls: RecordedRoll[] = [];
  private next = 0;

  constructor(private readonly forced: readonly ForcedRoll[]) {}

  get remaining(): number {
    return this.forced.length - this.next;
  }

  roll(sides: number, purpose: string, visibleTo?: SideId[]): number {
    const n = this.rolls.length + 1;
    if (!Number.isInteger(sides) || sides < 1) throw new RangeError(`ForcedDice: roll #${n} (${purpose}) asked for a ${sides}-sided die`);
    if (this.next >= this.forced.length)
      throw new Error(`ForcedDice exhausted: roll #${n} (d${sides}, "${purpose}") has no forced result (${this.forced.length} were given)`);
    const f = this.forced[this.next]!;
    const value = typeof f === 'number' ? f : f.value;
    if (!Number.isInteger(value) || value < 1 || value > sides)
      throw new RangeError(`ForcedDice: forced result #${this.next + 1} is ${value}, which a d${sides} cannot roll ("${purpose}")`);
    if (typeof f !== 'number' && f.sides !== undefined && f.sides !== sides)
      throw new Error(`ForcedDice: forced result #${this.next + 1} is for a d${f.sides}, but roll #${n} is a d${sides} ("${purpose}")`);
    if (typeof f !== 'number' && f.purpose !== undefined && !purpose.includes(f.purpose))
      throw new Error(`ForcedDice: forced result #${this.next + 1} is for "${f.purpose}", but roll #${n} is "${purpose}"`);
    this.next++;
    this.rolls.push(visibleTo === undefined ? { sides, value, purpose } : { sides, value, purpose, visibleTo });
    return value;
  }
}
