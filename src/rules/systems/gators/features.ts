import { GatorsFeature } from './feature';
import { setupP2 } from './features/setup-p2';
import { setupP1 } from './features/setup-p1';
import { loadouts } from './features/loadouts';
import { breakdown } from './features/breakdown';
import { shipPlacement } from './features/ship-placement';
import { movementRules } from './features/movement-rules';
import { antiLanding } from './features/anti-landing';
import { launchRecovery } from './features/launch-recovery';
import { passengerFire } from './features/passenger-fire';
import { airOpsFeature } from './features/air-ops';
import { antiAircraft } from './features/anti-aircraft';
import { landedAircraft } from './features/landed-aircraft';
import { refuel } from './features/refuel';
import { airfields } from './features/airfields';
import { camouflage } from './features/camouflage';
import { squads } from './features/squads';
import { guerrillas } from './features/guerrillas';
import { recon } from './features/recon';
import { medics } from './features/medics';
import { debris } from './features/debris';
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
  passengerFire,
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
