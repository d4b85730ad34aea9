import { boardOf } from '../engine/board';
import { SideId } from '../engine/types';
import { GameState, UnitState } from '../model/state';

export interface Twin<S> {
  state: S;
  kind: string;
  swapped: string;
}

/**
 * States `side` cannot tell from this one: two of an opponent's hidden units exchanged, a hidden
 * unit of another of its owner's types under the same marker, one more unit under a marker, the
 * opponents' secrets (standing orders, sealed orders, notes such as the breakdown roll) blanked,
 * a piece of hidden cargo aboard another transport, two opponent counters of one type with their
 * lasting facts (loadouts, fuel) exchanged. Each is kept only when `side`'s view
 * of it is the same as of the state itself.
 */
export function twinsOf<S extends GameState>(state: S, side: SideId, viewOf: (s: S) => string, max: number): Twin<S>[] {
  const grid = boardOf(state.scenario).grid;
  const at = (u: UnitState) => (u.loc.at === 'hex' ? grid.indexOf(u.loc.hex) : -1);
  const own = Object.values(state.units).filter((u) => u.side === side && at(u) >= 0);
  const reach = (u: UnitState) => (at(u) < 0 ? Infinity : Math.min(Infinity, ...own.map((m) => grid.distance(at(m), at(u)))));
  // Those nearest the side's units first: the probes reach them.
  const theirs = Object.values(state.units)
    .filter((u) => u.side !== side)
    .map((u) => ({ u, d: reach(u) }))
    .sort((x, y) => x.d - y.d)
    .map((x) => x.u);
  const hidden = theirs.filter((u) => u.hidden !== undefined);
  const mine = viewOf(state);
  const out: Twin<S>[] = [];
  const tryTwin = (kind: string, units: Record<string, UnitState>, swapped: string, sides = state.sides) => {
    if (out.length >= max) return;
    const twin = { ...state, sides, units: { ...state.units, ...units } } as S;
    if (viewOf(twin) === mine) out.push({ state: twin, kind, swapped });
  };
  const typesOf = (s: SideId) => [...new Set(Object.values(state.units).filter((u) => u.side === s).map((u) => u.type))];
  for (let i = 0; i < hidden.length; i++) {
    const a = hidden[i]!;
    for (const b of hidden.slice(i + 1)) if (a.type !== b.type && !linked(state, a, b)) tryTwin('exchange', { [a.id]: swapped(a, b), [b.id]: swapped(b, a) }, `${a.id} <-> ${b.id}`);
    // One marker may hide any number of units: one more under it (from a hex whose marker stays).
    for (const b of hidden) if (b.id !== a.id && a.loc.at === 'hex' && JSON.stringify(b.loc) !== JSON.stringify(a.loc)) tryTwin('join', { [b.id]: { ...b, loc: a.loc, hidden: a.hidden } }, `${b.id} joins ${a.id}`);
    for (const type of typesOf(a.side)) if (type !== a.type) tryTwin('retype', { [a.id]: { ...a, type } }, `${a.id} as a ${type}`);
  }
  const blank = Object.fromEntries(Object.entries(state.sides).map(([id, s]) => [id, id === side ? s : { ...s, secret: { standing: {}, sealed: null, notes: {} } }]));
  tryTwin('secrets', {}, 'the other sides\' secrets blanked', blank);
  // Cargo the side may not see (rules visibility.enemyCargo): one piece moved to another transport.
  const carriers = theirs.filter((u) => u.loc.at === 'hex');
  for (const c of theirs) {
    if (c.loc.at !== 'carried') continue;
    for (const t of carriers) if (t.id !== c.loc.by && t.id !== c.id) tryTwin('cargo', { [c.id]: { ...c, loc: { at: 'carried', by: t.id } } }, `${c.id} aboard ${t.id}`);
  }
  for (let i = 0; i < theirs.length; i++) {
    const a = theirs[i]!;
    const b = theirs.slice(i + 1).find((x) => x.type === a.type && JSON.stringify(x.attrs) !== JSON.stringify(a.attrs));
    if (b !== undefined) tryTwin('attrs', { [a.id]: { ...a, attrs: b.attrs }, [b.id]: { ...b, attrs: a.attrs } }, `attrs of ${a.id} <-> ${b.id}`);
  }
  return out;
}

/**
 * One holds the other, directly or through its holders (a gun and its truck under their markers):
 * exchanging their places would make a unit hold itself, a state no game reaches.
 */
function linked(state: GameState, a: UnitState, b: UnitState): boolean {
  const holders = (u: UnitState): string[] => {
    const out: string[] = [];
    for (let cur: UnitState | undefined = u, guard = 0; cur !== undefined && guard < 16; guard++) {
      const by: readonly string[] = cur.loc.at === 'carried' ? [cur.loc.by] : cur.loc.at === 'towed' ? cur.loc.by : [];
      out.push(...by);
      cur = by[0] === undefined ? undefined : state.units[by[0]];
    }
    return out;
  };
  return holders(a).includes(b.id) || holders(b).includes(a.id);
}

function swapped(u: UnitState, with_: UnitState): UnitState {
  return { ...u, loc: with_.loc, hidden: with_.hidden, flags: with_.flags };
}

/**
 * The twin with the state's standing orders back, for comparing what orders carried out show.
 * Standing orders are answers given in advance: what they decide shows when carried out, as the
 * same answer given at the time would (and that a question was asked at all is an accepted leak).
 */
export function keepingStanding<S extends GameState>(state: S, t: Twin<S>): Twin<S> {
  if (t.kind !== 'secrets') return t;
  const sides = Object.fromEntries(Object.entries(t.state.sides).map(([id, s]) => [id, { ...s, secret: { ...s.secret, standing: state.sides[id]!.secret.standing } }]));
  return { ...t, state: { ...t.state, sides }, swapped: `${t.swapped} (but the standing orders)` };
}
