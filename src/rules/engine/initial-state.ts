import { Json, JsonObject } from '../model/json';
import { Scenario } from '../model/scenario';
import { GameState, Location, SideState, UnitState } from '../model/state';

/** Unit ids of one order-of-battle entry (`count` expands to id-1 … id-n). */
export function oobIds(entry: { id: string; count?: number | undefined }): string[] {
  return entry.count === undefined ? [entry.id] : Array.from({ length: entry.count }, (_, k) => `${entry.id}-${k + 1}`);
}

/**
 * The state a GameStarted event creates: every unit of the order of battle at
 * its start location (units to be set up wait in the "setup" box, with their
 * zone in attrs.setupZone), before the first phase.
 */
export function initialState<X extends Json>(scenario: Scenario, ext: X): GameState<X> {
  const units: Record<string, UnitState> = {};
  for (const e of scenario.oob.units) {
    const ids = oobIds(e);
    ids.forEach((id) => {
      let loc: Location;
      const attrs: Record<string, Json> = { ...(e.attrs as unknown as JsonObject) };
      const at = e.at;
      if ('hex' in at) loc = { at: 'hex', hex: at.hex };
      else if ('carrier' in at) loc = { at: 'carried', by: at.carrier };
      else if ('zone' in at) {
        loc = { at: 'box', box: 'setup' };
        attrs['setupZone'] = at.zone;
      } else loc = { at: 'box', box: at.box };
      const u: UnitState = { id, type: e.type, side: e.side, loc, flags: {}, attrs };
      units[id] = e.hidden === undefined ? u : { ...u, hidden: { marker: e.hidden } };
    });
  }
  const sides: Record<string, SideState> = {};
  for (const s of scenario.manifest.sides) sides[s.id] = { id: s.id, secret: { standing: {}, sealed: null, notes: {} }, public: {} };
  return {
    scenario,
    seq: 0,
    phase: { stage: 'setup', turn: 0, index: -1, mode: 'sequential', acting: [], submitted: [] },
    units,
    sides,
    pending: null,
    ext,
  };
}
