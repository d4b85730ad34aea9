import { uniformIntDistribution, xoroshiro128plus } from 'pure-rand';
import { Dice } from '../engine/types';

/**
 * A seeded generator for property tests and scenario generation only. The
 * game's dice come from the application (HMAC-SHA256 of a secret seed and a
 * counter); a 32-bit pure-rand seed could be recovered from observed rolls,
 * so it must never drive a real game.
 */
export class SeededDice implements Dice {
  private rng;

  constructor(seed: number) {
    this.rng = xoroshiro128plus(seed);
  }

  roll(sides: number): number {
    const [v, next] = uniformIntDistribution(1, sides, this.rng);
    this.rng = next;
    return v;
  }
}
