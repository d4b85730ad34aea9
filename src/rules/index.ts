/** The rules kernel's public surface for the application layer and for game systems. */
export * from './engine/types';
export { defineSystem } from './engine/kit/define-system';
export type { AskRequest, AskResult, OrderHandler, PhaseKind, ReactionKind, ResolveContext, Resume, Submission, SystemSpec } from './engine/kit/types';
export { kernelView } from './engine/view';
export type { GameView, MarkerView, UnitView } from './engine/view';
export { phaseInfo } from './engine/phase-machine';
export { evolve } from './engine/evolve';
export type { EventBody, KernelEvent, KernelEventData } from './engine/events';
export { checkScenario, parseScenario } from './model/parse-scenario';
export { SCENARIO_FILES } from './model/scenario';
export type { Scenario, UnitType } from './model/scenario';
export { ScenarioError } from './model/scenario-error';
export type { GameState, UnitState, Location, PendingResolution, ReactionRequest } from './model/state';
export type { Json, JsonObject } from './model/json';
export * from './dice';
