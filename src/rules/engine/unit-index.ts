import { GameState, UnitId, UnitState } from '../model/state';
import { SideId } from './types';
import { RecentWeakMap, YOUNG_GENERATION } from './recent-weak-map';

type Units = GameState['units'];

/**
 * A map read through a small layer of changes over a shared base, so that a
 * derived map costs the changes, not a copy of the whole map.
 */
class Layered<K, V> {
  constructor(
    private readonly base: ReadonlyMap<K, V>,
    private readonly over: ReadonlyMap<K, V | undefined>,
  ) {}

  get(k: K): V | undefined {
    return this.over.has(k) ? this.over.get(k) : this.base.get(k);
  }

  // forEach, not new Map(map) or for-of: no [key, value] pair made per entry (a change per event of a fold).
  with(changes: ReadonlyMap<K, V | undefined>): Layered<K, V> {
    const over = new Map<K, V | undefined>();
    this.over.forEach((v, k) => over.set(k, v));
    changes.forEach((v, k) => over.set(k, v));
    if (over.size <= 16) return new Layered(this.base, over);
    const base = new Map<K, V>();
    this.base.forEach((v, k) => base.set(k, v));
    over.forEach((v, k) => {
      if (v === undefined) base.delete(k);
      else base.set(k, v);
    });
    return new Layered(base, new Map());
  }
}

type Buckets = Layered<string, readonly UnitState[]>;

/**
 * Lookups over one units record that would otherwise scan every unit: the
 * units standing in a hex, aboard a carrier, towed by a tower, each list in
 * record order (the order of Object.values, which every scan used, so that
 * answers are unchanged). Records are never changed, so an index is cached per
 * record; one made by patchUnit from an indexed record is derived from its
 * parent's index in time proportional to the change (replaceUnit).
 */
export interface UnitIndex {
  /** Every unit, in record order. */
  readonly list: readonly UnitState[];
  /** Position of each unit (by id) in `list`; shared by derived indexes (patchUnit never adds or removes a key). */
  readonly pos: ReadonlyMap<UnitId, number>;
  readonly derivable: boolean;
  /** Units standing in a hex themselves, by label. */
  readonly standing: Buckets;
  /** Units carried, by carrier id. */
  readonly carried: Buckets;
  /** Towed units, by each of their towers' ids. */
  readonly towed: Buckets;
  /** Memo of enemyVersion per side. */
  readonly enemyKeys: Map<SideId, object>;
}

const indexes = new RecentWeakMap<Units, UnitIndex>(YOUNG_GENERATION);

export function unitIndex(state: GameState): UnitIndex {
  return indexOf(state.units);
}

function indexOf(units: Units): UnitIndex {
  let x = indexes.get(units);
  if (x === undefined) {
    x = build(units);
    indexes.set(units, x);
  }
  return x;
}

/**
 * An object that stays the same, from one state to the next, for as long as
 * no unit of any side but `side` changes: derived data that depends only on
 * `side`'s enemies (their zones of control, the hexes they hold) is cached
 * under it while `side` moves. A record not made by patchUnit gets new keys.
 */
export function enemyVersion(state: GameState, side: SideId): object {
  const x = unitIndex(state);
  let k = x.enemyKeys.get(side);
  if (k === undefined) {
    k = {};
    x.enemyKeys.set(side, k);
  }
  return k;
}

function build(units: Units): UnitIndex {
  const list = Object.values(units);
  const pos = new Map<UnitId, number>();
  const standing = new Map<string, UnitState[]>();
  const carried = new Map<string, UnitState[]>();
  const towed = new Map<string, UnitState[]>();
  for (let i = 0; i < list.length; i++) {
    const u = list[i]!;
    pos.set(u.id, i);
    const loc = u.loc;
    if (loc.at === 'hex') push(standing, loc.hex, u);
    else if (loc.at === 'carried') push(carried, loc.by, u);
    else if (loc.at === 'towed') for (const t of towedKeys(u)) push(towed, t, u);
  }
  // Derivation needs unique ids (each change checks its own key), and no key that Object.assign would treat as a setter.
  const derivable = pos.size === list.length && !Object.prototype.hasOwnProperty.call(units, '__proto__');
  return { list, pos, derivable, standing: new Layered(standing, new Map()), carried: new Layered(carried, new Map()), towed: new Layered(towed, new Map()), enemyKeys: new Map() };
}

function push(m: Map<string, UnitState[]>, k: string, u: UnitState): void {
  const l = m.get(k);
  if (l === undefined) m.set(k, [u]);
  else l.push(u);
}

const NONE: readonly string[] = [];

/** The keys of the buckets a unit is in, one function per kind: standing by hex, carried by carrier, towed by each tower. */
type KeysOf = (u: UnitState) => readonly string[];
const standingKeys: KeysOf = (u) => (u.loc.at === 'hex' ? [u.loc.hex] : NONE);
const carriedKeys: KeysOf = (u) => (u.loc.at === 'carried' ? [u.loc.by] : NONE);
const towedKeys: KeysOf = (u) => (u.loc.at !== 'towed' ? NONE : u.loc.by.length === 1 ? u.loc.by : [...new Set(u.loc.by)]);

/**
 * `units` with unit `id` replaced by `after` (patchUnit). The new record gets
 * an index derived from that of `units` (built first if need be: a fold is a
 * chain of such records), and is a clone of a private template (see
 * templates). Same keys, same order, same values as `{ ...units, [id]: after }`.
 */
export function replaceUnit(units: Units, id: UnitId, before: UnitState, after: UnitState): Units {
  const x = indexOf(units);
  const p = x.pos.get(id);
  if (!x.derivable || p === undefined || x.list[p] !== before || before.id !== id || after.id !== id) return { ...units, [id]: after };
  let t = templates.get(x.pos);
  if (t === undefined) templates.set(x.pos, (t = { values: { ...units }, of: units, keys: idKeys(units, x.list) }));
  else if (t.of !== units) syncTemplate(t, units, x.list);
  t.values[id] = after;
  const child: Units = { ...t.values };
  t.of = child;
  const list = x.list.slice();
  list[p] = after;
  // An enemy key survives only if the change was to a unit of that same side.
  let enemyKeys = NO_KEYS;
  for (const [side, k] of x.enemyKeys)
    if (before.side === side && after.side === side) {
      if (enemyKeys === NO_KEYS) enemyKeys = new Map();
      enemyKeys.set(side, k);
    }
  indexes.set(child, {
    list,
    pos: x.pos,
    derivable: true,
    standing: rebucket(x.standing, standingKeys, before, after, x.pos),
    carried: rebucket(x.carried, carriedKeys, before, after, x.pos),
    towed: rebucket(x.towed, towedKeys, before, after, x.pos),
    enemyKeys: enemyKeys === NO_KEYS ? new Map() : enemyKeys,
  });
  return child;
}

const NO_KEYS = new Map<SideId, object>();

/**
 * Per key list (an index's `pos`, shared by every record derived from it): a
 * record with those keys that no one else sees, holding the values of `of`,
 * the last record made from it. A fold makes each record from the one before,
 * so the next record is usually one store into the template and a clone of
 * it, which V8 copies whole (a fixed object at one site); copying a record
 * key by key (Object.assign, or a spread of a record itself made by spreading)
 * costs 15-60 ns a key. A record made from any other is first copied in.
 */
interface Template {
  readonly values: Record<UnitId, UnitState>;
  of: Units;
  /** The record's keys in order, when each is the id of its unit (null otherwise). */
  readonly keys: readonly UnitId[] | null;
}

function idKeys(units: Units, list: readonly UnitState[]): readonly UnitId[] | null {
  const keys = Object.keys(units);
  return keys.length === list.length && keys.every((k, p) => list[p]!.id === k) ? keys : null;
}

/**
 * Makes the template hold the values of `units` (resolution folds from another record than
 * the last one validation made). Both records are of the same key list, so only the units
 * at the positions where their indexes' lists differ need storing: a few stores, where
 * copying every key cost 15-60 ns a key.
 */
function syncTemplate(t: Template, units: Units, list: readonly UnitState[]): void {
  const was = t.keys === null ? undefined : indexes.get(t.of);
  if (was === undefined || was.list.length !== list.length) Object.assign(t.values, units);
  else for (let p = 0; p < list.length; p++) if (was.list[p] !== list[p]) t.values[t.keys![p]!] = list[p]!;
  t.of = units;
}
const templates = new RecentWeakMap<ReadonlyMap<UnitId, number>, Template>(YOUNG_GENERATION);

function rebucket(b: Buckets, keysOf: KeysOf, before: UnitState, after: UnitState, pos: ReadonlyMap<UnitId, number>): Buckets {
  const out = keysOf(before);
  const into = keysOf(after);
  if (out.length === 0 && into.length === 0) return b;
  const changes = new Map<string, readonly UnitState[] | undefined>();
  for (const k of out) {
    if (into.includes(k)) continue;
    const rest = (b.get(k) ?? []).filter((u) => u.id !== after.id);
    changes.set(k, rest.length > 0 ? rest : undefined);
  }
  for (const k of into) changes.set(k, withUnit(b.get(k) ?? [], after, pos));
  return b.with(changes);
}

/** The list with `u` in place of the unit with its id, or inserted in record order. */
function withUnit(list: readonly UnitState[], u: UnitState, pos: ReadonlyMap<UnitId, number>): UnitState[] {
  const out = list.slice();
  const at = out.findIndex((x) => x.id === u.id);
  if (at >= 0) {
    out[at] = u;
    return out;
  }
  const p = pos.get(u.id)!;
  let i = out.length;
  while (i > 0 && pos.get(out[i - 1]!.id)! > p) i--;
  out.splice(i, 0, u);
  return out;
}
