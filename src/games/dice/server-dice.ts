import { createHash, createHmac, randomBytes } from 'node:crypto';
import type { Dice, SideId } from '../../rules/engine/types';

/**
 * Verifiable dice. Each game has a secret 256-bit seed; its SHA-256 (the commitment) is public
 * from creation. Roll number n (1, 2, 3, ... per game) is derived from HMAC-SHA256(seed, "n"),
 * so nobody can predict a roll without the seed, the server cannot change a roll without
 * breaking the commitment, and anyone can recompute every roll once the seed is revealed at the
 * end of the game.
 */
export function newSeed(): string {
  return randomBytes(32).toString('hex');
}

export function commitmentOf(seedHex: string): string {
  return createHash('sha256').update(Buffer.from(seedHex, 'hex')).digest('hex');
}

/** Uniform in 1..sides: 32-bit words of the HMAC with rejection of the biased tail. */
export function rollFromSeed(seedHex: string, n: number, sides: number): number {
  if (!Number.isInteger(sides) || sides < 1 || sides > 2 ** 31) throw new Error(`bad die size ${sides}`);
  const limit = Math.floor(2 ** 32 / sides) * sides;
  for (let round = 0; ; round++) {
    const mac = createHmac('sha256', Buffer.from(seedHex, 'hex')).update(round === 0 ? String(n) : `${n}:${round}`).digest();
    for (let i = 0; i + 4 <= mac.length; i += 4) {
      const word = mac.readUInt32BE(i);
      if (word < limit) return (word % sides) + 1;
    }
  }
}

export interface RecordedRoll {
  n: number;
  sides: number;
  purpose: string;
  value: number;
  visibleTo: SideId[] | null;
}

/** What decides a roll: the seed, or (tests only) a forced result. */
export type RollSource = (n: number, sides: number, purpose: string) => number;

export function seededSource(seedHex: string): RollSource {
  return (n, sides) => rollFromSeed(seedHex, n, sides);
}

/** The Dice handed to the rules engine: numbers the rolls after `counter` and records them. */
export class RecordingDice implements Dice {
  readonly rolls: RecordedRoll[] = [];
  constructor(
    private counter: number,
    private readonly source: RollSource,
  ) {}

  roll(sides: number, purpose: string, visibleTo?: SideId[]): number {
    this.counter += 1;
    const value = this.source(this.counter, sides, purpose);
    this.rolls.push({ n: this.counter, sides, purpose, value, visibleTo: visibleTo ?? null });
    return value;
  }
}
