import { Axial, DIRECTIONS, add, distance, neighbour, roundCube, scale } from './axial';

/**
 * The hexes on the straight line from a to b, both included.
 * A tiny nudge keeps the line off hexside vertices so that the same pair
 * always gives the same hexes (a line exactly along a hexside would
 * otherwise depend on floating-point rounding).
 */
export function line(a: Axial, b: Axial): Axial[] {
  const n = distance(a, b);
  if (n === 0) return [a];
  const aq = a.q + 1e-6;
  const ar = a.r + 1e-6;
  const bq = b.q + 1e-6;
  const br = b.r + 1e-6;
  const out: Axial[] = [];
  for (let i = 0; i <= n; i++) {
    const t = i / n;
    out.push(roundCube(aq + (bq - aq) * t, ar + (br - ar) * t));
  }
  return out;
}

/** The hexes exactly `radius` away from `center`, clockwise from the south-west corner. */
export function ring(center: Axial, radius: number): Axial[] {
  if (radius < 0) throw new RangeError(`ring radius must be >= 0, got ${radius}`);
  if (radius === 0) return [center];
  const out: Axial[] = [];
  // Start `radius` steps to the SW (direction 4), then walk the six sides.
  let h = add(center, scale(DIRECTIONS[4]!, radius));
  for (let side = 0; side < 6; side++) {
    for (let step = 0; step < radius; step++) {
      out.push(h);
      h = neighbour(h, side);
    }
  }
  return out;
}

/** Every hex within `radius` of `center`, centre first, ring by ring. */
export function spiral(center: Axial, radius: number): Axial[] {
  const out: Axial[] = [];
  for (let k = 0; k <= radius; k++) out.push(...ring(center, k));
  return out;
}
