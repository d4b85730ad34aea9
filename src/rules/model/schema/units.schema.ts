import { z } from 'zod';
import { doc, id, ruleId, tags, values } from './common';
import { combatEffectSchema } from './terrain.schema';

export const transportSchema = z.strictObject({
  /** Total cargo weight; null = unlimited (ships, Q-GT-14). */
  capacity: z.number().min(0).nullable(),
  /** Cargo must have one of these tags; absent = anything with a weight. */
  accepts: tags.optional(),
  maxUnits: z.int().min(1).optional(),
  /** Named exceptions: up to maxUnits units with one of these tags regardless of weight (Q-GT-02). */
  allowances: z.array(z.strictObject({ cargo: tags, maxUnits: z.int().min(1), ruleId })).default([]),
  ruleId: ruleId.optional(),
});

export const unitTypeSchema = z.strictObject({
  ...doc,
  name: z.string().min(1),
  side: id.optional(),
  /** Categories that data rules refer to (infantry, small-team, gun, aircraft…). */
  tags: tags.default([]),
  movementClass: id,
  speed: z.number().min(0),
  /** Speed per medium where it differs from `speed` (amphibians: {"water": 1}, GT-2.3). */
  speeds: z.record(z.string(), z.number().min(0)).default({}),
  targetClass: id,
  /** Target class while in a hex of this medium (GT-7D.2: amphibians afloat). */
  targetClassByMedium: z.record(z.string(), id).default({}),
  /** Attack strength by target class; missing = 0. */
  strength: z.record(z.string(), z.number().min(0)).default({}),
  range: z.int().min(0).default(1),
  defense: z.number().min(0).default(0),
  /** Weight as cargo; absent = cannot be carried. */
  weight: z.number().min(0).optional(),
  transport: transportSchema.optional(),
  /** This unit can be towed by units with one of these tags; `towers` of them together (GT-6K.5). */
  towable: z.strictObject({ by: tags, towers: z.int().min(1).default(1), ruleId }).optional(),
  /** Combat effects that come with the unit (Recon concealment pre-roll, GT-2.13). */
  effects: z.array(combatEffectSchema).default([]),
  values: values.default({}),
});

/** units.json: unit types by id. */
export const unitsSchema = z.strictObject({
  ...doc,
  types: z.record(id, unitTypeSchema),
});
