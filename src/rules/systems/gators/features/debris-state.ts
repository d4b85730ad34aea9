import { GameState } from '../../../model/state';
import { GState, gext } from '../ext';

/**
 * Debris state beyond part 1's list of markers (ext.debris): the hexes whose
 * traps SEALs have cleared (GT-6Q.6) and how many markers have been removed,
 * since markers are never reused (GT-6Q.2). Public: both are on the table.
 */
export type DebrisExt = { readonly cleared: readonly string[]; readonly removed: number };

export const DEBRIS = 'debris';

export function debrisExt(state: GameState): DebrisExt {
  return (gext(state).features[DEBRIS] as DebrisExt | undefined) ?? { cleared: [], removed: 0 };
}

/** Markers used so far, on the map or removed (GT-6Q.2, Q-GT-32: their number is options.debrisMarkers). */
export function debrisUsed(state: GameState): number {
  return gext(state).debris.length + debrisExt(state).removed;
}

export function trapsCleared(state: GameState, hex: string): boolean {
  return debrisExt(state).cleared.includes(hex);
}

function withDebris(state: GState, debris: readonly string[], d: DebrisExt): GState {
  const ext = gext(state);
  return { ...state, ext: { ...ext, debris, features: { ...ext.features, [DEBRIS]: d } } };
}

/** Evolve of DebrisRemoved {hex}: the marker leaves the map for good. */
export function removed(state: GState, data: unknown): GState {
  const hex = (data as { hex: string }).hex;
  const d = debrisExt(state);
  return withDebris(
    state,
    gext(state).debris.filter((h) => h !== hex),
    { cleared: d.cleared.filter((h) => h !== hex), removed: d.removed + 1 },
  );
}

/** Evolve of DebrisTrapsCleared {hex}: infantry may enter safely; vehicles still may not. */
export function cleared(state: GState, data: unknown): GState {
  const hex = (data as { hex: string }).hex;
  const d = debrisExt(state);
  return withDebris(state, gext(state).debris, { ...d, cleared: [...d.cleared, hex] });
}
