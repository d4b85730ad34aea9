import { GatorsFeature } from './feature';
import { setupP2 } from './features/setup-p2';
import { setupP1 } from './features/setup-p1';
import { loadouts } from './features/loadouts';
import { breakdown } from './features/breakdown';
import { shipPlacement } from './features/ship-placement';
import { movementRules } from './features/movement-rules';
import { antiLanding } from './features/anti-landing';

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
];
