import { z } from 'zod';
import { doc, hexLabel, id } from './common';
import { Json } from '../json';

const json: z.ZodType<Json> = z.lazy(() =>
  z.union([z.null(), z.boolean(), z.number(), z.string(), z.array(json), z.record(z.string(), json)]),
);

export const startLocationSchema = z.union([
  z.strictObject({ hex: hexLabel }),
  /** Aboard another unit of the order of battle (a ship's load, GT-4.10). */
  z.strictObject({ carrier: id }),
  /** To be placed in setup, within this zone of setup.json. */
  z.strictObject({ zone: id }),
  /** In an off-map box (split box, orbit, reinforcements). */
  z.strictObject({ box: id }),
]);

/** oob.json: the order of battle of every side. */
export const oobSchema = z.strictObject({
  ...doc,
  units: z.array(
    z.strictObject({
      ...doc,
      /** Unit id; with `count` the ids are `${id}-1` … `${id}-${count}`. */
      id,
      type: id,
      side: id,
      count: z.int().min(1).optional(),
      at: startLocationSchema.default({ box: 'setup' }),
      /** Starts hidden under this marker (a sealed or face-down counter). */
      hidden: z.string().min(1).optional(),
      attrs: z.record(z.string(), json).default({}),
    }),
  ),
});
