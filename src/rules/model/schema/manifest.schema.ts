import { z } from 'zod';
import { doc, id, values } from './common';

/** scenario.json: identity, sides and the optional rule modules switched on. */
export const manifestSchema = z.strictObject({
  ...doc,
  id,
  name: z.string().min(1),
  /** GameSystem id that plays this scenario, e.g. "gators". */
  system: id,
  sides: z
    .array(z.strictObject({ id, name: z.string().min(1), ...doc }))
    .min(1)
    .refine((s) => new Set(s.map((x) => x.id)).size === s.length, 'side ids must be unique'),
  /** Optional rule modules switched on, e.g. ["camouflage", "guerrillas"]. */
  modules: z.array(id).default([]),
  /** System-specific scenario knobs that are not worth a file of their own. */
  options: values.default({}),
});
