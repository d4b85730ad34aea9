/**
 * Axial coordinates for flat-topped hexes (see README.md in this folder).
 * Everything inside the engine computes with axial (q, r); cube coordinates
 * are (q, r, -q-r) and appear only where rounding needs all three.
 */
export interface Axial {
  readonly q: number;
  readonly r: number;
}

/**
 * Direction index 0..5, clockwise from north: N, NE, SE, S, SW, NW.
 * The opposite of direction d is (d + 3) % 6.
 */
export const DIRECTIONS: readonly Axial[] = [
  { q: 0, r: -1 },
  { q: 1, r: -1 },
  { q: 1, r: 0 },
  { q: 0, r: 1 },
  { q: -1, r: 1 },
  { q: -1, r: 0 },
];

export const DIRECTION_NAMES = ['N', 'NE', 'SE', 'S', 'SW', 'NW'] as const;

export function opposite(direction: number): number {
  return (direction + 3) % 6;
}

export function axial(q: number, r: number): Axial {
  return { q, r };
}

export function add(a: Axial, b: Axial): Axial {
  return { q: a.q + b.q, r: a.r + b.r };
}

export function scale(a: Axial, k: number): Axial {
  return { q: a.q * k, r: a.r * k };
}

export function equals(a: Axial, b: Axial): boolean {
  return a.q === b.q && a.r === b.r;
}

export function neighbour(a: Axial, direction: number): Axial {
  const d = DIRECTIONS[direction];
  if (d === undefined) throw new RangeError(`hex direction must be 0..5, got ${direction}`);
  return { q: a.q + d.q, r: a.r + d.r };
}

export function neighbours(a: Axial): Axial[] {
  return DIRECTIONS.map((d) => ({ q: a.q + d.q, r: a.r + d.r }));
}

export function distance(a: Axial, b: Axial): number {
  const dq = a.q - b.q;
  const dr = a.r - b.r;
  return (Math.abs(dq) + Math.abs(dr) + Math.abs(dq + dr)) / 2;
}

/** The direction from a to an adjacent b, or -1 when they are not adjacent. */
export function directionTo(a: Axial, b: Axial): number {
  const dq = b.q - a.q;
  const dr = b.r - a.r;
  for (let i = 0; i < 6; i++) {
    const d = DIRECTIONS[i]!;
    if (d.q === dq && d.r === dr) return i;
  }
  return -1;
}

/** Rounds fractional cube coordinates to the nearest hex. */
export function roundCube(fq: number, fr: number): Axial {
  const fs = -fq - fr;
  let q = Math.round(fq);
  let r = Math.round(fr);
  const s = Math.round(fs);
  const dq = Math.abs(q - fq);
  const dr = Math.abs(r - fr);
  const ds = Math.abs(s - fs);
  if (dq > dr && dq > ds) q = -r - s;
  else if (dr > ds) r = -q - s;
  // Math.round(-0) is -0; normalise so that equality and JSON stay simple.
  return { q: q + 0, r: r + 0 };
}
