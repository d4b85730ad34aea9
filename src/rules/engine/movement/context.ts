import { GameState, UnitState } from '../../model/state';
import { UnitType } from '../../model/scenario';
import { Board, boardOf } from '../board';
import { speedIn, towedBy, typeOf, unitOf } from '../queries';
import { enemyVersion, unitIndex } from '../unit-index';
import { ExertsZoc, enemiesOnBoard, zeros, zocFlags } from '../zoc';
import { MovementTables, movementTables } from './tables';
import type { MoveCheck } from './moves';
import { stateSlot } from '../state-memo';
import { TOW_MOVED } from '../evolve';

/** Why a hex is closed to a unit beyond terrain (Debris for vehicles, an occupied bridge, Q-GT-10). */
export interface Block {
  readonly ruleId: string;
  readonly code: string;
  readonly message: string;
  /**
   * A move may enter the hex but ends there (the repair crew onto a bridge Debris destroyed,
   * GT-6Q.8); the reason then says why it may not go on. A retreat still may not enter: it is no
   * move of the unit's own. Whether an unload may is the system's to say (Gators!: it may).
   */
  readonly stops?: boolean;
}

/** What a game system adds to the kernel's movement rules. */
export interface MoveHooks {
  readonly exertsZoc?: ExertsZoc;
  readonly blocked?: (state: GameState, mover: UnitState, board: Board) => ReadonlyMap<number, Block>;
  /** Movement points added to (or, negative, taken from) this unit's move. */
  readonly budgetAdjust?: (state: GameState, mover: UnitState) => number;
  /** A reason the unit may not end its move in this hex, beyond stacking and enemies. */
  readonly endProblem?: (state: GameState, movers: readonly UnitState[], at: number) => Block | null;
}

/**
 * Amphibians with different land and water speeds plan two ways (Q-GT-23):
 * "water", a move made only on water at the water speed; and "land", a move
 * that touches land, at the land speed. Everyone else has one profile, "any".
 */
export type Profile = 'any' | 'land' | 'water';

/**
 * Everything the step rule needs for one unit's move, compiled once per move:
 * costs per terrain for this unit's class and speed (in ticks), occupancy, ZOC
 * and blocks as typed arrays. `terminal`, `failRule` and `afloat` are scratch outputs,
 * read straight after each step (a context is shared by every check of the
 * same move in the same state, see moveContexts).
 */
export interface MoveContext {
  readonly state: GameState;
  readonly board: Board;
  readonly tables: MovementTables;
  readonly unit: UnitState;
  readonly type: UnitType;
  readonly side: string;
  readonly tags: readonly string[];
  readonly start: number;
  readonly profile: Profile;
  /** Movement points of this profile, and the same in ticks. */
  readonly speed: number;
  readonly budget: number;
  readonly minimumMove: boolean;
  readonly ignoresTerrain: boolean;
  readonly passThroughEnemy: boolean;
  readonly amphibious: boolean;
  readonly amphibiousRule: string;
  readonly terrainCost: Int32Array;
  readonly terrainFullIfOne: Uint8Array;
  readonly terrainRule: readonly string[];
  readonly overlayCost: Int32Array;
  readonly overlayFullIfOne: Uint8Array;
  readonly overlayMedium: Int32Array;
  readonly overlayRule: readonly string[];
  readonly hexsideExtra: Int32Array;
  readonly hexsideImpassable: Uint8Array;
  readonly hexsideRule: readonly string[];
  /** 1 where an enemy stands. Shared between moves: read only (as zoc). */
  readonly enemyAt: Uint8Array;
  /** The mover's side's stack in a hex (units standing there and the guns they tow), the mover left out. */
  readonly friendlyStack: (hex: number) => readonly UnitState[];
  readonly zoc: Uint8Array;
  readonly blocked: Uint8Array | null;
  readonly blocks: readonly Block[];
  readonly hooks: MoveHooks;
  terminal: number;
  failRule: string;
  /** Whether the unit is afloat after the step (a unit on a bridge over water is not): the next step's start. */
  afloat: boolean;
}

export interface MoveOptions {
  /** Plan with this side's knowledge (hidden enemies per rules.zoc.hidden); null = the real state. */
  readonly knownTo: string | null;
  readonly hooks?: MoveHooks;
  /** Start somewhere else than where the unit is (projected validation). */
  readonly from?: string;
}

export function profilesOf(t: UnitType, amphibious: boolean): Profile[] {
  if (!amphibious) return ['any'];
  const land = speedIn(t, 'land');
  const water = speedIn(t, 'water');
  return land === water ? ['any'] : ['water', 'land'];
}

const NO_HOOKS: MoveHooks = {};

/** What a unit's move needs that does not depend on knowledge, start or profile: worked out once per state. */
interface Mover {
  readonly unit: UnitState;
  readonly type: UnitType;
  /** Budget adjustment in movement points (the system's). */
  readonly adjust: number;
  /** Movement points the unit's speed loses this turn (towing, GT-6K.2). */
  readonly speedLoss: number;
  readonly enemyAt: Uint8Array;
  readonly friendlyStack: (hex: number) => readonly UnitState[];
  readonly blocked: Uint8Array | null;
  readonly blocks: readonly Block[];
  readonly hooks: MoveHooks;
  /** The contexts made so far, by knowledge (null = the real state) and start label: a few per move. */
  readonly contexts: ContextsEntry[];
}

/** A unit's move contexts for one knowledge and start, with the path checks made with them (checkMove). */
export interface ContextsEntry {
  readonly knownTo: string | null;
  readonly from: string | null;
  readonly list: readonly MoveContext[];
  readonly checks: { readonly path: readonly string[]; readonly movers: readonly UnitState[]; readonly result: MoveCheck }[];
}

// Small arrays searched in order, not maps: a state sees a few movers, a mover a few contexts.
const movers = stateSlot<Mover[]>();

/**
 * The contexts of a unit's move (one per profile), compiled once per state,
 * hooks, knowledge and start: validating, projecting and resolving an order
 * check the same move several times.
 */
export function moveContexts(state: GameState, unitId: string, opts: MoveOptions): readonly MoveContext[] {
  return contextsEntry(state, unitId, opts).list;
}

export function contextsEntry(state: GameState, unitId: string, opts: MoveOptions): ContextsEntry {
  const hooks = opts.hooks ?? NO_HOOKS;
  const m = moverOf(state, unitId, hooks);
  const from = opts.from ?? (m.unit.loc.at === 'hex' ? m.unit.loc.hex : null);
  // Loops, not find with a closure: every check of a move comes here.
  for (const c of m.contexts) if (c.knownTo === opts.knownTo && c.from === from) return c;
  const cls = state.scenario.rules.movementClasses[m.type.movementClass]!;
  const mv = m;
  const list = profilesOf(m.type, cls.amphibious).map((p) => moveContext(state, mv, p, opts.knownTo, hooks, from));
  const entry = { knownTo: opts.knownTo, from, list, checks: [] };
  m.contexts.push(entry);
  return entry;
}

function moverOf(state: GameState, unitId: string, hooks: MoveHooks): Mover {
  let all = movers.get(state);
  if (all === undefined) movers.set(state, (all = []));
  for (const x of all) if (x.unit.id === unitId && x.hooks === hooks) return x;
  const m = mover(state, unitOf(state, unitId), hooks);
  all.push(m);
  return m;
}

/**
 * The most hexes a move of the unit may enter this phase, whatever it knows and wherever it
 * starts: per profile, its budget over the cheapest step its class may take anywhere on the board
 * (terrain or overlay; hexsides only add), and at least one (a minimum or whole move, GT-6A). No
 * search: it picks the units worth one (a carrier driving to its cargo, GT-6G.1), by grid distance.
 */
export function moveReach(state: GameState, unitId: string, hooks?: MoveHooks): number {
  const m = moverOf(state, unitId, hooks ?? NO_HOOKS);
  const board = boardOf(state.scenario);
  const cls = state.scenario.rules.movementClasses[m.type.movementClass]!;
  let reach = 1;
  for (const p of profilesOf(m.type, cls.amphibious)) {
    const speed = Math.max(0, (p === 'water' ? speedIn(m.type, 'water') : p === 'land' ? speedIn(m.type, 'land') : m.type.speed) - m.speedLoss);
    const budget = Math.max(0, Math.round((speed + m.adjust) * board.costScale));
    let cheapest = board.costScale;
    if (!cls.ignoresTerrain) {
      const costs = classCosts(state, board, m.type.movementClass, speed);
      cheapest = Infinity;
      for (const c of [...costs.terrainCost, ...costs.overlayCost]) if (c >= 0 && c < cheapest) cheapest = c;
    }
    if (cheapest <= 0) return Infinity;
    if (cheapest !== Infinity) reach = Math.max(reach, Math.floor(budget / cheapest));
  }
  return reach;
}

function mover(state: GameState, unit: UnitState, hooks: MoveHooks): Mover {
  const board = boardOf(state.scenario);
  const blockMap = hooks.blocked?.(state, unit, board);
  let blocked: Uint8Array | null = null;
  const blocks: Block[] = [];
  if (blockMap !== undefined && blockMap.size > 0) {
    const at = (blocked = new Uint8Array(board.grid.size));
    // forEach, not for-of: no [key, value] pair made per entry.
    blockMap.forEach((why, i) => {
      blocks.push(why);
      at[i] = blocks.length;
    });
  }
  return {
    unit,
    type: typeOf(state, unit),
    adjust: hooks.budgetAdjust?.(state, unit) ?? 0,
    speedLoss: towPenalty(state, unit),
    enemyAt: enemyHexes(state, board, unit.side),
    friendlyStack: (i) => friendlyStack(state, board, unit, i),
    blocked,
    blocks,
    hooks,
    contexts: [],
  };
}

function moveContext(state: GameState, m: Mover, profile: Profile, knownTo: string | null, hooks: MoveHooks, startLabel: string | null): MoveContext {
  const board = boardOf(state.scenario);
  const rules = state.scenario.rules;
  const { unit, type } = m;
  const cls = rules.movementClasses[type.movementClass]!;
  const start = startLabel === null ? -1 : board.grid.indexOf(startLabel);
  // A lost movement point lowers the speed itself, which the speed caps read (GT-3.7: "speed may not exceed 2").
  const speed = Math.max(0, (profile === 'water' ? speedIn(type, 'water') : profile === 'land' ? speedIn(type, 'land') : type.speed) - m.speedLoss);
  const costs = classCosts(state, board, type.movementClass, speed);
  return {
    state,
    board,
    tables: movementTables(board),
    unit,
    type,
    side: unit.side,
    tags: type.tags,
    start,
    profile,
    speed,
    budget: Math.max(0, Math.round((speed + m.adjust) * board.costScale)),
    minimumMove: rules.movement.minimumMove,
    ignoresTerrain: cls.ignoresTerrain,
    passThroughEnemy: cls.passThroughEnemy,
    amphibious: cls.amphibious,
    amphibiousRule: rule(state, 'amphibious'),
    terrainCost: costs.terrainCost,
    terrainFullIfOne: costs.terrainFullIfOne,
    terrainRule: costs.terrainRule,
    overlayCost: costs.overlayCost,
    overlayFullIfOne: costs.overlayFullIfOne,
    overlayMedium: costs.overlayMedium,
    overlayRule: costs.overlayRule,
    hexsideExtra: costs.hexsideExtra,
    hexsideImpassable: costs.hexsideImpassable,
    hexsideRule: costs.hexsideRule,
    enemyAt: m.enemyAt,
    friendlyStack: m.friendlyStack,
    zoc: start >= 0 ? zocFlags(state, board, unit, start, knownTo, hooks.exertsZoc) : zeros(board),
    blocked: m.blocked,
    blocks: m.blocks,
    hooks,
    terminal: 0,
    failRule: '',
    afloat: false,
  };
}

type ClassCosts = Pick<
  MoveContext,
  'terrainCost' | 'terrainFullIfOne' | 'terrainRule' | 'overlayCost' | 'overlayFullIfOne' | 'overlayMedium' | 'overlayRule' | 'hexsideExtra' | 'hexsideImpassable' | 'hexsideRule'
>;

// By class, then speed: a number key needs no string built and hashed per move context.
const costCache = new WeakMap<Board, Map<string, Map<number, ClassCosts>>>();

/** Costs in ticks per terrain, overlay and hexside for a movement class at a speed (caps depend on it); per board. */
function classCosts(state: GameState, board: Board, classId: string, speed: number): ClassCosts {
  let byClass = costCache.get(board);
  if (byClass === undefined) costCache.set(board, (byClass = new Map()));
  let bySpeed = byClass.get(classId);
  if (bySpeed === undefined) byClass.set(classId, (bySpeed = new Map()));
  let c = bySpeed.get(speed);
  if (c === undefined) bySpeed.set(speed, (c = compileCosts(state, board, classId, speed)));
  return c;
}

function compileCosts(state: GameState, board: Board, classId: string, speed: number): ClassCosts {
  const ticks = (mp: number) => Math.round(mp * board.costScale);
  const terrainCost = new Int32Array(board.terrainDefs.length);
  const terrainFullIfOne = new Uint8Array(board.terrainDefs.length);
  const terrainRule: string[] = [];
  board.terrainDefs.forEach((t, k) => {
    const e = t.movement[classId] ?? t.movement['*'];
    terrainRule.push(e?.ruleId ?? t.ruleId ?? rule(state, 'impassable'));
    if (e?.impassable === true) terrainCost[k] = -1;
    else terrainCost[k] = ticks(Math.max(e?.cost ?? 1, e?.cap !== undefined ? speed / e.cap : 0));
    terrainFullIfOne[k] = e?.fullMoveIfSpeedOne === true ? 1 : 0;
  });
  const overlayCost = new Int32Array(board.overlayDefs.length);
  const overlayFullIfOne = new Uint8Array(board.overlayDefs.length);
  const overlayMedium = new Int32Array(board.overlayDefs.length);
  const overlayRule: string[] = [];
  board.overlayDefs.forEach((o, k) => {
    const e = o.movement[classId] ?? o.movement['*'];
    overlayRule.push(e?.ruleId ?? o.ruleId ?? rule(state, 'impassable'));
    overlayCost[k] = e === undefined ? -2 : e.impassable === true ? -1 : ticks(Math.max(e.cost ?? 1, e.cap !== undefined ? speed / e.cap : 0));
    overlayFullIfOne[k] = e?.fullMoveIfSpeedOne === true ? 1 : 0;
    overlayMedium[k] = o.medium === undefined ? -1 : board.media.indexOf(o.medium);
  });
  const hexsideExtra = new Int32Array(board.hexsideIds.length);
  const hexsideImpassable = new Uint8Array(board.hexsideIds.length);
  const hexsideRule: string[] = [];
  board.hexsideIds.forEach((h, k) => {
    const def = state.scenario.terrain.hexsides[h]!;
    const e = def.movement[classId] ?? def.movement['*'];
    hexsideExtra[k] = ticks(e?.extraCost ?? 0);
    hexsideImpassable[k] = e?.impassable === true ? 1 : 0;
    hexsideRule.push(e?.ruleId ?? rule(state, 'impassable'));
  });
  return { terrainCost, terrainFullIfOne, terrainRule, overlayCost, overlayFullIfOne, overlayMedium, overlayRule, hexsideExtra, hexsideImpassable, hexsideRule };
}

const enemyCache = new WeakMap<object, { readonly board: Board; readonly at: Uint8Array }>();

/** Hexes holding a unit of another side than `side`: computed again only when an enemy unit changes. */
function enemyHexes(state: GameState, board: Board, side: string): Uint8Array {
  const key = enemyVersion(state, side);
  const hit = enemyCache.get(key);
  if (hit !== undefined && hit.board === board) return hit.at;
  const at = new Uint8Array(board.grid.size);
  for (const e of enemiesOnBoard(state, board, side)) at[e.at] = 1;
  enemyCache.set(key, { board, at });
  return at;
}

/** The mover's side's units standing in hex i but the mover, then the guns they tow (each part in record order). */
function friendlyStack(state: GameState, board: Board, mover: UnitState, i: number): readonly UnitState[] {
  if (i < 0 || i >= board.grid.size) return [];
  const x = unitIndex(state);
  const here = x.standing.get(board.grid.label(i));
  if (here === undefined) return [];
  const own = here.filter((u) => u.side === mover.side && u.id !== mover.id);
  const guns: UnitState[] = [];
  for (const u of own) for (const g of x.towed.get(u.id) ?? []) if (g.side === mover.side && g.loc.at === 'towed' && g.loc.by[0] === u.id) guns.push(g);
  if (guns.length === 0) return own;
  return [...own, ...guns.sort((a, b) => x.pos.get(a.id)! - x.pos.get(b.id)!)];
}

/**
 * GT-6K.2: a tower loses movement points in its first turn of towing, the first
 * turn in which it moves the gun (attrs.towingMovedIn, set by its first move
 * since it hitched, attrs.towingSince): a truck standing hitched tows nothing,
 * and waiting does not spare it the penalty.
 */
function towPenalty(state: GameState, unit: UnitState): number {
  if (typeof unit.attrs['towingSince'] !== 'number') return 0;
  const first = unit.attrs[TOW_MOVED];
  if (typeof first === 'number' && first !== state.phase.turn) return 0;
  return towedBy(state, unit.id) !== undefined ? state.scenario.rules.towing.firstTurnMpPenalty : 0;
}

/** The rule ID rules.json cites for a movement violation code suffix ("insufficient_mp"). */
export function rule(state: GameState, code: string): string {
  return state.scenario.rules.movement.ruleIds[code] ?? 'MOVE';
}
