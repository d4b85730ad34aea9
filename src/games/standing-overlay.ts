import type { KernelEventData } from '../rules/engine/events';
import type { GameSystem } from '../rules/engine/types';
import type { JsonObject } from '../rules/model/json';

/** The engine's event that sets a side's standing orders: what a check of them comes to, and what the loader lays over a state. */
export const STANDING_ORDERS_SET: keyof KernelEventData = 'StandingOrdersSet';
export type StandingOrdersSetData = KernelEventData['StandingOrdersSet'];

/**
 * The rules state with each side's stored standing orders set as the engine sets them (its
 * StandingOrdersSet, which older games hold in their log): a side's orders replace what the log
 * says; a side without any keeps it. What the loader lays over a game, and the replay of an
 * export over each state it decides on.
 */
export function withStandingOrders(system: GameSystem, rules: unknown, stored: Readonly<Record<string, JsonObject>>): unknown {
  let out = rules;
  for (const side of Object.keys(stored)) out = system.evolve(out, { type: STANDING_ORDERS_SET, data: { side, orders: stored[side] } });
  return out;
}
