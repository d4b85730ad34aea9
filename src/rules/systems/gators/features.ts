import { GatorsFeature } from './feature';
import { setupP2 } from './features/setup-p2';
import { setupP1 } from './features/setup-p1';
import { loadouts } from './features/loadouts';
import { breakdown } from './features/breakdown';
import { shipPlacement } from './features/ship-placement';
import { movementRules } from './features/movement-rules';
import { antiLanding } from './features/anti-landing';
import { launchRecovery } from './features/launch-recovery';
import { shipCargo } from './features/ship-cargo';
import { passengerFire } from './features/passenger-fire';
import { landingCraftFire } from './features/landing-craft-fire';
import { airOpsFeature } from './features/air-ops';
import { antiAircraft } from './features/anti-aircraft';
import { landedAircraft } from './features/landed-aircraft';
import { refuel } from './features/refuel';
import { AIRFIELDS_MODULE, airfields } from './features/airfields';
import { CAMOUFLAGE_MODULE, camouflage } from './features/camouflage';
import { squads } from './features/squads';
import { ROWPU_MODULE, guerrillas } from './features/guerrillas';
import { recon } from './features/recon';
import { MEDICS_MODULE, medics } from './features/medics';
import { debris } from './features/debris';
import { DEBRIS_MODULE } from './features/debris-work';
import { sabotage } from './features/sabotage';
import { bombardment } from './features/bombardment';
import { commandVehicle } from './features/command-vehicle';
import { ownerChoice } from './features/owner-choice';

/**
 * The registry: every Gators! rule module, in the order their hooks combine
 * (combine.ts). To add a feature, write features/<name>.ts exporting a
 * GatorsFeature and add one line here. Part 1 (this list) is the foundation;
 * parts 2 and 3 add air operations, squads, camouflage, guerrillas, etc.
 */
export const FEATURES: readonly GatorsFeature[] = [
  setupP2,
  setupP1,
  loadouts,
  breakdown,
  shipPlacement,
  movementRules,
  antiLanding,
  launchRecovery,
  shipCargo,
  passengerFire,
  landingCraftFire,
  airOpsFeature,
  antiAircraft,
  landedAircraft,
  refuel,
  airfields,
  camouflage,
  squads,
  guerrillas,
  recon,
  medics,
  debris,
  sabotage,
  bombardment,
  commandVehicle,
  ownerChoice,
];

/**
 * scenario.json `modules`: each id switches on these features (a scenario lists the ones it
 * plays). A feature in no module is always on: every Gators! scenario sets up, places ships,
 * moves and has owners choose (setup-p1/p2, ship-placement, movement-rules, owner-choice); the
 * unit rules act only on the units.json tags their data names (passenger-fire, landed-aircraft,
 * recon, command-vehicle, ship-cargo). `rowpu` switches GT-6M.3 on within guerrillas (`moduleOn`).
 */
export const MODULES: Readonly<Record<string, readonly GatorsFeature[]>> = {
  [CAMOUFLAGE_MODULE]: [camouflage],
  breakdown: [breakdown],
  'anti-landing': [antiLanding],
  'air-attack': [loadouts, airOpsFeature, antiAircraft],
  'launch-recovery': [launchRecovery],
  fuel: [refuel],
  [AIRFIELDS_MODULE]: [airfields],
  guerrillas: [guerrillas],
  [ROWPU_MODULE]: [],
  [MEDICS_MODULE]: [medics],
  [DEBRIS_MODULE]: [debris],
  'seal-attack': [sabotage],
  bombardment: [bombardment],
  squads: [squads],
};

/** The module ids a Gators! scenario.json may list. */
export const GATORS_MODULES: readonly string[] = Object.keys(MODULES);

const OPTIONAL = new Set(Object.values(MODULES).flat());

/** The features a scenario's modules switch on, in FEATURES order (unknown ids switch nothing on). */
export function featuresFor(modules: readonly string[]): GatorsFeature[] {
  const on = new Set(modules.flatMap((m) => (Object.hasOwn(MODULES, m) ? MODULES[m]! : [])));
  return FEATURES.filter((f) => !OPTIONAL.has(f) || on.has(f));
}
