/**
 * A WeakMap for keys that die young (units records, states), in two generations: entries go
 * into a fresh table, which becomes the previous one after `limit` insertions, when the one
 * before it is dropped. A read that finds an entry in the previous table carries it over, so
 * an entry in use stays; one neither written nor read for two generations is found no more and
 * is derived again, as for a key never seen. Only caches may use it: what they hold never
 * changes an answer.
 *
 * Why: V8's scavenger keeps the values of a WeakMap whose table has reached the old generation
 * alive while their young keys are alive or not, so that everything a fold made (records,
 * states, and through the memos the next states: a transition names the next state) was
 * promoted at the next scavenge, and only a full collection found it dead: the 30-move
 * benchmark phase promoted about 1.7 MB per scavenge, and each insertion into the grown table
 * cost several tenths of a microsecond. A table dropped before it survives two scavenges
 * stays young and is collected with its dead entries (about 0.2 MB promoted per scavenge).
 */
export class RecentWeakMap<K extends object, V> {
  private current = new WeakMap<K, V>();
  private previous = new WeakMap<K, V>();
  private count = 0;

  constructor(private readonly limit: number) {}

  get(key: K): V | undefined {
    const v = this.current.get(key);
    if (v !== undefined) return v;
    const old = this.previous.get(key);
    if (old !== undefined) this.set(key, old);
    return old;
  }

  set(key: K, value: V): void {
    this.current.set(key, value);
    if (++this.count >= this.limit) {
      this.previous = this.current;
      this.current = new WeakMap();
      this.count = 0;
    }
  }
}

/**
 * Insertions per generation for the per-state and per-record memos. A 30-move phase makes
 * about 35 records and states, and the benchmark scavenges every 300-500 insertions: with 64,
 * a table lives at most 128 insertions, and an entry read within 64 insertions of its last
 * use is kept (a submission's resolution reads the states its validation made). A
 * submission of more than about 64 orders may outlive the memos of its first orders: it is
 * then resolved without them, as slowly as before they existed, to the same events.
 */
export const YOUNG_GENERATION = 64;
