import { z } from 'zod';

/** A board label as written in scenario files ("0507"); checked against the map later. */
export const hexLabel = z.string().regex(/^[0-9]{4,8}$/, 'a hex label is column then row, zero-padded, e.g. "0507"');

/**
 * Ids key plain-object records (a state's units, a scenario's unit types): a name that every
 * object already answers to ("constructor", "toString", "__proto__") would look like an entry
 * that exists. Scenario data and orders both refuse them, so no real id is ever one.
 */
export function isSafeRecordKey(s: string): boolean {
  return !(s in Object.prototype);
}

export const id = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9_.\-]*$/, 'an id is letters, digits, "-", "_" or "."')
  .refine(isSafeRecordKey, 'an id may not be the name of a property every object has (e.g. "constructor")');

/** A rule ID in ../shared/rules, e.g. "GT-6C.2" or an open point "Q-GT-06". */
export const ruleId = z.string().min(2);

export const tags = z.array(z.string().min(1));

/** Some hexes of the map: listed, one city of map.json, or its capital (victory.json, rules.json stacking). */
export const areaSchema = z.union([
  z.strictObject({ hexes: z.array(hexLabel).min(1) }),
  z.strictObject({ city: id }),
  z.strictObject({ capital: z.literal(true) }),
]);

/** Free-form documentation keys every file and many objects may carry. */
export const doc = {
  description: z.string().optional(),
  notes: z.union([z.string(), z.array(z.string())]).optional(),
  $comment: z.string().optional(),
  source: z.string().optional(),
};

export const scalar = z.union([z.number(), z.string(), z.boolean()]);

/** System-readable extra values (Grav Armor terrain defense, a unit's ECM…). */
export const values = z.record(z.string(), scalar);
