import { GameState, UnitState } from '../../../model/state';
import { boardOf } from '../../../engine/board';
import { Block } from '../../../engine/movement/context';
import { ResolveContext } from '../../../engine/kit/types';
import { allUnits, cargoOf } from '../../../engine/queries';
import { SideId } from '../../../engine/types';
import { airOps } from '../air-data';
import { airfieldAt, friendlyAirfield, hasAnyTag, standingAt } from '../air-queries';
import { GatorsFeature } from '../feature';
import { GatorsExt, GState, gext } from '../ext';
import { isAircraft, publicOf } from '../queries';

/**
 * GT-6P, Q-GT-31, GT-6Q.4: airfields. A ground unit that stops on an enemy
 * airfield (by moving or being unloaded) with no enemy ground unit next to it
 * captures it; the owner takes it back the same way. A captured airfield
 * becomes usable for its captor once an empty CH-53E has flown in: it is then
 * a friendly airfield (stacking, returning, refuelling, re-arming, GT-6B.5).
 * Debris makes any airfield unusable. ext.airfields holds the captures; the
 * captor's public `airfields` list tells the kernel's stacking rule.
 */
function enemyGroundNext(state: GameState, at: number, side: SideId): boolean {
  const grid = boardOf(state.scenario).grid;
  const tags = airOps(state.scenario).captureTags;
  return allUnits(state).some((u) => u.side !== side && u.loc.at === 'hex' && hasAnyTag(state, u, tags) && grid.distance(grid.indexOf(u.loc.hex), at) === 1);
}

function publicList(state: GameState, side: SideId): string[] {
  const l = state.sides[side]?.public['airfields'];
  return Array.isArray(l) ? l.map(String) : [];
}

function setList(ctx: ResolveContext<GatorsExt>, side: SideId, list: readonly string[]): void {
  ctx.emit(publicOf('SideUpdated', { side, public: { airfields: [...list] } }));
}

/** The scenario.json module that switches these rules on (features.ts MODULES). */
export const AIRFIELDS_MODULE = 'airfield-capture';

/**
 * What a unit that stops on hex `at` does to its airfield (GT-6P.1–6P.3): after a move or an unload
 * (the hooks below), and where a split places a squad (GT-6J.2, squad-split.ts), which then stops there.
 */
export function stopped(ctx: ResolveContext<GatorsExt>, u: UnitState): void {
  const state = ctx.state;
  const at = standingAt(state, u);
  const af = airfieldAt(state, at);
  if (af === null) return;
  const d = airOps(state.scenario);
  const held = gext(state).airfields[af.id];
  const holder = held?.side ?? af.owner;
  if (!isAircraft(state, u) && hasAnyTag(state, u, d.captureTags) && holder !== u.side && !enemyGroundNext(state, at, u.side)) {
    ctx.emit(publicOf('AirfieldCaptured', { airfield: af.id, side: u.side, by: u.id }));
    if (held !== undefined && publicList(state, held.side).includes(af.id))
      setList(ctx, held.side, publicList(state, held.side).filter((x) => x !== af.id));
    return;
  }
  if (isAircraft(state, u) && hasAnyTag(state, u, d.activateTags) && held?.side === u.side && !held.active && cargoOf(state, u.id).length === 0) {
    ctx.emit(publicOf('AirfieldActivated', { airfield: af.id, side: u.side, by: u.id }));
    setList(ctx, u.side, [...publicList(state, u.side), af.id]);
  }
}

/** Aircraft stack only on an airfield their side may use: not one just captured from it, nor one with Debris (Q-GT-31, GT-6Q.4). */
function stackBlock(state: GameState, movers: readonly UnitState[], at: number): Block | null {
  const first = movers[0];
  if (first === undefined || airfieldAt(state, at) === null || !movers.every((m) => isAircraft(state, m))) return null;
  if (friendlyAirfield(state, first.side, at)) return null;
  const ids = new Set(movers.map((m) => m.id));
  const label = boardOf(state.scenario).grid.label(at);
  const others = allUnits(state).some((u) => u.side === first.side && u.loc.at === 'hex' && u.loc.hex === label && !ids.has(u.id));
  if (!others && movers.length < 2) return null;
  const debris = gext(state).debris.includes(label);
  return {
    ruleId: debris ? 'GT-6Q.4' : 'Q-GT-31',
    code: 'movement/airfield_unusable',
    message: `aircraft may not stack on the airfield at ${label}: ${debris ? 'Debris makes it unusable' : 'it is not a usable friendly airfield'}`,
  };
}

function captured(state: GState, data: unknown): GState {
  const d = data as { airfield: string; side: string };
  const owner = state.scenario.map.airfields.find((a) => a.id === d.airfield)?.owner;
  const ext = gext(state);
  const { [d.airfield]: _drop, ...rest } = ext.airfields;
  return { ...state, ext: { ...ext, airfields: d.side === owner ? rest : { ...rest, [d.airfield]: { side: d.side, active: false } } } };
}

function activated(state: GState, data: unknown): GState {
  const d = data as { airfield: string; side: string };
  const ext = gext(state);
  return { ...state, ext: { ...ext, airfields: { ...ext.airfields, [d.airfield]: { side: d.side, active: true } } } };
}

export const airfields: GatorsFeature = {
  id: 'airfields',
  rules: ['GT-6P.1', 'GT-6P.2', 'GT-6P.3', 'Q-GT-31', 'GT-6Q.4'],
  move: { endProblem: stackBlock },
  afterMove: () => (ctx, moved, resume) => {
    if (resume !== undefined) return;
    for (const id of [moved.unit, ...moved.with]) {
      const u = ctx.state.units[id];
      if (u !== undefined && u.loc.at === 'hex') stopped(ctx, u);
    }
  },
  afterUnload: () => (ctx, info, resume) => {
    const u = ctx.state.units[info.unit];
    if (resume === undefined && u !== undefined && u.loc.at === 'hex') stopped(ctx, u);
  },
  events: {
    AirfieldCaptured: (s, e) => captured(s, e.data),
    AirfieldActivated: (s, e) => activated(s, e.data),
  },
};
