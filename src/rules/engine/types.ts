/**
 * The contract between the pure rules engine and everything else.
 *
 * The application layer (src/games) only ever talks to a game system through
 * `GameSystem`. It owns I/O, the clock and the secret dice seed; the system
 * owns every rule. Nothing in here may read the clock or a random number generator: time
 * arrives as data and randomness arrives through `Dice`.
 */

import type { Scenario } from '../model/scenario';
import type { ScenarioIssue } from '../model/scenario-error';

/** A side of the game as named by the scenario, e.g. 'P1' and 'P2'. */
export type SideId = string;

/**
 * Who is looking. A side sees what its rules allow; a spectator sees only what
 * is hidden from nobody; `referee` sees everything (finished-game replay and
 * export only).
 */
export type Viewer = { kind: 'side'; side: SideId } | { kind: 'spectator' } | { kind: 'referee' };

/** One rules violation; `ruleId` cites ../shared/rules (e.g. 'GT-6C.2'). */
export interface Violation {
  ruleId: string;
  /** Namespaced machine code, e.g. 'movement/zoc_stop'. */
  code: string;
  message: string;
  /** Index of the offending order in the submission, or null for the whole submission. */
  orderIndex: number | null;
  /**
   * The one counter a violation of the whole submission is about (an unplaced unit, a helicopter
   * on the wrong ship), so a client can point at it without reading the message. Null when the
   * violation names an order (its unit is the order's) or no single counter.
   */
  unit: string | null;
}

/**
 * Who may read an event, decided by the engine when it emits the event.
 * `all`: everyone. `sides`: only the listed sides see `data`; everyone else
 * sees `redacted` (or nothing when `redacted` is absent). A redacted form must
 * never depend on the hidden facts it replaces.
 */
export type Visibility =
  | { to: 'all' }
  | { to: 'sides'; sides: SideId[]; redacted?: { type: string; data: unknown } };

/** A past-tense fact emitted by the engine. The app layer adds metadata (actor, time, correlation). */
export interface RulesEvent<T extends string = string, D = unknown> {
  type: T;
  data: D;
  visibility: Visibility;
  /** True when the event discloses something that was hidden from a side (a camouflage
   *  reveal, a sealed setup opened). A phase that revealed anything cannot be undone. */
  reveals?: boolean;
}

/**
 * The source of randomness handed to `resolve`. Each call is one roll, which the
 * application records in the log (with its counter) so that anyone can verify it
 * once the seed is revealed. `visibleTo` limits who learns the roll (the secret
 * Gators! breakdown roll); by default every side sees it.
 */
export interface Dice {
  /** A uniform integer in 1..sides. */
  roll(sides: number, purpose: string, visibleTo?: SideId[]): number;
}

/**
 * Replaying a log: the answers the sides' standing orders gave, as the log recorded them
 * (ReactionAnswered), handed out in turn in place of the standing orders then in force, which a
 * log does not hold. `next` gives the next recorded answer if it is one to this side and kind,
 * else null (the standing orders did not decide it).
 */
export interface StandingAnswers {
  next(side: SideId, kind: string): unknown;
}

/** What the phase machine says about the present moment. */
export interface PhaseInfo {
  turn: number;
  /** Scenario phase id, e.g. 'p1-movement'. */
  phase: string;
  /**
   * sequential: one side submits a phase.
   * simultaneous: several sides submit sealed orders (setup); all are applied once every side is in.
   * reaction: resolution is paused for an out-of-turn decision by `acting[0]`.
   * ended: the game is over.
   */
  mode: 'sequential' | 'simultaneous' | 'reaction' | 'ended';
  /** Sides that must submit now. For simultaneous phases, the sides that have not yet submitted. */
  acting: SideId[];
  /** Present in reaction mode: what is being asked, as the reacting side may see it. */
  reaction?: { side: SideId; kind: string; prompt: unknown };
  /** Present when mode is 'ended'. */
  result?: { winner: SideId | null; reason: string };
}

/** A submission as the client sent it, before parsing. */
export interface RawSubmission {
  /** 'orders' for a normal or setup phase, 'reaction' to answer a reaction window,
   *  'standing-orders' to replace the side's standing reaction orders. */
  kind: 'orders' | 'reaction' | 'standing-orders';
  orders: unknown;
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; violations: Violation[] };

/** Reachable hexes, attackable targets and the like for one unit, as the side may see them. */
export interface UnitOptions {
  unitId: string;
  /** `with`: units the move order must take along (`with`), as a gun's other towers (GT-6K.5); absent when it moves alone. */
  moves: Array<{ hex: string; cost: number; path: string[]; with?: string[] }>;
  attacks: Array<{ targetHex: string; targetIds: string[]; preview: unknown }>;
  other?: OtherOption[];
}

/** An action a system offers beyond moves and attacks: the order it names, with the detail that order needs. */
export interface OtherOption {
  action: string;
  detail: unknown;
}

/**
 * A game system (Gators!, Grav Armor, World at War). Pure and deterministic:
 * the same state, submission and dice give the same events.
 *
 * S is the system's JSON-serialisable state, Sub its parsed submission.
 */
export interface GameSystem<S = unknown, Sub = unknown> {
  readonly id: string;

  /**
   * What this system finds wrong with a scenario that passed the generic checks (unknown phase
   * kinds, its own data sections, ids they name); empty when it can play it. The loader refuses
   * a scenario with any issue (games/load-catalog.ts), and start throws on one.
   */
  checkScenario(scenario: Scenario): readonly ScenarioIssue[];

  /** Events that bring a new game of `scenario` into being (evolve them from `undefined`). A
   *  scenario with issues (checkScenario) throws a ScenarioError. */
  start(scenario: unknown, options: { sides: SideId[] }): RulesEvent[];

  /** The only state transition. `state` is undefined for the first event. */
  evolve(state: S | undefined, event: { type: string; data: unknown }): S;

  phase(state: S): PhaseInfo;

  /** Shape check of client input: malformed orders, unknown units, bad hex labels. */
  parse(state: S, side: SideId, raw: RawSubmission): Parsed<Sub>;

  /** Every violation at once; empty means legal. Never throws for bad input. */
  validate(state: S, side: SideId, submission: Sub): Violation[];

  /**
   * A phase still being written (parsed as a submission): what its orders break, each checked
   * after those before it, leaving out the checks of the whole submission that only a complete
   * phase must pass. Empty: options() may be asked after it.
   */
  validateDraft(state: S, side: SideId, draft: Sub): Violation[];

  /**
   * The events of a valid submission. For a simultaneous phase whose other
   * sides have not all submitted, the events only seal this side's orders.
   * May stop at a reaction point (the last event then requests it). `answers`: replaying a log.
   */
  resolve(state: S, side: SideId, submission: Sub, dice: Dice, answers?: StandingAnswers): RulesEvent[];

  /**
   * An unanswered reaction window expired: apply the side's standing orders
   * or no reaction, and continue resolution. `answers`: replaying a log.
   */
  expireReaction(state: S, dice: Dice, answers?: StandingAnswers): RulesEvent[];

  /** Exactly what `viewer` may see of `state`. JSON-serialisable. */
  view(state: S, viewer: Viewer): unknown;

  /**
   * The scenario the game was started with, as its first event recorded it: the game's map and
   * names are this data's, whatever the scenario files on offer say now.
   */
  scenario(state: S): Scenario;

  /**
   * What one of the side's units may do now, or after the orders of `draft` (one validateDraft
   * accepts): each option an order validation accepts sent after them. Violations: not its unit.
   */
  options(state: S, side: SideId, unitId: string, draft?: Sub): UnitOptions | Violation[];

  /**
   * The side's orders that no one unit's options hold (Gators!: a hex to raise guerrillas in, to
   * camouflage, to place Debris in), now or after the orders of `draft`: each one validation
   * accepts sent after them. Empty when the side may not give orders now.
   */
  sideOptions(state: S, side: SideId, draft?: Sub): OtherOption[];
}
