import { randomUUID } from 'node:crypto';

/** The only place the games module reads the time; tests substitute a controllable clock. */
export interface Clock {
  now(): Date;
}
export const CLOCK = Symbol('CLOCK');
export const systemClock: Clock = { now: () => new Date() };

/** New identifiers (games, invitations, jobs); tests may make them predictable. */
export interface IdGenerator {
  next(prefix: string): string;
}
export const ID_GENERATOR = Symbol('ID_GENERATOR');
export const randomIds: IdGenerator = { next: (prefix) => `${prefix}_${randomUUID().replace(/-/g, '')}` };
