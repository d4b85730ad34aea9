import { RollSource, seededSource } from './server-dice';

/**
 * Where rolls come from for a game: its seed. Tests may substitute a source that forces some
 * rolls (by purpose) and falls back to the seed for the rest.
 */
export type DiceSourceFactory = (seedHex: string, gameId: string) => RollSource;
export const DICE_SOURCE = Symbol('DICE_SOURCE');
export const seededDice: DiceSourceFactory = (seed) => seededSource(seed);
