import fc from 'fast-check';
import {
  DIRECTIONS,
  HexGrid,
  MinHeap,
  axialToLabel,
  boundedMinSum,
  dijkstra,
  directionTo,
  distance,
  gridFor,
  labelToAxial,
  line,
  neighbours,
  opposite,
  pathTo,
  ring,
  spiral,
} from './index';

describe('labels', () => {
  it('0101 is the top-left hex and odd-q pushes label columns 02, 04… down', () => {
    const g = gridFor(10, 10);
    const n = (l: string) =>
      neighbours(labelToAxial(l)!)
        .map((a) => g.indexOfAxial(a))
        .filter((i) => i >= 0)
        .map((i) => g.label(i))
        .sort();
    expect(n('0101')).toEqual(['0102', '0201']);
    expect(n('0201')).toEqual(['0101', '0102', '0202', '0301', '0302']);
    expect(n('0505')).toEqual(['0404', '0405', '0504', '0506', '0604', '0605'].sort());
    expect(n('0405')).toEqual(['0305', '0306', '0404', '0406', '0505', '0506'].sort());
  });

  it('round-trips every label of a board, including wide boards', () => {
    for (const [c, r] of [
      [12, 9],
      [125, 80],
    ] as const) {
      const g = new HexGrid(c, r);
      for (let i = 0; i < g.size; i++) {
        expect(g.indexOf(g.label(i))).toBe(i);
        expect(axialToLabel(g.axial(i), g.format)).toBe(g.label(i));
      }
    }
    expect(new HexGrid(125, 80).label(0)).toBe('00101');
  });

  it('rejects things that are not labels', () => {
    const g = gridFor(10, 10);
    for (const bad of ['', '0000', '1111', 'ab01', '05077', '0']) expect(g.indexOf(bad)).toBe(-1);
  });
});

describe('axial geometry', () => {
  const arbHex = fc.record({ q: fc.integer({ min: -50, max: 50 }), r: fc.integer({ min: -50, max: 50 }) });

  it('distance is a metric and neighbours are at distance 1', () => {
    fc.assert(
      fc.property(arbHex, arbHex, (a, b) => {
        expect(distance(a, b)).toBe(distance(b, a));
        expect(distance(a, a)).toBe(0);
        for (const n of neighbours(a)) expect(distance(a, n)).toBe(1);
      }),
    );
  });

  it('a line has distance+1 hexes, each adjacent to the next', () => {
    fc.assert(
      fc.property(arbHex, arbHex, (a, b) => {
        const l = line(a, b);
        expect(l.length).toBe(distance(a, b) + 1);
        expect(l[0]).toEqual(a);
        expect(l[l.length - 1]).toEqual(b);
        for (let i = 1; i < l.length; i++) expect(distance(l[i - 1]!, l[i]!)).toBe(1);
      }),
    );
  });

  it('ring and spiral have the expected sizes and distances', () => {
    const c = { q: 3, r: -2 };
    expect(ring(c, 0)).toEqual([c]);
    for (let k = 1; k <= 5; k++) {
      const r = ring(c, k);
      expect(r).toHaveLength(6 * k);
      for (const h of r) expect(distance(c, h)).toBe(k);
      expect(new Set(r.map((h) => `${h.q},${h.r}`)).size).toBe(6 * k);
    }
    expect(spiral(c, 3)).toHaveLength(1 + 6 + 12 + 18);
  });

  it('directions: opposite and directionTo agree', () => {
    for (let d = 0; d < 6; d++) {
      const o = DIRECTIONS[opposite(d)]!;
      expect(DIRECTIONS[d]!.q + o.q).toBe(0);
      expect(DIRECTIONS[d]!.r + o.r).toBe(0);
      expect(directionTo({ q: 0, r: 0 }, DIRECTIONS[d]!)).toBe(d);
    }
  });
});

describe('grid and paths', () => {
  it('grid neighbour table matches axial neighbours and is symmetric', () => {
    const g = gridFor(17, 11);
    for (let i = 0; i < g.size; i++) {
      for (let d = 0; d < 6; d++) {
        const j = g.neighbour(i, d);
        expect(j).toBe(g.indexOfAxial(neighbours(g.axial(i))[d]!));
        if (j >= 0) expect(g.neighbour(j, opposite(d))).toBe(i);
      }
    }
  });

  it('heap pops in priority order', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -1000, max: 1000 }), { maxLength: 300 }), (xs) => {
        const h = new MinHeap(2);
        xs.forEach((x, i) => h.push(x, i));
        const out: number[] = [];
        while (h.size > 0) out.push(xs[h.pop()]!);
        expect(out).toEqual([...xs].sort((a, b) => a - b));
      }),
    );
  });

  it('unit-cost Dijkstra gives hex distance', () => {
    const g = gridFor(20, 15);
    const start = g.indexOf('0708');
    const p = dijkstra(g, start, () => 1);
    for (let i = 0; i < g.size; i++) expect(p.cost[i]).toBe(g.distance(start, i));
    expect(pathTo(p, g.indexOf('0908'))).toHaveLength(2);
  });

  it('boundedMinSum finds the cheapest path within the step limit', () => {
    const g = gridFor(9, 9);
    const a = g.indexOf('0105');
    const b = g.indexOf('0505');
    // A wall of value 9 in column 3 except a gap at row 2: through the wall in 4 steps
    // costs 12; round by the gap takes 8 steps and costs 8.
    const value = (i: number) => (g.col(i) === 2 && g.row(i) !== 1 ? 9 : 1);
    expect(boundedMinSum(g, a, b, 4, value)).toBe(1 + 9 + 1 + 1);
    expect(boundedMinSum(g, a, b, 3, value)).toBe(Infinity);
    expect(boundedMinSum(g, a, b, 7, value)).toBe(12);
    expect(boundedMinSum(g, a, b, 8, value)).toBe(8);
  });
});
