import { z } from 'zod';
import { Scenario } from '../../model/scenario';

/**
 * Gators! data that the kernel schema leaves free-form: rules.json
 * `combat.airAttack` (GT-9.4, Q-GT-37), `combat.breakdown` (GT-4.8),
 * `combat.antiLanding` (GT-7O.2) and scenario.json `options`. Parsed here,
 * once per scenario object; a scenario without them gets the rules' values.
 */

const markerSchema = z.strictObject({
  targetClass: z.string(),
  strength: z.number().min(0),
  range: z.int().min(1).default(1),
  /** The marker may attack only units with one of these tags (the SSM: ships and craft, Q-GT-38). */
  targetTags: z.array(z.string()).optional(),
  /** ...and only while they are in a water hex. */
  targetInWater: z.boolean().default(false),
  reloadable: z.boolean().default(true),
  ruleId: z.string().optional(),
});

const loadoutSchema = z.strictObject({
  /** One entry per marker the type may carry: the marker types that slot may hold (Q-GT-48: a maximum). */
  slots: z.array(z.array(z.string()).min(1)).min(1),
  /** Every marker type carried in even numbers ("in pairs", GT-9.4). */
  inPairs: z.boolean().default(false),
  reloadable: z.boolean().default(true),
});

export const airAttackSchema = z.looseObject({
  ruleId: z.string().default('GT-9.4'),
  markers: z.record(z.string(), markerSchema),
  /** By unit type id. */
  loadouts: z.record(z.string(), loadoutSchema),
});
export type AirAttackData = z.infer<typeof airAttackSchema>;
export type MarkerData = z.infer<typeof markerSchema>;
export type LoadoutData = z.infer<typeof loadoutSchema>;

export const breakdownSchema = z.looseObject({
  ruleId: z.string().default('GT-4.8'),
  die: z.int().min(2).default(6),
  results: z
    .array(
      z.strictObject({
        rolls: z.array(z.int().min(1)).min(1),
        text: z.string().optional(),
        /** Units broken down: `count` units with these tags (the owner names which when fewer than all). */
        broken: z.array(z.strictObject({ tags: z.array(z.string()).min(1), count: z.int().min(1) })),
      }),
    )
    .min(1),
  /** Tags of broken units whose hex the owner must write down (the broken Hawk, GT-4.9). */
  recordHexOf: z.array(z.string()).default([]),
});
export type BreakdownData = z.infer<typeof breakdownSchema>;

export const antiLandingSchema = z.looseObject({
  ruleId: z.string().default('GT-7O.1'),
  /** Result labels replaced in anti-landing fire: "landing-fails" is GT-7O.2's D R1. */
  results: z.record(z.string(), z.string()).default({ 'D R1': 'landing-fails', 'D R2': 'D X' }),
});
export type AntiLandingData = z.infer<typeof antiLandingSchema>;

export const optionsSchema = z.looseObject({
  /** The side that lands from the sea (P1) and the side that defends the island (P2). */
  landingSide: z.string().default('P1'),
  defendingSide: z.string().default('P2'),
  debrisMarkers: z.int().min(0).default(10),
  airborneF5aMax: z.int().min(0).default(2),
  airborneF5aDistance: z.int().min(0).default(3),
  helicoptersPerOtherShip: z.int().min(0).default(2),
});
export type GatorsOptions = z.infer<typeof optionsSchema>;

export interface GatorsData {
  readonly airAttack: AirAttackData;
  readonly breakdown: BreakdownData | null;
  readonly antiLanding: AntiLandingData;
  readonly options: GatorsOptions;
}

const cache = new WeakMap<Scenario, GatorsData>();

/** The scenario's Gators! data, parsed once (throws on a malformed section: a scenario mistake). */
export function gatorsData(s: Scenario): GatorsData {
  let d = cache.get(s);
  if (d === undefined) {
    d = parseGatorsData(s);
    cache.set(s, d);
  }
  return d;
}

export function parseGatorsData(s: Scenario): GatorsData {
  const combat = s.rules.combat as Record<string, unknown>;
  const section = <T>(name: string, schema: z.ZodType<T>, fallback: unknown): T => {
    const r = schema.safeParse(combat[name] ?? fallback);
    if (!r.success) throw new Error(`rules.json combat.${name}: ${r.error.issues.map((i) => `${i.path.join('.')} ${i.message}`).join('; ')}`);
    return r.data;
  };
  return {
    airAttack: section('airAttack', airAttackSchema, { markers: {}, loadouts: {} }),
    breakdown: combat['breakdown'] === undefined ? null : section('breakdown', breakdownSchema, null),
    antiLanding: section('antiLanding', antiLandingSchema, {}),
    options: parseOptions(s),
  };
}

function parseOptions(s: Scenario): GatorsOptions {
  const r = optionsSchema.safeParse(s.manifest.options);
  if (!r.success) throw new Error(`scenario.json options: ${r.error.issues.map((i) => `${i.path.join('.')} ${i.message}`).join('; ')}`);
  return r.data;
}
