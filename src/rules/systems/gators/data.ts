import { z } from 'zod';
import { Scenario } from '../../model/scenario';
import { doc } from '../../model/schema/common';
import { Section, combatSection, readSection, writtenSection } from './sections';

/**
 * Gators! data that the kernel schema leaves free-form: rules.json
 * `combat.airAttack` (GT-9.4, Q-GT-37), `combat.breakdown` (GT-4.8),
 * `combat.antiLanding` (GT-7O.2) and scenario.json `options`. Parsed here,
 * once per scenario object; a scenario without them gets the rules' values.
 * Strict: an unknown key is a mistake (sections.ts). Sections also take the
 * documentation keys every scenario object may carry (`description`…).
 */

const markerSchema = z.strictObject({
  ...doc,
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
  ...doc,
  /** One entry per marker the type may carry: the marker types that slot may hold (Q-GT-48: a maximum). */
  slots: z.array(z.array(z.string()).min(1)).min(1),
  /** Every marker type carried in even numbers ("in pairs", GT-9.4). */
  inPairs: z.boolean().default(false),
  reloadable: z.boolean().default(true),
});

export const airAttackSchema = z.strictObject({
  ...doc,
  ruleId: z.string().default('GT-9.4'),
  markers: z.record(z.string(), markerSchema),
  /** By unit type id. */
  loadouts: z.record(z.string(), loadoutSchema),
});
export type AirAttackData = z.infer<typeof airAttackSchema>;
export type MarkerData = z.infer<typeof markerSchema>;
export type LoadoutData = z.infer<typeof loadoutSchema>;

export const breakdownSchema = z.strictObject({
  ...doc,
  ruleId: z.string().default('GT-4.8'),
  die: z.int().min(2).default(6),
  results: z
    .array(
      z.strictObject({
        ...doc,
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

export const antiLandingSchema = z.strictObject({
  ...doc,
  ruleId: z.string().default('GT-7O.1'),
  /** Result labels replaced in anti-landing fire: "landing-fails" is GT-7O.2's D R1. */
  results: z.record(z.string(), z.string()).default({ 'D R1': 'landing-fails', 'D R2': 'D X' }),
});
export type AntiLandingData = z.infer<typeof antiLandingSchema>;

/** scenario.json `options` holds only scalars (the kernel schema): no documentation keys here. */
export const optionsSchema = z.strictObject({
  /** The side that lands from the sea (P1) and the side that defends the island (P2). */
  landingSide: z.string().default('P1'),
  defendingSide: z.string().default('P2'),
  debrisMarkers: z.int().min(0).default(10),
  airborneF5aMax: z.int().min(0).default(2),
  airborneF5aDistance: z.int().min(0).default(3),
  helicoptersPerOtherShip: z.int().min(0).default(2),
});
export type GatorsOptions = z.infer<typeof optionsSchema>;

/** The sections of this file, for the check at load (check-scenario.ts). */
export const GATORS_SECTIONS = {
  airAttack: combatSection('airAttack', airAttackSchema, { markers: {}, loadouts: {} }),
  /** Absent: no breakdown roll (GatorsData.breakdown is null). */
  breakdown: combatSection('breakdown', breakdownSchema, null),
  antiLanding: combatSection('antiLanding', antiLandingSchema),
  options: { file: 'scenario.json', path: ['options'], schema: optionsSchema, absent: {} } satisfies Section<GatorsOptions>,
};

export interface GatorsData {
  readonly airAttack: AirAttackData;
  readonly breakdown: BreakdownData | null;
  readonly antiLanding: AntiLandingData;
  readonly options: GatorsOptions;
}

const cache = new WeakMap<Scenario, GatorsData>();

/** The scenario's Gators! data, parsed once (a malformed section throws a ScenarioError; checked at load). */
export function gatorsData(s: Scenario): GatorsData {
  let d = cache.get(s);
  if (d === undefined) {
    d = parseGatorsData(s);
    cache.set(s, d);
  }
  return d;
}

export function parseGatorsData(s: Scenario): GatorsData {
  const g = GATORS_SECTIONS;
  return {
    airAttack: readSection(s, g.airAttack),
    breakdown: writtenSection(s, g.breakdown) === undefined ? null : readSection(s, g.breakdown),
    antiLanding: readSection(s, g.antiLanding),
    options: readSection(s, g.options),
  };
}
