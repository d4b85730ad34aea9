import { z } from 'zod';
import { Scenario } from '../../model/scenario';
import { doc } from '../../model/schema/common';
import { Section, combatSection, readSection, writtenSection } from './sections';

/**
 * Gators! data that the kernel schema leaves free-form: rules.json
 * `combat.airAttack` (GT-9.4, Q-GT-37), `combat.breakdown` (GT-4.8),
 * `combat.antiLanding` (GT-7O.2), `combat.setup` (GT-4) and scenario.json `options`. Parsed here,
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
  /** The side that lands from the sea and the side that defends; required: side ids are the scenario's to choose. */
  landingSide: z.string(),
  defendingSide: z.string(),
  debrisMarkers: z.int().min(0).default(10),
  /** GT-4.4: how many of rules.json combat.setup.airborneTags may start in the air, and how far from an airfield. */
  airborneF5aMax: z.int().min(0).default(2),
  airborneF5aDistance: z.int().min(0).default(3),
  /** Q-GT-13: combat.setup.assignTags units aboard each ship but the main one. */
  helicoptersPerOtherShip: z.int().min(0).default(2),
});
export type GatorsOptions = z.infer<typeof optionsSchema>;

/** rules.json `combat.setup`: which units the setup limits of GT-4 name (scenario.json options has their numbers). Empty: none. */
export const setupSchema = z.strictObject({
  ...doc,
  /** GT-4.4, Q-GT-15: aircraft that may start in the air. */
  airborneTags: z.array(z.string()).default([]),
  /** Q-GT-13: units the landing side may move at setup to another ship (`assign`). */
  assignTags: z.array(z.string()).default([]),
  /** The ship the aircraft start on (the LHD): the limits on assignTags units and on arming hold on the others. */
  mainShipTags: z.array(z.string()).default([]),
  /** GT-4.11: these, aboard a ship but the main one, must be armed at setup. */
  armedOffMainShipTags: z.array(z.string()).default([]),
});
export type SetupData = z.infer<typeof setupSchema>;

/** The sections of this file, for the check at load (check-scenario.ts). */
export const GATORS_SECTIONS = {
  airAttack: combatSection('airAttack', airAttackSchema, { markers: {}, loadouts: {} }),
  /** Absent: no breakdown roll (GatorsData.breakdown is null). */
  breakdown: combatSection('breakdown', breakdownSchema, null),
  antiLanding: combatSection('antiLanding', antiLandingSchema),
  setup: combatSection('setup', setupSchema),
  options: { file: 'scenario.json', path: ['options'], schema: optionsSchema, absent: {} } satisfies Section<GatorsOptions>,
};

export interface GatorsData {
  readonly airAttack: AirAttackData;
  readonly breakdown: BreakdownData | null;
  readonly antiLanding: AntiLandingData;
  readonly options: GatorsOptions;
  readonly setup: SetupData;
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
    setup: readSection(s, g.setup),
  };
}

/** Whether scenario.json `modules` lists this module: for a rule inside a feature (the ROWPU in guerrillas); whole features are switched in features.ts MODULES. */
export function moduleOn(s: Scenario, id: string): boolean {
  return s.manifest.modules.includes(id);
}
