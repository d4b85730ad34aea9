import { z } from 'zod';
import { Json, JsonObject } from '../../model/json';
import { Scenario } from '../../model/scenario';
import { ScenarioIssue } from '../../model/scenario-error';
import { GameState, ReactionRequest } from '../../model/state';
import { EventBody } from '../events';
import { SystemEvolve } from '../evolve';
import { Dice, OtherOption, RulesEvent, SideId, UnitOptions, Viewer, Violation } from '../types';
import { Outcome } from '../victory';
import { GameView } from '../view';

/** A parsed submission (GameSystem's `Sub`). Orders are the handlers' parsed JSON objects. */
export type Submission =
  | { readonly kind: 'orders'; readonly orders: readonly JsonObject[]; readonly endsPhase: boolean }
  | { readonly kind: 'reaction'; readonly answer: Json }
  | { readonly kind: 'standing-orders'; readonly orders: JsonObject };

/** A reaction point: the question and where the asking order resumes (`stage`). */
export interface AskRequest extends ReactionRequest {
  readonly stage: Json;
}

export type AskResult = { readonly answered: true; readonly answer: Json } | { readonly answered: false };

/** Where an interrupted order goes on, and the answer it was waiting for. */
export interface Resume {
  readonly stage: Json;
  readonly answer: Json;
}

/**
 * What an order handler resolves with. `state` is the state after every
 * event emitted so far (events are folded as they are emitted), so later
 * orders see earlier results.
 */
export interface ResolveContext<X extends Json = Json> {
  readonly state: GameState<X>;
  readonly dice: Dice;
  /** The side whose orders are being resolved. */
  readonly side: SideId;
  emit(event: RulesEvent): void;
  /**
   * A reaction point. The reacting side's standing orders are consulted first;
   * if they decide, the answer comes back at once. Otherwise the resolution
   * pauses: the handler must return straight away and is called again with
   * `resume` (this request's stage and the answer) when the side has answered.
   */
  ask(request: AskRequest): AskResult;
}

/**
 * One kind of order ("move", "attack"…). validate sees the state as projected
 * by the submission's earlier orders (their `project` events folded in).
 */
export interface OrderHandler<X extends Json, O> {
  readonly kind: string;
  readonly schema: z.ZodType<O>;
  validate(state: GameState<X>, side: SideId, order: O, index: number): Violation[];
  /** The events the order makes when nothing random intervenes; used only to validate later orders. */
  project(state: GameState<X>, side: SideId, order: O): EventBody[];
  resolve(ctx: ResolveContext<X>, order: O, index: number, resume?: Resume): void;
  /** Contribution to options(): moves, attacks, other actions for this unit now. */
  options?(state: GameState<X>, side: SideId, unitId: string): Partial<UnitOptions>;
  /**
   * The one order an `other` option of this handler stands for (null: none of its own). Where it
   * is given, options() keeps such an option only when validation accepts that order as a whole
   * submission, so checks a system puts in front of the handler or on the whole submission (Gators!
   * `withChecks`, `validateSubmission`) never let an option through that the order would fail.
   */
  optionOrder?(unitId: string, option: { readonly action: string; readonly detail: unknown }): O | null;
  /**
   * Contribution to sideOptions(): orders of this kind the side may give that belong to no one unit
   * (a hex to raise guerrillas in), listed loosely (`list`, usually by the order's own check), each
   * with the order it stands for (`order`): sideOptions() keeps those validation accepts as a whole
   * submission, after the draft's orders if there is a draft.
   */
  sideOptions?: { list(state: GameState<X>, side: SideId): readonly OtherOption[]; order(option: OtherOption): O };
}

export interface PhaseKind<X extends Json> {
  readonly orders?: readonly OrderHandler<X, unknown>[];
  /** Whole-submission checks, on the state before and after projecting every valid order. */
  validateSubmission?(before: GameState<X>, after: GameState<X>, side: SideId, orders: readonly JsonObject[]): Violation[];
  /** Runs when the phase begins (clear markers, roll for guerrillas…). May not ask. */
  onEnter?(ctx: ResolveContext<X>): void;
  /** Runs an `auto` phase (no submission). May not ask. */
  auto?(ctx: ResolveContext<X>): void;
  /** Applies a simultaneous phase's sealed orders once every side is in. Default: each side's orders in turn. */
  resolveSealed?(ctx: ResolveContext<X>, sealed: Readonly<Record<SideId, readonly JsonObject[]>>): void;
  /** Runs once the sealed orders are applied and logged (the secret breakdown roll). May not ask. */
  afterSealed?(ctx: ResolveContext<X>): void;
}

/** An out-of-turn decision (Gators! anti-landing fire, Grav Armor fire during movement). */
export interface ReactionKind<X extends Json> {
  readonly answerSchema: z.ZodType<Json>;
  /** Shape of this kind's standing orders, kept in the side's secret state. */
  readonly standingSchema: z.ZodType<Json>;
  validateAnswer(state: GameState<X>, request: ReactionRequest, answer: Json): Violation[];
  /** What the shape cannot tell of standing orders (the units they name are the side's own): violations naming the field. */
  checkStanding?(state: GameState<X>, side: SideId, standing: Json, field: string): Violation[];
  /** The answer standing orders give, or null when they do not decide this request. */
  fromStanding(state: GameState<X>, request: ReactionRequest, standing: Json | undefined): Json | null;
  /** The answer when the window expires unanswered. */
  none(state: GameState<X>, request: ReactionRequest): Json;
}

/** Everything a game system adds to the kernel. */
export interface SystemSpec<X extends Json> {
  readonly id: string;
  initialExt(scenario: Scenario): X;
  /** By phase kind (turns.json `kind`). */
  readonly phases: Readonly<Record<string, PhaseKind<X>>>;
  readonly reactions?: Readonly<Record<string, ReactionKind<X>>>;
  /** Handles the system's own event types. */
  readonly evolve?: SystemEvolve<X>;
  /**
   * The system's event types that are a side's own records of its orders, as the kernel's
   * OrderCancelled is (events.ts RECORDS): written for the acting side only, read by the others
   * as nothing. A run of orders logs them in one event at its end (own-records.ts), so the evolve
   * of no event that may follow one in the same run may read what it changes. The runner checks
   * it where it moves records: a run whose log would fold to another game than it resolved on
   * throws rather than be logged.
   */
  readonly records?: readonly string[];
  /** Adds to the kernel's view; must follow the same hiding rules. */
  view?(state: GameState<X>, viewer: Viewer, base: GameView): GameView;
  /** Victory at the end of a turn; default: victory.json conditions. */
  victory?(state: GameState<X>): Outcome | null;
  /**
   * The system's own check of a scenario that passed the generic ones: its sections of
   * rules.json and scenario.json, and the ids they name. Each issue names the file and the
   * JSON path (model/scenario-error.ts). Phase kinds are checked by the kit (check-scenario.ts).
   */
  checkScenario?(scenario: Scenario): readonly ScenarioIssue[];
}
