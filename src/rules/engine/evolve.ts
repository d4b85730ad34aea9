import { Json, JsonObject } from '../model/json';
import { allUnits } from './queries';
import { GameState, Location, SideState, UnitState } from '../model/state';
import { assertNever } from './assert-never';
import { EventBody, KernelEvent, SECRETS_APPLIED, SecretsApplied, isKernelEvent } from './events';
import { initialState } from './initial-state';
import { phaseDefAt } from './phase-machine';
import { rememberTransition, takeTransition } from './transitions';
import { shareMemos } from './state-memo';
import { replaceUnit } from './unit-index';

/** A system's handler for its own event types; it must return a new state, never mutate. */
export type SystemEvolve<X extends Json> = (state: GameState<X>, event: EventBody) => GameState<X>;

/**
 * The only state transition. Kernel events are handled here; any other type
 * goes to the system. Never mutates: changed parts are copied, the rest shared.
 */
export function evolve<X extends Json>(state: GameState<X> | undefined, event: EventBody, system?: SystemEvolve<X>): GameState<X> {
  if (state === undefined) {
    if (event.type !== 'GameStarted') throw new Error(`the first event must be GameStarted, got ${event.type}`);
    const d = event.data as { scenario: GameState['scenario']; ext: X };
    return initialState(d.scenario, d.ext);
  }
  if (event.type === SECRETS_APPLIED) {
    const folded = (event.data as SecretsApplied).events.reduce<GameState<X>>((s, e) => evolve(s, e, system), state);
    return withSeq(folded, state.seq + 1);
  }
  const known = takeTransition(state as GameState<Json>, event, system);
  if (known !== undefined) return known.seq === state.seq + 1 ? (known as GameState<X>) : withSeq(known as GameState<X>, state.seq + 1);
  const next = isKernelEvent(event) ? evolveKernel(state, event) : system !== undefined ? system(state, event) : unknownEvent(event);
  if (next === state) return withSeq(state, state.seq + 1);
  return { ...next, seq: state.seq + 1 };
}

/**
 * The state with another seq, remembering what `state` remembers (state-memo.ts). An event that
 * changes nothing but seq (an attack's result when no unit is hit) would otherwise leave
 * resolution off the states validation made, so that every later order was checked again and
 * every later event folded again; with the memos, the next step is the one validation took
 * from `state`, handed back with this seq in turn.
 */
function withSeq<X extends Json>(state: GameState<X>, seq: number): GameState<X> {
  const out = { ...state, seq };
  shareMemos(state, out);
  return out;
}

/**
 * evolve, remembering the step (transitions.ts): resolution and validation
 * fold with it, so that a later fold of the same event into the same state
 * returns the state already made.
 */
export function evolveRemembered<X extends Json>(state: GameState<X>, event: EventBody, system?: SystemEvolve<X>): GameState<X> {
  const next = evolve(state, event, system);
  rememberTransition(state as GameState<Json>, event, system, next as GameState<Json>);
  return next;
}

function unknownEvent(e: EventBody): never {
  throw new Error(`no system handles event type ${e.type}`);
}

function evolveKernel<X extends Json>(s: GameState<X>, e: KernelEvent): GameState<X> {
  switch (e.type) {
    case 'GameStarted':
      throw new Error('GameStarted may only be the first event');
    case 'PhaseAdvanced': {
      const d = e.data;
      const newTurn = d.turn !== s.phase.turn;
      const def = phaseDefAt(s.scenario, d.stage, d.index);
      const clear = def?.clearsFlags ?? [];
      const units = newTurn || clear.length > 0 ? mapUnits(s, (u) => ({ ...u, flags: newTurn ? {} : omit(u.flags, clear) })) : s.units;
      const sides = mapSides(s, (x) => ({ ...x, secret: { ...x.secret, sealed: null } }));
      return { ...s, units, sides, phase: { stage: d.stage, turn: d.turn, index: d.index, mode: d.mode, acting: d.acting, submitted: [] } };
    }
    case 'OrdersSealed': {
      const d = e.data;
      const sides = patchSide(s, d.side, (x) => ({ ...x, secret: { ...x.secret, sealed: d.orders } }));
      return {
        ...s,
        sides,
        phase: { ...s.phase, acting: s.phase.acting.filter((a) => a !== d.side), submitted: [...s.phase.submitted, d.side] },
      };
    }
    case 'StandingOrdersSet':
      return { ...s, sides: patchSide(s, e.data.side, (x) => ({ ...x, secret: { ...x.secret, standing: e.data.orders } })) };
    case 'UnitPlaced': {
      const d = e.data;
      const loc: Location = d.carrier !== undefined ? { at: 'carried', by: d.carrier } : { at: 'hex', hex: d.hex! };
      return patchUnit(s, d.unit, (u) => withHidden({ ...u, loc }, d.hidden));
    }
    case 'UnitMoved': {
      const d = e.data;
      const to = d.path[d.path.length - 1]!;
      let out = s;
      for (const id of [d.unit, ...(d.with ?? [])])
        out = patchUnit(out, id, (u) => ({ ...u, loc: { at: 'hex', hex: to }, flags: { ...u.flags, moved: true }, attrs: towMoved(u, s.phase.turn) }));
      return out;
    }
    case 'UnitLoaded': {
      const d = e.data;
      if (d.returned === true) return patchUnit(s, d.unit, (u) => ({ ...u, loc: { at: 'carried', by: d.carrier } }));
      const out = patchUnit(s, d.unit, (u) => ({ ...u, loc: { at: 'carried', by: d.carrier }, flags: { ...u.flags, loaded: true } }));
      return patchUnit(out, d.carrier, (u) => ({ ...u, flags: { ...u.flags, loadedCargo: true } }));
    }
    case 'UnitUnloaded':
      return patchUnit(s, e.data.unit, (u) => ({ ...u, loc: { at: 'hex', hex: e.data.hex }, flags: { ...u.flags, unloaded: true } }));
    case 'UnitHitched': {
      const d = e.data;
      let out = patchUnit(s, d.unit, (u) => ({ ...u, loc: { at: 'towed', by: d.towers }, flags: { ...u.flags, towed: true } }));
      for (const t of d.towers) out = patchUnit(out, t, (u) => ({ ...u, flags: { ...u.flags, hitched: true }, attrs: { ...omit(u.attrs, [TOW_MOVED]), towingSince: s.phase.turn } }));
      return out;
    }
    case 'UnitUnhitched': {
      const d = e.data;
      const gun = s.units[d.unit];
      let out = patchUnit(s, d.unit, (u) => ({ ...u, loc: { at: 'hex', hex: d.hex }, flags: { ...u.flags, unhitched: true } }));
      if (gun?.loc.at === 'towed')
        for (const t of gun.loc.by) out = patchUnit(out, t, (u) => ({ ...u, flags: { ...u.flags, unhitched: true }, attrs: omit(u.attrs, ['towingSince', TOW_MOVED]) }));
      return out;
    }
    case 'UnitMarked':
      return mark(s, e.data);
    case 'UnitsMarked':
      return e.data.marks.reduce<GameState<X>>(mark, s);
    case 'UnitRevealed':
      return patchUnit(s, e.data.unit, (u) => withHidden(u, undefined));
    case 'UnitConcealed':
      return patchUnit(s, e.data.unit, (u) => withHidden(u, e.data.marker));
    case 'UnitRetreated': {
      const d = e.data;
      const to = d.path[d.path.length - 1]!;
      let out = s;
      for (const id of [d.unit, ...(d.with ?? [])]) out = patchUnit(out, id, (u) => ({ ...u, loc: { at: 'hex', hex: to }, flags: { ...u.flags, retreated: true } }));
      return out;
    }
    case 'UnitEliminated': {
      const d = e.data;
      const victim = s.units[d.unit];
      const hex = victim?.loc.at === 'hex' ? victim.loc.hex : null;
      let out = s;
      for (const id of [d.unit, ...d.aboard]) out = patchUnit(out, id, (u) => ({ ...withHidden(u, undefined), loc: { at: 'eliminated' } }));
      // A gun towed by a destroyed tower is left standing where the tower was.
      for (const u of allUnits(out)) {
        if (u.loc.at === 'towed' && u.loc.by.includes(d.unit)) {
          const by = u.loc.by.filter((t) => t !== d.unit);
          out = patchUnit(out, u.id, (g) => ({ ...g, loc: by.length > 0 ? { at: 'towed', by } : hex !== null ? { at: 'hex', hex } : { at: 'eliminated' } }));
        }
      }
      return out;
    }
    case 'SideUpdated': {
      const d = e.data;
      return {
        ...s,
        sides: patchSide(s, d.side, (x) => ({
          ...x,
          public: d.public === undefined ? x.public : { ...x.public, ...d.public },
          secret: d.notes === undefined ? x.secret : { ...x.secret, notes: { ...x.secret.notes, ...d.notes } },
        })),
      };
    }
    case 'ResolutionSuspended':
      return { ...s, pending: { ...e.data.pending, request: null } };
    case 'ReactionRequested': {
      const r = e.data.request;
      if (s.pending === null) throw new Error('ReactionRequested without a suspended resolution');
      return { ...s, pending: { ...s.pending, request: r }, phase: { ...s.phase, mode: 'reaction', acting: [r.side] } };
    }
    case 'ReactionAnswered':
    case 'OrderCancelled':
    case 'AttackResolved':
    case 'AttackCancelled':
      return s;
    case 'ResolutionResumed':
      return { ...s, pending: null, phase: { ...s.phase, mode: 'sequential', acting: [e.data.side] } };
    case 'GameEnded':
      return {
        ...s,
        pending: null,
        phase: { ...s.phase, stage: 'ended', mode: 'ended', acting: [], submitted: [], result: { winner: e.data.winner, reason: e.data.reason } },
      };
    default:
      return assertNever(e, 'kernel event');
  }
}

function mapUnits<X extends Json>(s: GameState<X>, f: (u: UnitState) => UnitState): GameState<X>['units'] {
  const out: Record<string, UnitState> = {};
  for (const [id, u] of Object.entries(s.units)) out[id] = f(u);
  return out;
}

function mapSides<X extends Json>(s: GameState<X>, f: (x: SideState) => SideState): GameState<X>['sides'] {
  const out: Record<string, SideState> = {};
  for (const [id, x] of Object.entries(s.sides)) out[id] = f(x);
  return out;
}

function patchSide<X extends Json>(s: GameState<X>, side: string, f: (x: SideState) => SideState): GameState<X>['sides'] {
  const x = s.sides[side];
  if (x === undefined) throw new Error(`unknown side "${side}"`);
  return { ...s.sides, [side]: f(x) };
}

export function patchUnit<X extends Json>(s: GameState<X>, id: string, f: (u: UnitState) => UnitState): GameState<X> {
  const u = s.units[id];
  if (u === undefined) throw new Error(`unknown unit "${id}"`);
  return { ...s, units: replaceUnit(s.units, id, u, f(u)) };
}

function withHidden(u: UnitState, marker: string | undefined): UnitState {
  const { hidden: _drop, ...rest } = u;
  return marker === undefined ? rest : { ...rest, hidden: { marker } };
}

/** The turn of a tower's first move with its gun (GT-6K.2: the first turn of towing, when it loses a movement point). */
export const TOW_MOVED = 'towingMovedIn';

function towMoved(u: UnitState, turn: number): JsonObject {
  return typeof u.attrs['towingSince'] === 'number' && u.attrs[TOW_MOVED] === undefined ? { ...u.attrs, [TOW_MOVED]: turn } : u.attrs;
}

function omit(o: JsonObject, keys: readonly string[]): JsonObject {
  if (!keys.some((k) => k in o)) return o;
  const out: Record<string, Json> = {};
  for (const [k, v] of Object.entries(o)) if (!keys.includes(k)) out[k] = v;
  return out;
}

function mark<X extends Json>(s: GameState<X>, d: { unit: string; flags?: JsonObject; attrs?: JsonObject }): GameState<X> {
  return patchUnit(s, d.unit, (u) => ({
    ...u,
    flags: d.flags === undefined ? u.flags : { ...u.flags, ...d.flags },
    attrs: d.attrs === undefined ? u.attrs : dropNulls({ ...u.attrs, ...d.attrs }),
  }));
}

function dropNulls(o: Record<string, Json>): JsonObject {
  const out: Record<string, Json> = {};
  for (const [k, v] of Object.entries(o)) if (v !== null) out[k] = v;
  return out;
}
