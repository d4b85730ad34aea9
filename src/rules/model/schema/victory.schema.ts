import { z } from 'zod';
import { areaSchema, doc, id, ruleId, tags } from './common';

const conditionSchema = z.discriminatedUnion('kind', [
  /** At least `count` units with the tags of each requirement in the area, and no enemy within `noEnemyWithin`. */
  z.strictObject({
    kind: z.literal('occupy'),
    id,
    side: id,
    area: areaSchema,
    requires: z.array(z.strictObject({ tags, count: z.int().min(1) })).min(1),
    noEnemyWithin: z.int().min(0).nullable().default(null),
    ruleId,
  }),
  /** Every enemy unit with one of these tags is eliminated. */
  z.strictObject({ kind: z.literal('eliminate'), id, side: id, enemyTags: tags, ruleId }),
]);

/** victory.json. Conditions are checked at the end of every turn. */
export const victorySchema = z.strictObject({
  ...doc,
  conditions: z.array(conditionSchema).default([]),
  atTurnLimit: z.strictObject({ winner: id.nullable(), reason: z.string(), ruleId }),
});
