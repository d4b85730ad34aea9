/**
 * A binary min-heap of (priority, value) pairs in typed arrays. Path searches
 * push a node again instead of decreasing its key and skip stale entries on
 * pop ("lazy deletion"), which is simpler and, on hex maps, faster.
 */
export class MinHeap {
  private priorities: Float64Array;
  private values: Int32Array;
  private count = 0;

  constructor(capacity = 256) {
    this.priorities = new Float64Array(capacity);
    this.values = new Int32Array(capacity);
  }

  get size(): number {
    return this.count;
  }

  clear(): void {
    this.count = 0;
  }

  push(priority: number, value: number): void {
    if (this.count === this.values.length) this.grow();
    let i = this.count++;
    const p = this.priorities;
    const v = this.values;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (p[parent]! <= priority) break;
      p[i] = p[parent]!;
      v[i] = v[parent]!;
      i = parent;
    }
    p[i] = priority;
    v[i] = value;
  }

  /** Priority of the top entry; only valid when size > 0. */
  peekPriority(): number {
    return this.priorities[0]!;
  }

  /** Removes the top entry and returns its value; only valid when size > 0. */
  pop(): number {
    const p = this.priorities;
    const v = this.values;
    const top = v[0]!;
    const n = --this.count;
    if (n > 0) {
      const lastP = p[n]!;
      const lastV = v[n]!;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= n) break;
        const r = l + 1;
        const c = r < n && p[r]! < p[l]! ? r : l;
        if (p[c]! >= lastP) break;
        p[i] = p[c]!;
        v[i] = v[c]!;
        i = c;
      }
      p[i] = lastP;
      v[i] = lastV;
    }
    return top;
  }

  private grow(): void {
    const p = new Float64Array(this.priorities.length * 2);
    p.set(this.priorities);
    const v = new Int32Array(this.values.length * 2);
    v.set(this.values);
    this.priorities = p;
    this.values = v;
  }
}
