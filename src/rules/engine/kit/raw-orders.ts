import { z } from 'zod';

/** A submission's orders as sent: a list of objects, or { orders, endPhase }. */
export const rawOrdersSchema = z.union([
  z.array(z.record(z.string(), z.unknown())),
  z.strictObject({ orders: z.array(z.record(z.string(), z.unknown())), endPhase: z.boolean().optional() }),
]);

/** What rawOrdersSchema accepts, with its endPhase; null for what it refuses. */
export function readRawOrders(x: unknown): { readonly endPhase: boolean | undefined } | null {
  if (plainList(x)) return NO_END_PHASE;
  const r = rawOrdersSchema.safeParse(x);
  if (!r.success) return null;
  return Array.isArray(r.data) ? NO_END_PHASE : { endPhase: r.data.endPhase };
}

const NO_END_PHASE = { endPhase: undefined };

/**
 * A list that the schema's first branch accepts, told without zod (a submission's usual shape;
 * zod's record copied every order to say so): objects made by JSON.parse or a literal, with no
 * symbol keys and no own "constructor" (zod's plain-object test reads it). Anything else goes
 * to zod.
 */
function plainList(x: unknown): boolean {
  if (!Array.isArray(x)) return false;
  for (const o of x as unknown[]) {
    if (typeof o !== 'object' || o === null || Array.isArray(o) || Object.getPrototypeOf(o) !== Object.prototype) return false;
    if (Object.hasOwn(o, 'constructor') || Object.getOwnPropertySymbols(o).length > 0) return false;
  }
  return true;
}
