import { Json, JsonObject } from '../model/json';
import { GameState, Location, UnitState } from '../model/state';
import { phaseInfo, timeOfDay } from './phase-machine';
import { hexOf, allUnits } from './queries';
import { PhaseInfo, SideId, Viewer } from './types';
import { isConcealed } from './visibility';
import { TOW_MOVED } from './evolve';

export interface UnitView {
  readonly id: string;
  readonly type: string;
  readonly side: SideId;
  readonly loc: Location;
  readonly flags: JsonObject;
  readonly attrs: JsonObject;
  /** Present on the owner's own concealed units: the marker the others see. */
  readonly hidden?: string;
}

/**
 * What stands for concealed units at a hex: one entry per (hex, marker, side), whatever the number of units.
 * Public: every viewer reads the same list, the owner too, so that it knows what the others see of it.
 */
export interface MarkerView {
  readonly hex: string;
  readonly marker: string;
  readonly side: SideId;
}

export interface GameView {
  readonly viewer: Viewer;
  readonly scenario: string;
  readonly phase: PhaseInfo;
  readonly timeOfDay: string | null;
  readonly units: readonly UnitView[];
  readonly markers: readonly MarkerView[];
  /** The viewing side's own secrets: standing orders, sealed orders, its suspended orders, a reaction it must answer. */
  readonly own: JsonObject | null;
  readonly sides: Readonly<Record<SideId, JsonObject>>;
  readonly ext: Json;
}

/**
 * Exactly what `viewer` may see. A side sees its own units in full and the
 * others' only when not concealed; a concealed enemy unit is reduced to its
 * marker at its hex, a towed gun's at its towers' (cargo of a concealed or enemy
 * carrier to nothing). The markers are the same for every viewer: the owner's
 * own are listed beside its units, as the others see them. The
 * output is built only from what the viewer may know, so it cannot leak.
 */
export function kernelView(state: GameState, viewer: Viewer): GameView {
  const side = viewer.kind === 'side' ? viewer.side : null;
  const all = viewer.kind === 'referee';
  const units: UnitView[] = [];
  const markers = new Map<string, MarkerView>();
  for (const u of allUnits(state)) {
    const mine = all || u.side === side;
    if (mine || !isConcealed(state, u)) units.push(unitView(u, mine));
    const m = markerOf(state, u);
    if (m !== null) markers.set(`${m.hex}|${m.marker}|${m.side}`, m);
  }
  const sides: Record<SideId, JsonObject> = {};
  for (const s of Object.values(state.sides)) sides[s.id] = s.public;
  return {
    viewer,
    scenario: state.scenario.manifest.id,
    phase: phaseInfo(state),
    timeOfDay: timeOfDay(state.scenario, state.phase.turn),
    units,
    markers: [...markers.values()].sort(byHexSideMarker),
    own: all ? refereeSecrets(state) : side === null ? null : ownSecrets(state, side),
    sides,
    ext: state.ext,
  };
}

/**
 * Attributes only the owner reads: when a tower hitched its gun and first moved it. A counter
 * revealed after towing under a "?" would otherwise tell what it did while hidden.
 */
const OWNER_ONLY_ATTRS: readonly string[] = ['towingSince', TOW_MOVED];

/**
 * Flags only the owner reads: that a carrier took cargo aboard this turn. Cargo loaded out of the
 * others' sight (a sealed setup's helicopters on the LPD, GT-4.10) would otherwise show on the
 * carrier; cargo loaded in their sight shows by itself, in its own place and events.
 */
const OWNER_ONLY_FLAGS: readonly string[] = ['loadedCargo'];

function withoutKeys<T>(record: Readonly<Record<string, T>>, keys: readonly string[]): Readonly<Record<string, T>> {
  return keys.some((k) => k in record) ? Object.fromEntries(Object.entries(record).filter(([k]) => !keys.includes(k))) : record;
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const byHexSideMarker = (a: MarkerView, b: MarkerView) => cmp(a.hex, b.hex) || cmp(a.side, b.side) || cmp(a.marker, b.marker);

/**
 * The marker the others see for this unit, or null. A gun hitched to its towers stands in their
 * hex, under a marker of its own (GT-6K, GT-6L.6); cargo shows nothing. Off the board (a box)
 * hexOf is null.
 */
function markerOf(state: GameState, u: UnitState): MarkerView | null {
  const marker = u.hidden?.marker;
  const hex = marker !== undefined && u.loc.at !== 'carried' ? hexOf(state, u) : null;
  return marker !== undefined && hex !== null ? { hex, marker, side: u.side } : null;
}

function unitView(u: UnitState, mine: boolean): UnitView {
  const attrs = mine ? u.attrs : withoutKeys(u.attrs, OWNER_ONLY_ATTRS);
  const flags = mine ? u.flags : withoutKeys(u.flags, OWNER_ONLY_FLAGS);
  const v: UnitView = { id: u.id, type: u.type, side: u.side, loc: u.loc, flags, attrs };
  return mine && u.hidden !== undefined ? { ...v, hidden: u.hidden.marker } : v;
}

function ownSecrets(state: GameState, side: SideId): JsonObject {
  const s = state.sides[side];
  if (s === undefined) return {};
  const p = state.pending;
  const out: Record<string, Json> = { standingOrders: s.secret.standing, sealed: s.secret.sealed, notes: s.secret.notes };
  if (p !== null && p.side === side) out['suspended'] = { phaseId: p.phaseId, orders: p.orders, index: p.index, indexOffset: p.indexOffset };
  if (p !== null && p.request !== null && p.request.side === side)
    out['reaction'] = { kind: p.request.kind, prompt: p.request.prompt, details: p.request.privatePrompt };
  return out;
}

function refereeSecrets(state: GameState): JsonObject {
  const out: Record<string, Json> = {};
  for (const s of Object.values(state.sides)) out[s.id] = ownSecrets(state, s.id);
  return out;
}
