import { z } from 'zod';
import { doc, hexLabel, id, ruleId, tags } from './common';

/** A set of hexes described by predicates; every given predicate must hold. */
export const zoneSchema = z.strictObject({
  ...doc,
  side: id.optional(),
  hexes: z.array(hexLabel).optional(),
  terrain: z.array(id).optional(),
  medium: z.string().optional(),
  /** At least one of these overlays (e.g. ["airfield"]). */
  overlays: z.array(id).optional(),
  excludeOverlays: z.array(id).optional(),
  /** Adjacent to a hex of this medium ("at the shore", Q-GT-15). */
  adjacentToMedium: z.string().optional(),
  notAdjacentToTerrain: z.array(id).optional(),
  ruleId: ruleId.optional(),
});

const constraintSchema = z.discriminatedUnion('kind', [
  /** GT-4.14: the LSD no more than 3 hexes from the LHD. */
  z.strictObject({ kind: z.literal('max-distance'), unit: id, from: id, distance: z.int().min(0), ruleId }),
  /** Units with these tags may be placed only in this zone. */
  z.strictObject({ kind: z.literal('tags-in-zone'), side: id, tags, zone: id, ruleId }),
]);

/** setup.json: where and how each side sets up. */
export const setupSchema = z.strictObject({
  ...doc,
  zones: z.record(id, zoneSchema).default({}),
  constraints: z.array(constraintSchema).default([]),
  /** Concealment markers a side may put on its units at setup (GT-4.3). */
  hiddenMarkers: z.record(z.string(), z.strictObject({ marker: z.string().min(1), count: z.int().min(0), ruleId })).default({}),
});
