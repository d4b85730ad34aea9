import { SideId } from '../engine/types';
import { Json, JsonObject } from './json';
import { Scenario } from './scenario';

export type UnitId = string;
/** A board label such as "0507" (see hex/README.md). State, events and views use labels. */
export type HexLabel = string;

/**
 * Where a unit is. A carried or towed unit has no hex of its own: it is
 * wherever its carrier is (so moving the carrier moves the cargo, and the
 * cargo's cargo).
 */
export type Location =
  | { readonly at: 'hex'; readonly hex: HexLabel }
  | { readonly at: 'carried'; readonly by: UnitId }
  | { readonly at: 'towed'; readonly by: readonly UnitId[] }
  | { readonly at: 'box'; readonly box: string }
  | { readonly at: 'eliminated' };

export interface UnitState {
  readonly id: UnitId;
  readonly type: string;
  readonly side: SideId;
  readonly loc: Location;
  /** Present while the unit is hidden from the other sides: they see only this marker at its hex. */
  readonly hidden?: { readonly marker: string };
  /** Per-turn facts (moved, attacked, loaded…); cleared at each new turn and by a phase's clearsFlags. */
  readonly flags: JsonObject;
  /** Lasting facts a system keeps on a unit (loadout, fuel, disrupted…). */
  readonly attrs: JsonObject;
}

/** What a side keeps from the others. view() shows it to that side only. */
export interface SideSecret {
  /** Standing reaction orders by reaction kind. */
  readonly standing: JsonObject;
  /** Sealed orders of a simultaneous phase, until every side is in. */
  readonly sealed: Json | null;
  /** System secrets (the Gators! breakdown roll). */
  readonly notes: JsonObject;
}

export interface SideState {
  readonly id: SideId;
  readonly secret: SideSecret;
  readonly public: JsonObject;
}

export interface PhaseState {
  readonly stage: 'setup' | 'turns' | 'ended';
  /** 0 during setup. */
  readonly turn: number;
  /** Index into turns.json `setup` or `phases`, by stage. */
  readonly index: number;
  readonly mode: 'sequential' | 'simultaneous' | 'reaction' | 'ended';
  readonly acting: readonly SideId[];
  /** Simultaneous phases: the sides that have sealed their orders. */
  readonly submitted: readonly SideId[];
  readonly result?: { readonly winner: SideId | null; readonly reason: string };
}

/** An out-of-turn question, asked at a reaction point. */
export interface ReactionRequest {
  readonly side: SideId;
  readonly kind: string;
  /** What everyone may know about the question (it may not depend on hidden facts). */
  readonly prompt: Json;
  /** What only the reacting side sees (its eligible units…). */
  readonly privatePrompt: Json;
  /** Data the engine needs to go on; shown to nobody. */
  readonly context: Json;
}

/**
 * A submission whose resolution stopped at a reaction point. Everything here
 * but the request's public prompt is hidden from the other sides.
 */
export interface PendingResolution {
  readonly side: SideId;
  readonly phaseId: string;
  readonly orders: readonly Json[];
  /** Index (into `orders`) of the order that was interrupted. */
  readonly index: number;
  /** Where inside that order to go on, as the order handler left it. */
  readonly stage: Json;
  /** Original index of orders[0] in the submission, for violations and events. */
  readonly indexOffset: number;
  readonly endsPhase: boolean;
  /** Set by the ReactionRequested event that follows the suspension. */
  readonly request: ReactionRequest | null;
}

/** The whole game state: readonly, JSON-serialisable, changed only by evolve. */
export interface GameState<X extends Json = Json> {
  readonly scenario: Scenario;
  /** Number of events folded so far. */
  readonly seq: number;
  readonly phase: PhaseState;
  readonly units: Readonly<Record<UnitId, UnitState>>;
  readonly sides: Readonly<Record<SideId, SideState>>;
  readonly pending: PendingResolution | null;
  /** The system's own public state (markers, pools…). */
  readonly ext: X;
}
