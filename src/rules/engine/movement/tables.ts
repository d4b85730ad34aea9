import { Board, OFF_MAP } from '../board';

/** Waterline rule codes (terrain.schema coastSchema). */
export const COAST = { forbidden: 0, 'first-step': 1, 'last-step': 2, 'whole-move': 3 } as const;
export type CoastCode = (typeof COAST)[keyof typeof COAST];

/**
 * Class-independent movement facts derived from the terrain legend, per board
 * (cached beside it): how each "along" overlay is recognised and the static
 * waterline rules of each hex.
 */
export interface MovementTables {
  /** Per overlay: index of the network it follows, or -1. */
  readonly alongNetwork: Int32Array;
  /** Per overlay: overlays whose presence in the hex moved from also counts as "along". */
  readonly alsoFromOverlays: Uint32Array;
  /** Per overlay: terrain indices / media indices that also count (flags indexed [overlay][idx]). */
  readonly alsoFromTerrain: readonly Uint8Array[];
  readonly alsoFromMedium: readonly Uint8Array[];
  /** Per hex: waterline rule for arriving from water / leaving into water; and the rule ID's source. */
  readonly coastFromWater: Uint8Array;
  readonly coastToWater: Uint8Array;
  readonly coastRule: readonly (string | undefined)[];
  /** Per hexside feature: bitmask of overlays whose network edge negates it. */
  readonly hexsideNegatedBy: Uint32Array;
}

const cache = new WeakMap<Board, MovementTables>();

export function movementTables(board: Board): MovementTables {
  let t = cache.get(board);
  if (t === undefined) {
    t = compile(board);
    cache.set(board, t);
  }
  return t;
}

function compile(b: Board): MovementTables {
  const n = b.overlayIds.length;
  const alongNetwork = new Int32Array(n).fill(-1);
  const alsoFromOverlays = new Uint32Array(n);
  const alsoFromTerrain: Uint8Array[] = [];
  const alsoFromMedium: Uint8Array[] = [];
  b.overlayDefs.forEach((o, k) => {
    alongNetwork[k] = b.overlayIds.indexOf(o.along ?? b.overlayIds[k]!);
    const tf = new Uint8Array(b.terrainIds.length);
    const mf = new Uint8Array(b.media.length);
    for (const name of o.alsoFrom) {
      const oi = b.overlayIds.indexOf(name);
      if (oi >= 0) alsoFromOverlays[k]! |= 1 << oi;
      const ti = b.terrainIds.indexOf(name);
      if (ti >= 0) tf[ti] = 1;
      const mi = b.media.indexOf(name);
      if (mi >= 0) mf[mi] = 1;
    }
    alsoFromTerrain.push(tf);
    alsoFromMedium.push(mf);
  });

  const size = b.grid.size;
  const coastFromWater = new Uint8Array(size);
  const coastToWater = new Uint8Array(size);
  const coastRule: (string | undefined)[] = new Array<string | undefined>(size).fill(undefined);
  for (let i = 0; i < size; i++) {
    const t = b.terrain[i]!;
    if (t === OFF_MAP) continue;
    let coast = b.terrainDefs[t]!.coast;
    const mask = b.overlays[i]!;
    for (let k = 0; mask !== 0 && k < n; k++) {
      const o = b.overlayDefs[k]!;
      if (mask & (1 << k) && o.applies === 'always' && o.coast !== undefined) coast = o.coast;
    }
    if (coast === undefined) continue;
    coastFromWater[i] = COAST[coast.fromWater];
    coastToWater[i] = COAST[coast.toWater];
    coastRule[i] = coast.ruleId;
  }

  const hexsideNegatedBy = new Uint32Array(b.hexsideIds.length);
  b.hexsideIds.forEach((h, k) => {
    for (const o of b.scenario.terrain.hexsides[h]!.negatedBy) {
      const oi = b.overlayIds.indexOf(o);
      if (oi >= 0) hexsideNegatedBy[k]! |= 1 << oi;
    }
  });
  return { alongNetwork, alsoFromOverlays, alsoFromTerrain, alsoFromMedium, coastFromWater, coastToWater, coastRule, hexsideNegatedBy };
}
