import { Json, JsonObject } from '../../model/json';
import { GameState, UnitState } from '../../model/state';
import { UnitType } from '../../model/scenario';
import { EventBody } from '../../engine/events';
import { AskRequest, OrderHandler, ReactionKind, ResolveContext, Resume } from '../../engine/kit/types';
import { Block, MoveHooks } from '../../engine/movement/context';
import { OddsHooks } from '../../engine/combat/odds-step';
import { MoveStep, MovedInfo, StepReaction } from '../../engine/orders/move';
import { SideId, Viewer, Violation } from '../../engine/types';
import { GameView } from '../../engine/view';
import { Board } from '../../engine/board';
import { GState, GatorsExt } from './ext';

/** The phase kinds turns.json names; each feature may add orders and hooks to any of them. */
export const PHASE_KINDS = ['setup', 'ship-placement', 'launch', 'recovery', 'movement', 'combat', 'guerrillas', 'end-of-turn'] as const;
export type PhaseKindId = (typeof PHASE_KINDS)[number];

export type Handler = OrderHandler<GatorsExt, unknown>;

/** Movement hooks of a feature; combined over all features (see combine.ts for how). */
export interface FeatureMoveHooks {
  /** True: this enemy exerts no ZOC on the mover (broken down, landed aircraft). Any feature may veto. */
  zocVeto?(state: GameState, enemy: UnitState, moverType: UnitType, medium: string, knownTo: string | null): boolean;
  /** True: this enemy exerts a ZOC although its table strength is 0 (an aircraft that may carry a marker for the class, Q-GT-21). */
  zocCapable?(state: GameState, enemy: UnitState, moverType: UnitType, medium: string): boolean;
  /** Hexes closed to this mover (occupied bridges Q-GT-10; Debris for vehicles GT-6Q.3). Reasons of all features are merged. */
  blocked?(state: GameState, mover: UnitState, board: Board): ReadonlyMap<number, Block>;
  /** Movement points added to the unit's move (summed). */
  budgetAdjust?(state: GameState, mover: UnitState): number;
  /** Why the movers may not end in hex `at` (first reason wins). */
  endProblem?(state: GameState, movers: readonly UnitState[], at: number): Block | null;
  /** Why this unit may not move at all now (broken down, a FAV without crew). Checked before the path. */
  moveProblem?(state: GameState, unit: UnitState, index: number): Violation | null;
}

/**
 * Odds-combat hooks of a feature: the kernel's OddsHooks (engine/combat/odds-step.ts), made
 * composable; combine.ts says how each is combined. strength may return undefined to leave the
 * unit to other features.
 */
export interface FeatureOddsHooks extends Omit<OddsHooks, 'strength'> {
  strength?(state: GameState, unit: UnitState, targetClass: string): number | undefined;
}

/** Per-phase-kind additions of a feature. */
export interface FeaturePhase {
  /** Extra order kinds. Built with the combined hooks, so that they move and fight by the same rules. */
  orders?(h: CombinedHooks): readonly Handler[];
  /** Whole-submission checks; `h` as for orders (what a unit could still do after them). */
  validateSubmission?(before: GState, after: GState, side: SideId, orders: readonly JsonObject[], h: CombinedHooks): Violation[];
  onEnter?(ctx: ResolveContext<GatorsExt>): void;
  auto?(ctx: ResolveContext<GatorsExt>): void;
  /** Simultaneous phases: runs once every side's sealed orders have been applied (the secret breakdown roll). May not ask. */
  afterSealed?(ctx: ResolveContext<GatorsExt>): void;
}

/**
 * One rule module of Gators!. Adding a rule = one file under features/ that
 * exports a GatorsFeature, and one line in features.ts. Everything is
 * optional; the registry combines the features in order.
 */
export interface GatorsFeature {
  readonly id: string;
  /** Rule IDs this feature implements (for the README and the coverage test). */
  readonly rules: readonly string[];
  readonly phases?: Partial<Record<PhaseKindId, FeaturePhase>>;
  readonly reactions?: Readonly<Record<string, ReactionKind<GatorsExt>>>;
  readonly move?: FeatureMoveHooks;
  readonly odds?: FeatureOddsHooks;
  /** After a unit's move; may ask (see combine.ts: the stage is wrapped so that resumes come back here). */
  afterMove?(h: CoreHooks): AfterMove;
  /**
   * What afterMove will make of the mover's own counters when nothing intervenes (a "?" lost
   * by moving, GT-6L.2), so that the submission's later orders are validated on it. `state` is
   * before the move; `moved.path` starts at the hex left. Never the enemy's counters: later
   * orders' violations would tell the mover what they hide.
   */
  projectMove?(state: GState, moved: ProjectedMove): EventBody[];
  /** After a unit is unloaded; may ask. */
  afterUnload?(h: CoreHooks): AfterUnload;
  /** A reaction at a hex of a move (at most one question per hex: the first feature that asks). */
  stepReaction?(h: CoreHooks): StepReaction<GatorsExt>;
  /** A reaction before the die of an attack (at most one question per attack: the first feature that asks). */
  attackReaction?(h: CoreHooks): AttackReaction;
  /** The feature's own event types: type → evolve. */
  readonly events?: Readonly<Record<string, (state: GState, event: EventBody) => GState>>;
  /** Those of its event types that are a side's own records of its orders (SystemSpec.records). */
  readonly records?: readonly string[];
  /** Adds to the view (must follow the hiding rules: only what `viewer` may know). */
  view?(state: GState, viewer: Viewer, base: GameView): GameView;
}

export interface UnloadInfo {
  readonly unit: string;
  readonly carrier: string;
  readonly hex: string;
  readonly index: number;
}

/** Who attacks which hex: an "attack" order, or any other order that makes one attack. */
export interface AttackAt {
  readonly attackers: readonly { readonly unit: string }[];
  readonly target: string;
}

/**
 * A question to the defender before the die is rolled (GT-7G.2: the attacked
 * aircraft may jettison a marker). `question` is pure; `apply` carries out the
 * answer, after which the attack is resolved as usual.
 */
export interface AttackReaction {
  question(state: GameState, attack: AttackAt, side: SideId): Omit<AskRequest, 'stage'> | null;
  apply(ctx: ResolveContext<GatorsExt>, attack: AttackAt, answer: Json): void;
}

export type ProjectedMove = Omit<MovedInfo, 'index'>;
export type AfterMove = (ctx: ResolveContext<GatorsExt>, moved: MovedInfo, resume?: Resume) => void;
export type AfterUnload = (ctx: ResolveContext<GatorsExt>, info: UnloadInfo, resume?: Resume) => void;

/** The features' movement and combat hooks combined into the kernel's shapes (combine.ts). */
export interface CoreHooks {
  readonly move: MoveHooks;
  readonly moveProblem: (state: GameState, unit: UnitState, index: number) => Violation | null;
  readonly odds: OddsHooks;
}

/** CoreHooks and the combined after-move, after-unload and step-reaction hooks. */
export interface CombinedHooks extends CoreHooks {
  readonly afterMove: AfterMove;
  readonly projectMove: (state: GState, moved: ProjectedMove) => EventBody[];
  readonly afterUnload: AfterUnload;
  readonly stepReaction: StepReaction<GatorsExt> | undefined;
  readonly attackReaction: AttackReaction | undefined;
}

export type { MoveStep, MovedInfo };
