import { GameState, UnitState } from '../../model/state';
import { UnitType } from '../../model/scenario';
import { Board, boardOf } from '../board';
import { speedIn, typeOf, unitOf, allUnits } from '../queries';
import { ExertsZoc, zocFlags } from '../zoc';
import { MovementTables, movementTables } from './tables';

/** Why a hex is closed to a unit beyond terrain (Debris for vehicles, an occupied bridge, Q-GT-10). */
export interface Block {
  readonly ruleId: string;
  readonly code: string;
  readonly message: string;
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
 * and blocks as typed arrays. `terminal` and `failRule` are scratch outputs.
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
  readonly enemyAt: Uint8Array;
  /** 1 where a unit of the mover's side (other than the mover) stands. */
  readonly friendlyAt: Uint8Array;
  /** The mover's side's stacks by hex (units standing there and the guns they tow), the mover left out. */
  readonly friendlyStacks: ReadonlyMap<number, readonly UnitState[]>;
  readonly zoc: Uint8Array;
  readonly blocked: Uint8Array | null;
  readonly blocks: readonly Block[];
  readonly hooks: MoveHooks;
  terminal: number;
  failRule: string;
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

export function moveContexts(state: GameState, unitId: string, opts: MoveOptions): MoveContext[] {
  const unit = unitOf(state, unitId);
  const type = typeOf(state, unit);
  const cls = state.scenario.rules.movementClasses[type.movementClass]!;
  return profilesOf(type, cls.amphibious).map((p) => moveContext(state, unit, p, opts));
}

export function moveContext(state: GameState, unit: UnitState, profile: Profile, opts: MoveOptions): MoveContext {
  const board = boardOf(state.scenario);
  const rules = state.scenario.rules;
  const type = typeOf(state, unit);
  const classId = type.movementClass;
  const cls = rules.movementClasses[classId]!;
  const scale = board.costScale;
  const hooks = opts.hooks ?? {};
  const startLabel = opts.from ?? (unit.loc.at === 'hex' ? unit.loc.hex : null);
  const start = startLabel === null ? -1 : board.grid.indexOf(startLabel);
  const speed = profile === 'water' ? speedIn(type, 'water') : profile === 'land' ? speedIn(type, 'land') : type.speed;
  const adjust = (hooks.budgetAdjust?.(state, unit) ?? 0) - towPenalty(state, unit);
  const budget = Math.max(0, Math.round((speed + adjust) * scale));
  const ticks = (mp: number) => Math.round(mp * scale);

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

  // One allocation for the three per-hex arrays of a move.
  const size = board.grid.size;
  const arrays = new Uint8Array(size * 3);
  const enemyAt = arrays.subarray(0, size);
  const friendlyAt = arrays.subarray(size, size * 2);
  const friendlyStacks = new Map<number, UnitState[]>();
  const towerHex = new Map<string, number>();
  const towed: UnitState[] = [];
  for (const u of allUnits(state)) {
    if (u.loc.at === 'towed' && u.side === unit.side) towed.push(u);
    if (u.loc.at !== 'hex' || u.id === unit.id) continue;
    const i = board.grid.indexOf(u.loc.hex);
    if (i < 0) continue;
    if (u.side !== unit.side) {
      enemyAt[i] = 1;
      continue;
    }
    friendlyAt[i] = 1;
    towerHex.set(u.id, i);
    const list = friendlyStacks.get(i);
    if (list === undefined) friendlyStacks.set(i, [u]);
    else list.push(u);
  }
  for (const u of towed) {
    const i = u.loc.at === 'towed' ? towerHex.get(u.loc.by[0]!) : undefined;
    if (i !== undefined) friendlyStacks.get(i)!.push(u);
  }
  const zoc = arrays.subarray(size * 2);
  if (start >= 0) zocFlags(state, board, unit, start, opts.knownTo, hooks.exertsZoc, zoc, true);
  const blockMap = hooks.blocked?.(state, unit, board);
  let blocked: Uint8Array | null = null;
  const blocks: Block[] = [];
  if (blockMap !== undefined && blockMap.size > 0) {
    blocked = new Uint8Array(board.grid.size);
    for (const [i, why] of blockMap) {
      blocks.push(why);
      blocked[i] = blocks.length;
    }
  }

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
    budget,
    minimumMove: rules.movement.minimumMove,
    ignoresTerrain: cls.ignoresTerrain,
    passThroughEnemy: cls.passThroughEnemy,
    amphibious: cls.amphibious,
    amphibiousRule: rule(state, 'amphibious'),
    terrainCost,
    terrainFullIfOne,
    terrainRule,
    overlayCost,
    overlayFullIfOne,
    overlayMedium,
    overlayRule,
    hexsideExtra,
    hexsideImpassable,
    hexsideRule,
    enemyAt,
    friendlyAt,
    friendlyStacks,
    zoc,
    blocked,
    blocks,
    hooks,
    terminal: 0,
    failRule: '',
  };
}

/**
 * GT-6K.2: a tower loses movement points in its first turn of towing. Hitching
 * ends the tower's move (GT-6K.1), so that is the turn after the one in which
 * it hitched (attrs.towingSince).
 */
function towPenalty(state: GameState, unit: UnitState): number {
  const since = unit.attrs['towingSince'];
  if (typeof since !== 'number' || state.phase.turn !== since + 1) return 0;
  const towing = allUnits(state).some((u) => u.loc.at === 'towed' && u.loc.by.includes(unit.id));
  return towing ? state.scenario.rules.towing.firstTurnMpPenalty : 0;
}

/** The rule ID rules.json cites for a movement violation code suffix ("insufficient_mp"). */
export function rule(state: GameState, code: string): string {
  return state.scenario.rules.movement.ruleIds[code] ?? 'MOVE';
}
