import { OFF_MAP } from '../board';
import { COAST } from './tables';
import { MoveContext } from './context';

/**
 * Step outcomes. A step returns its cost in ticks (>= 1), or one of these
 * negative codes. Integers, so the search's inner loop allocates nothing; the
 * path validator turns them into violations (see STEP_CODES).
 */
export const STEP = {
  OFF_MAP: -1,
  ENEMY_HEX: -2,
  BLOCKED: -3,
  IMPASSABLE: -4,
  BRIDGE_PASSAGE: -5,
  HEXSIDE: -6,
  AMPHIB_NOT_FIRST: -7,
  AMPHIB_FORBIDDEN: -8,
  NOT_IN_PROFILE: -9,
  INSUFFICIENT_MP: -10,
  ZOC_SAME: -11,
  LEAVES_SIDEWAYS: -12,
} as const;

/** Why a step ended the move (the next step is then refused). */
export const TERMINAL = { NONE: 0, ZOC: 1, WHOLE_MOVE: 2, LAST_STEP: 3, MINIMUM_MOVE: 4, BLOCK: 5 } as const;

export const ZOC_STOP = 1;
export const ZOC_FORBIDDEN = 2;

/**
 * The one definition of a legal step, shared by the reachable-hex search and
 * the path validator so that the two can never disagree. Writes why a step
 * ends the move into c.terminal, the rule behind a refusal into c.failRule and
 * whether the unit is then afloat into c.afloat.
 *
 * `from` may be c.start only as the first step (spent = 0): paths never gain
 * anything by coming back to the start.
 *
 * `fromAfloat`: whether the unit is afloat in `from`, as the step into it left
 * c.afloat; unknown for the start hex (see startsAfloat).
 */
export function step(c: MoveContext, from: number, dir: number, to: number, spent: number, fromAfloat?: boolean): number {
  const b = c.board;
  c.terminal = TERMINAL.NONE;
  if (to < 0 || b.terrain[to] === OFF_MAP) return STEP.OFF_MAP;
  if (c.enemyAt[to] !== 0 && !c.passThroughEnemy) return STEP.ENEMY_HEX;
  const stopsHere = c.blocked !== null && c.blocked[to] !== 0;
  if (stopsHere && c.blocks[c.blocked![to]! - 1]!.stops !== true) return STEP.BLOCKED;
  const first = spent === 0 && from === c.start;

  let cost: number;
  let medium: number;
  let fullIfOne = false;
  if (c.ignoresTerrain) {
    cost = b.costScale;
    medium = b.staticMedium[to]!;
  } else {
    if (leavesSideways(c, from, dir, to)) return STEP.LEAVES_SIDEWAYS;
    const t = b.terrain[to]!;
    medium = b.terrainMedium[t]!;
    let overlayCost = -1;
    let opened = false;
    const mask = b.overlays[to]!;
    if (mask !== 0) {
      const tb = c.tables;
      for (let k = 0; k < c.overlayCost.length; k++) {
        if ((mask & (1 << k)) === 0) continue;
        const e = c.overlayCost[k]!;
        if (e === -2) continue;
        const def = b.overlayDefs[k]!;
        if (def.applies === 'along') {
          const net = tb.alongNetwork[k]! >= 0 ? b.networks[tb.alongNetwork[k]!] : null;
          const alongEdge = net !== null && net !== undefined && (net[from]! & (1 << dir)) !== 0;
          if (
            !alongEdge &&
            (b.overlays[from]! & tb.alsoFromOverlays[k]!) === 0 &&
            tb.alsoFromTerrain[k]![b.terrain[from]!] !== 1 &&
            tb.alsoFromMedium[k]![b.staticMedium[from]!] !== 1
          )
            continue;
        }
        if (e === -1) {
          // A unit an "along" overlay is closed to is not on it (a boat under a bridge, GT-3.3): the terrain decides.
          if (def.applies === 'along') continue;
          c.failRule = c.overlayRule[k]!;
          return STEP.IMPASSABLE;
        }
        if (overlayCost < 0 || e < overlayCost) {
          overlayCost = e;
          fullIfOne = c.overlayFullIfOne[k] === 1;
        }
        if (!def.keepsTerrainImpassability) opened = true;
        if (c.overlayMedium[k]! >= 0) medium = c.overlayMedium[k]!;
      }
    }
    const tc = c.terrainCost[t]!;
    if (tc < 0 && !opened) {
      c.failRule = c.terrainRule[t]!;
      return STEP.IMPASSABLE;
    }
    if (overlayCost >= 0) cost = overlayCost;
    else {
      cost = tc;
      fullIfOne = c.terrainFullIfOne[t] === 1;
    }
    if (medium === b.waterMedium && b.bridges.size > 0) {
      const br = b.bridges.get(to);
      if (br !== undefined) {
        const pass = br.passage[c.side];
        if (pass !== undefined && !pass.includes('*') && !pass.some((x) => c.tags.includes(x))) return STEP.BRIDGE_PASSAGE;
      }
    }
    if (b.hexsides !== null) {
      const f = b.hexsides[from * 6 + dir]!;
      if (f !== 0) {
        for (let k = 0; k < c.hexsideExtra.length; k++) {
          if ((f & (1 << k)) === 0) continue;
          if (negated(c, k, from, dir)) continue;
          if (c.hexsideImpassable[k] === 1) {
            c.failRule = c.hexsideRule[k]!;
            return STEP.HEXSIDE;
          }
          cost += c.hexsideExtra[k]!;
        }
      }
    }
  }

  let wholeMove = false;
  let terminal: number = TERMINAL.NONE;
  const water = b.waterMedium;
  const toWater = medium === water;
  // A unit entering from off the map (launched there, GT-5.3) crosses no waterline.
  const fromWater = b.staticMedium[from] === OFF_MAP ? toWater : (fromAfloat ?? startsAfloat(c, from, dir));
  if (c.profile === 'water' && (!toWater || !fromWater)) return STEP.NOT_IN_PROFILE;
  if (c.profile === 'land' && fromWater && toWater) return STEP.NOT_IN_PROFILE;
  if (c.amphibious && fromWater !== toWater) {
    const rule = fromWater ? c.tables.coastFromWater[to]! : c.tables.coastToWater[from]!;
    c.failRule = c.tables.coastRule[fromWater ? to : from] ?? c.amphibiousRule;
    if (rule === COAST['whole-move']) {
      if (!first) return STEP.AMPHIB_NOT_FIRST;
      wholeMove = true;
    } else if (fromWater && rule === COAST['first-step']) {
      if (!first) return STEP.AMPHIB_NOT_FIRST;
    } else if (!fromWater && rule === COAST['last-step']) {
      terminal = TERMINAL.LAST_STEP;
    } else return STEP.AMPHIB_FORBIDDEN;
  }

  if (wholeMove) {
    cost = c.budget - spent;
    terminal = TERMINAL.WHOLE_MOVE;
  } else if (spent + cost > c.budget) {
    if (first && c.speed > 0 && (c.minimumMove || (fullIfOne && c.speed === 1))) {
      cost = c.budget - spent;
      terminal = TERMINAL.MINIMUM_MOVE;
    } else return STEP.INSUFFICIENT_MP;
  }

  const z = c.zoc[to]!;
  if ((z & ZOC_FORBIDDEN) !== 0) return STEP.ZOC_SAME;
  if (stopsHere && terminal === TERMINAL.NONE) terminal = TERMINAL.BLOCK;
  if ((z & ZOC_STOP) !== 0 && terminal === TERMINAL.NONE) terminal = TERMINAL.ZOC;
  c.terminal = terminal;
  c.afloat = toWater;
  return cost;
}

/**
 * Whether the step leaves `from` off the side of an "along" overlay that is all that holds the
 * mover there, its terrain being closed to it (a truck on a bridge over water): such a hex is
 * left along the overlay's network, as it was entered (GT-3.3, GT-3.14), not sideways onto
 * whatever land lies next to it. Sets c.failRule to the overlay's rule.
 */
function leavesSideways(c: MoveContext, from: number, dir: number, to: number): boolean {
  const b = c.board;
  const mask = b.overlays[from]!;
  if (mask === 0 || c.terrainCost[b.terrain[from]!]! >= 0) return false;
  const tb = c.tables;
  let held = false;
  for (let k = 0; k < c.overlayCost.length; k++) {
    if ((mask & (1 << k)) === 0 || c.overlayCost[k]! < 0 || b.overlayDefs[k]!.applies !== 'along' || b.overlayDefs[k]!.keepsTerrainImpassability) continue;
    const net = tb.alongNetwork[k]! >= 0 ? b.networks[tb.alongNetwork[k]!] : null;
    // The way back of an entry "along": the network's edge, or a hex it may be entered from (a river's mouth from the sea).
    if (
      (net !== null && net !== undefined && (net[from]! & (1 << dir)) !== 0) ||
      (b.overlays[to]! & tb.alsoFromOverlays[k]!) !== 0 ||
      tb.alsoFromTerrain[k]![b.terrain[to]!] === 1 ||
      tb.alsoFromMedium[k]![b.staticMedium[to]!] === 1
    )
      return false;
    held = true;
    c.failRule = c.overlayRule[k]!;
  }
  return held;
}

/**
 * Whether a unit standing in `from` at the start of its move is afloat. The state does not say
 * on which level a unit in a bridge hex over water stands: one that goes on along the road is on
 * the bridge (GT-3.14), as it came there; otherwise the hex's own medium holds.
 */
function startsAfloat(c: MoveContext, from: number, dir: number): boolean {
  const b = c.board;
  if (b.staticMedium[from] !== b.waterMedium) return false;
  const mask = b.overlays[from]!;
  for (let k = 0; mask !== 0 && k < b.overlayDefs.length; k++) {
    if ((mask & (1 << k)) === 0 || c.overlayMedium[k]! < 0 || c.overlayMedium[k] === b.waterMedium || c.overlayCost[k]! < 0) continue;
    const n = c.tables.alongNetwork[k]!;
    const net = n >= 0 ? b.networks[n] : null;
    if (net !== null && net !== undefined && (net[from]! & (1 << dir)) !== 0) return false;
  }
  return true;
}

function negated(c: MoveContext, feature: number, from: number, dir: number): boolean {
  const mask = c.tables.hexsideNegatedBy[feature]!;
  if (mask === 0) return false;
  const nets = c.board.networks;
  for (let k = 0; k < nets.length; k++) {
    if ((mask & (1 << k)) === 0) continue;
    const net = nets[k];
    if (net !== null && net !== undefined && (net[from]! & (1 << dir)) !== 0) return true;
  }
  return false;
}
