import { z } from 'zod';
import { doc, hexLabel, id, tags } from './common';

/**
 * A bridge's passage for boats of one side (GT-3.3): "none", "all", or the
 * unit categories (tags) that may pass under it, as a list or a comma-separated
 * string. Normalised to a tag list, [] for none and ["*"] for all.
 */
export const passageSchema = z.union([z.literal('none'), z.literal('all'), z.string().min(1), tags]).transform((p) => {
  if (p === 'none') return [] as string[];
  if (p === 'all') return ['*'];
  if (typeof p === 'string')
    return p
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s.length > 0);
  return p;
});

/** map.json. Terrain is one character per hex, one string per row (row 1 first). */
export const mapSchema = z.strictObject({
  ...doc,
  id: id.optional(),
  name: z.string().optional(),
  columns: z.int().min(1).max(999),
  rows: z.int().min(1).max(999),
  terrainRows: z.array(z.string()),
  /** Map character → terrain id of terrain.json, or null for off-map. */
  legend: z.record(z.string().length(1, 'legend keys are single characters'), id.nullable()),
  /** Paths of adjacent hexes; consecutive hexes are joined by a road. */
  roads: z.array(z.array(hexLabel).min(2)).default([]),
  /** Paths of adjacent land hexes carrying a navigable river. */
  rivers: z.array(z.array(hexLabel).min(1)).default([]),
  bridges: z
    .array(
      z.strictObject({
        hex: hexLabel,
        passage: z.record(z.string(), passageSchema).default({}),
        note: z.string().optional(),
        ...doc,
      }),
    )
    .default([]),
  cities: z
    .array(
      z.strictObject({
        id,
        name: z.string(),
        hexes: z.array(hexLabel).min(1),
        capital: z.boolean().default(false),
        ...doc,
      }),
    )
    .default([]),
  airfields: z
    .array(
      z.strictObject({
        id,
        name: z.string(),
        hexes: z.array(hexLabel).min(1),
        owner: z.string().optional(),
        ...doc,
      }),
    )
    .default([]),
  /** Documentation of geomorphic tiles; the engine ignores it. */
  tiles: z.array(z.looseObject({})).default([]),
  /** Features on the side between two adjacent hexes (a river hexside, a cliff). */
  hexsides: z
    .array(z.strictObject({ between: z.tuple([hexLabel, hexLabel]), feature: id, note: z.string().optional() }))
    .default([]),
  /** Further area overlays named in terrain.json (rough, debris fields, forts…). */
  overlays: z.array(z.strictObject({ overlay: id, hexes: z.array(hexLabel).min(1), note: z.string().optional() })).default([]),
  /** Further linear networks named in terrain.json (railways, tracks…), as road paths. */
  networks: z.array(z.strictObject({ overlay: id, paths: z.array(z.array(hexLabel).min(2)) })).default([]),
});
