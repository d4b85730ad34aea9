import { z } from 'zod';
import { doc, id, ruleId, tags, values } from './common';

/**
 * Cost of entering a hex for one movement class. With `cap` N the entry costs
 * max(cost, speed / N) movement points, fractions allowed (Q-GT-06): a whole
 * move in that terrain then goes at most N hexes.
 */
export const moveEntrySchema = z.strictObject({
  cost: z.number().positive().optional(),
  cap: z.int().min(1).optional(),
  impassable: z.boolean().optional(),
  /** A speed-1 unit may enter as its whole move although the cost exceeds 1 (GT-3.9, GT-3.15, Q-GT-07). */
  fullMoveIfSpeedOne: z.boolean().optional(),
  ruleId: ruleId.optional(),
});

/** Movement entries by movement class id; "*" is the default for classes not listed. */
export const movementTableSchema = z.record(z.string(), moveEntrySchema);

const when = z.enum(['defender-in', 'attacker-in', 'attacker-in-defender-not', 'either-in']);

const effectScope = {
  when,
  /** Only when an attacker has one of these movement classes / tags; a target has these tags. */
  attackerClasses: z.array(id).optional(),
  attackerTags: tags.optional(),
  defenderTags: tags.optional(),
  /**
   * Target classes above the terrain: the effect does not count for a defender attacked as one (wherever the
   * effect's hex is: nothing attacks it "from a hill downward"), nor for an attacker of one (by its type)
   * standing in the hex (GT-6B.1: an aircraft in the air; landed, GT-7H.1, it is attacked as a ground target
   * and the terrain counts).
   */
  ignoredByClasses: z.array(id).optional(),
  /**
   * With "attacker-in" or "attacker-in-defender-not": only when every attacker stands in such a hex (none above
   * it), not just one. A bonus for the attack's one roll that only one unit's place earns (GT-3.13's hill).
   */
  allAttackers: z.boolean().optional(),
  ruleId,
};

/** Combat effects of a terrain, overlay or hexside; the combat step reads them. */
export const combatEffectSchema = z.discriminatedUnion('kind', [
  /** Negative shifts favour the defender ("shift left"), positive the attacker (Q-GT-34). */
  z.strictObject({ kind: z.literal('column-shift'), shift: z.int(), ...effectScope }),
  z.strictObject({ kind: z.literal('die-modifier'), modifier: z.int(), ...effectScope }),
  /** The attack happens only if a die roll is within [min, max] (GT-7B.1). */
  z.strictObject({ kind: z.literal('pre-roll'), min: z.int().optional(), max: z.int().optional(), ...effectScope }),
  z.strictObject({ kind: z.literal('range-cap'), range: z.int().min(0), ...effectScope }),
]);

const transition = z.enum(['first-step', 'last-step', 'whole-move', 'forbidden']);

/**
 * How amphibious movement classes cross the waterline at this (land) hex
 * (GT-6E): from water, "first-step" means it costs the normal entry and must
 * be the first step of the move; "whole-move" takes the whole move. Into water
 * from here, "last-step" must end the move.
 */
export const coastSchema = z.strictObject({
  fromWater: transition.default('forbidden'),
  toWater: transition.default('forbidden'),
  ruleId: ruleId.optional(),
});

const terrainBase = {
  ...doc,
  name: z.string().min(1),
  movement: movementTableSchema.default({}),
  coast: coastSchema.optional(),
  effects: z.array(combatEffectSchema).default([]),
  /** Carriers of these movement classes may not load or unload here (GT-3.8(5)). */
  noLoadingClasses: z.array(id).optional(),
  noLoadingRuleId: ruleId.optional(),
  values: values.default({}),
  ruleId: ruleId.optional(),
};

export const terrainTypeSchema = z.strictObject({
  ...terrainBase,
  /** "land" or "water" (others allowed); amphibians change speed and rules at the waterline. */
  medium: z.string().min(1).default('land'),
});

export const overlayTypeSchema = z.strictObject({
  ...terrainBase,
  /**
   * "always": the overlay's movement applies whenever its hex is entered.
   * "along": only when entered along the network (consecutive hexes of a road
   * path) or from a hex named in `alsoFrom` (overlay id, terrain id or medium).
   */
  applies: z.enum(['always', 'along']).default('always'),
  /** The network followed by "along": this overlay's own paths by default; a bridge follows "road". */
  along: id.optional(),
  alsoFrom: z.array(z.string()).default([]),
  /** If false the overlay opens terrain that is impassable to a class (a bridge over water). */
  keepsTerrainImpassability: z.boolean().default(true),
  /** While the overlay applies the hex counts as this medium (a bridge counts as land). */
  medium: z.string().optional(),
});

export const hexsideTypeSchema = z.strictObject({
  ...doc,
  name: z.string().min(1),
  movement: z
    .record(
      z.string(),
      z.strictObject({ extraCost: z.number().min(0).optional(), impassable: z.boolean().optional(), ruleId: ruleId.optional() }),
    )
    .default({}),
  /** Crossing along one of these networks (a road over a bridge) ignores the hexside. */
  negatedBy: z.array(id).default([]),
  effects: z.array(combatEffectSchema).default([]),
  values: values.default({}),
});

/** terrain.json: the terrain legend. */
export const terrainSchema = z.strictObject({
  ...doc,
  terrain: z.record(id, terrainTypeSchema),
  overlays: z.record(id, overlayTypeSchema).default({}),
  hexsides: z.record(id, hexsideTypeSchema).default({}),
});
