import { z } from 'zod';
import { Scenario } from '../../model/scenario';
import { doc } from '../../model/schema/common';
import { combatSection, readSection } from './sections';

/**
 * rules.json `combat.airOps`: the data of air operations and logistics
 * (GT-5.3, GT-5.4, GT-6B, GT-6N, GT-6P, GT-7F.3, GT-7G, GT-7H). Numbers per
 * unit type stay in units.json values (`launchSlots`, `rearms`,
 * `refuelMarkers`). A scenario without the section gets the rules' values.
 * Strict, with the documentation keys (`description`…): see sections.ts.
 */
const tags = z.array(z.string()).min(1);

export const airOpsSchema = z.strictObject({
  ...doc,
  /** Cited by the scenario's own text; the rules cite the ids of each part below. */
  ruleId: z.string().optional(),
  /** Q-GT-16: what a ship may launch (a unit with any of these tags). */
  launchable: tags.default(['aircraft', 'landing-craft', 'amphibian']),
  /** Launches per ship and turn when its type has no values.launchSlots (GT-5.3). */
  launchSlots: z.int().min(0).default(6),
  /** Launches from a landing craft on the map: the Zodiac from an LCU/LCAC (GT-2.32), the SEAL into the sea (GT-2.16). */
  craftLaunch: z
    .array(z.strictObject({ ...doc, unit: tags, from: tags, ruleId: z.string() }))
    .default([
      { unit: ['zodiac'], from: ['lcu', 'lcac'], ruleId: 'GT-2.32' },
      { unit: ['seal'], from: ['landing-craft'], ruleId: 'GT-2.16' },
    ]),
  /**
   * Q-GT-16, GT-2.16, GT-7O.1: launched units that go only into a water hex (or a cell off the map): an amphibian
   * put on land would skip coming ashore (the waterline, GT-6E; anti-landing fire, GT-7O.1). The first entry whose
   * tags the unit has gives the rule a refusal cites. The mirror of `recoverAfloat`.
   */
  launchAfloat: z
    .array(z.strictObject({ ...doc, unit: tags, ruleId: z.string() }))
    .default([
      { unit: ['seal'], ruleId: 'GT-2.16' },
      { unit: ['amphibian'], ruleId: 'Q-GT-16' },
    ]),
  /** GT-5.4: what a ship may recover; `recoverAfloat` ones only from a water hex. */
  recoverable: tags.default(['aircraft', 'landing-craft', 'amphibian']),
  recoverAfloat: z.array(z.string()).default(['amphibian']),
  /**
   * GT-6G.2, GT-6F.2: the transports that load from a ship and unload onto one, standing next to
   * it. Every other unit leaves or boards a ship only by launch and recovery, or as cargo (Q-GT-16).
   */
  shipCargoCarriers: tags.default(['helicopter']),
  /** Units that only some ships may take (GT-2.38: the AV-8B, only the LHD). */
  onlyShips: z.array(z.strictObject({ ...doc, unit: tags, ship: tags, ruleId: z.string() })).default([{ unit: ['lhd-only'], ship: ['lhd'], ruleId: 'GT-2.38' }]),
  /** GT-7F.3, Q-GT-39: passengers that may fire from a ship, and at what class. */
  passengerTags: tags.default(['ship-passenger-fire']),
  passengerTargetClass: z.string().default('air'),
  /** GT-7G.2: markers that make an aircraft easier to hit, and by how much each. */
  heavyMarkers: tags.default(['Ground', 'Armor']),
  heavyMarkerModifier: z.int().default(1),
  /** GT-7H.1, Q-GT-41: landed aircraft are attacked as this class, with this many column shifts (positive = right). */
  landedTargetClass: z.string().default('soft'),
  landedShift: z.int().default(2),
  /** Q-GT-46: aircraft that count as landed while they stand in a capital hex (none unless the scenario adopts it). */
  landedInCapital: z.array(z.string()).default([]),
  /** GT-6N: the HERS, the LVS, what carries the HERS ashore and onto which terrain, the units that need fuel. */
  hersTags: tags.default(['hers']),
  lvsTags: tags.default(['lvs']),
  hersCarrierTags: tags.default(['heavy-lift']),
  hersTerrain: tags.default(['beach', 'clear']),
  /** GT-6N.1 "a beach or open hex": not a hex of these overlays, whatever the terrain under them (a city's is clear, GT-3.11). */
  hersNotInOverlays: z.array(z.string()).default(['city']),
  fuelTags: tags.default(['tank']),
  /** Q-GT-29: units moving per Refuel marker (1–2 tanks per marker, rounding up). */
  fuelUnitsPerMarker: z.int().min(1).default(2),
  /** GT-6N.8: the column of the HERS explosion. */
  explosionColumn: z.string().default('2'),
  /** GT-6P: who captures an airfield, and who activates a captured one. */
  captureTags: tags.default(['ground']),
  activateTags: tags.default(['heavy-lift']),
});
export type AirOpsData = z.infer<typeof airOpsSchema>;

export const AIR_OPS_SECTION = combatSection('airOps', airOpsSchema);

const cache = new WeakMap<Scenario, AirOpsData>();

/** The scenario's air operations data, parsed once (a malformed section throws a ScenarioError; checked at load). */
export function airOps(s: Scenario): AirOpsData {
  let d = cache.get(s);
  if (d === undefined) {
    d = readSection(s, AIR_OPS_SECTION);
    cache.set(s, d);
  }
  return d;
}
