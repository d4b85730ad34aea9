import { Axial, DIRECTIONS } from './axial';
import { LabelFormat, axialToOffset, formatLabel, labelFormat, offsetToAxial, parseLabel } from './labels';

/**
 * A rectangular odd-q board of `columns × rows` hexes, indexed 0..size-1
 * (index = row * columns + col). Neighbour indices are precomputed once per
 * board size into a typed array so that path searches over 10,000+ hexes never
 * allocate or convert coordinates in their inner loop.
 */
export class HexGrid {
  readonly size: number;
  readonly format: LabelFormat;
  /** size × 6 neighbour indices in direction order (see DIRECTIONS); -1 off the board. */
  readonly neighbours: Int32Array;
  readonly q: Int32Array;
  readonly r: Int32Array;
  readonly labels: readonly string[];
  private readonly byLabel: ReadonlyMap<string, number>;

  constructor(
    readonly columns: number,
    readonly rows: number,
  ) {
    if (!Number.isInteger(columns) || !Number.isInteger(rows) || columns < 1 || rows < 1) {
      throw new RangeError(`a hex grid needs positive integer columns and rows, got ${columns} × ${rows}`);
    }
    this.size = columns * rows;
    this.format = labelFormat(columns, rows);
    this.neighbours = new Int32Array(this.size * 6);
    this.q = new Int32Array(this.size);
    this.r = new Int32Array(this.size);
    const labels: string[] = new Array<string>(this.size);
    const byLabel = new Map<string, number>();
    for (let row = 0; row < rows; row++) {
      for (let col = 0; col < columns; col++) {
        const i = row * columns + col;
        const a = offsetToAxial(col, row);
        this.q[i] = a.q;
        this.r[i] = a.r;
        labels[i] = formatLabel(col, row, this.format);
        byLabel.set(labels[i]!, i);
      }
    }
    for (let i = 0; i < this.size; i++) {
      for (let d = 0; d < 6; d++) {
        const dir = DIRECTIONS[d]!;
        this.neighbours[i * 6 + d] = this.indexOfAxial({ q: this.q[i]! + dir.q, r: this.r[i]! + dir.r });
      }
    }
    this.labels = labels;
    this.byLabel = byLabel;
  }

  /** Index of a 0-based column/row, or -1 off the board. */
  index(col: number, row: number): number {
    if (col < 0 || row < 0 || col >= this.columns || row >= this.rows) return -1;
    return row * this.columns + col;
  }

  indexOfAxial(a: Axial): number {
    const { col, row } = axialToOffset(a);
    return this.index(col, row);
  }

  /** Index of a board label such as "0507", or -1 when it is not a hex of this board. */
  indexOf(label: string): number {
    const i = this.byLabel.get(label);
    if (i !== undefined) return i;
    // Accept a label in another width (e.g. "0507" on a 3-digit-column board) only if unambiguous.
    const p = parseLabel(label, this.format);
    return p === null ? -1 : this.index(p.col, p.row);
  }

  label(i: number): string {
    const l = this.labels[i];
    if (l === undefined) throw new RangeError(`hex index ${i} is not on a ${this.columns}×${this.rows} board`);
    return l;
  }

  axial(i: number): Axial {
    return { q: this.q[i]!, r: this.r[i]! };
  }

  col(i: number): number {
    return i % this.columns;
  }

  row(i: number): number {
    return (i - (i % this.columns)) / this.columns;
  }

  distance(i: number, j: number): number {
    const dq = this.q[i]! - this.q[j]!;
    const dr = this.r[i]! - this.r[j]!;
    return (Math.abs(dq) + Math.abs(dr) + Math.abs(dq + dr)) / 2;
  }

  /** Direction 0..5 from i to the adjacent j, or -1. */
  directionTo(i: number, j: number): number {
    const base = i * 6;
    for (let d = 0; d < 6; d++) if (this.neighbours[base + d] === j) return d;
    return -1;
  }

  neighbour(i: number, direction: number): number {
    return this.neighbours[i * 6 + direction]!;
  }
}

const grids = new Map<string, HexGrid>();

/** A shared grid per board size: grids are immutable, so one per size is enough. */
export function gridFor(columns: number, rows: number): HexGrid {
  const key = `${columns}x${rows}`;
  let g = grids.get(key);
  if (g === undefined) {
    g = new HexGrid(columns, rows);
    grids.set(key, g);
  }
  return g;
}
