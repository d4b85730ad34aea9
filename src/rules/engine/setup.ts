import { GameState, UnitState } from '../model/state';
import { Board, boardOf, isOnMap } from './board';
import { hasTag, hexOf, mediumAt, typeOf, allUnits } from './queries';
import { Violation } from './types';
import { unitViolation, violation } from './violation';
import { assertNever } from './assert-never';

/** Whether the unit is in the setup box, still to be placed. */
export function waitingForSetup(u: UnitState): boolean {
  return u.loc.at === 'box' && u.loc.box === 'setup';
}

/** Whether hex i satisfies a setup zone of setup.json (every predicate given must hold). */
export function inZone(state: GameState, board: Board, zoneId: string, i: number): boolean {
  const z = state.scenario.setup.zones[zoneId];
  if (z === undefined || !isOnMap(board, i)) return false;
  const label = board.grid.label(i);
  if (z.hexes !== undefined && !z.hexes.includes(label)) return false;
  const terrain = board.terrainIds[board.terrain[i]!]!;
  if (z.terrain !== undefined && !z.terrain.includes(terrain)) return false;
  if (z.medium !== undefined && mediumAt(board, i) !== z.medium) return false;
  const has = (o: string) => {
    const b = board.overlayIds.indexOf(o);
    return b >= 0 && (board.overlays[i]! & (1 << b)) !== 0;
  };
  if (z.overlays !== undefined && !z.overlays.some(has)) return false;
  if (z.excludeOverlays !== undefined && z.excludeOverlays.some(has)) return false;
  const around = [0, 1, 2, 3, 4, 5].map((d) => board.grid.neighbour(i, d)).filter((n) => isOnMap(board, n));
  if (z.adjacentToMedium !== undefined && !around.some((n) => mediumAt(board, n) === z.adjacentToMedium)) return false;
  if (z.notAdjacentToTerrain !== undefined && around.some((n) => z.notAdjacentToTerrain!.includes(board.terrainIds[board.terrain[n]!]!))) return false;
  return true;
}

/**
 * Checks that apply to a side's whole setup once its placements are projected:
 * every unit waiting in the setup box placed, the concealment markers within
 * their number (GT-4.3), and setup.json's constraints (GT-4.14).
 */
export function setupViolations(after: GameState, side: string): Violation[] {
  const s = after.scenario;
  const board = boardOf(s);
  const out: Violation[] = [];
  const mine = allUnits(after).filter((u) => u.side === side);
  for (const u of mine)
    if (waitingForSetup(u)) out.push(unitViolation(s.setup.zones[String(u.attrs['setupZone'])]?.ruleId ?? 'SETUP', 'setup/unplaced', `${u.id} has not been placed`, u.id));
  const markers = s.setup.hiddenMarkers[side];
  const hidden = mine.filter((u) => u.hidden !== undefined).length;
  if (markers !== undefined && hidden > markers.count)
    out.push(violation(markers.ruleId, 'setup/too_many_markers', `${hidden} units hidden under "${markers.marker}", only ${markers.count} markers`, null));
  for (const c of s.setup.constraints) {
    switch (c.kind) {
      case 'max-distance': {
        const a = after.units[c.unit];
        const b = after.units[c.from];
        if (a === undefined || b === undefined || a.side !== side) break;
        const ha = hexOf(after, a);
        const hb = hexOf(after, b);
        if (ha !== null && hb !== null && board.grid.distance(board.grid.indexOf(ha), board.grid.indexOf(hb)) > c.distance)
          out.push(unitViolation(c.ruleId, 'setup/too_far', `${c.unit} must be within ${c.distance} hexes of ${c.from}`, c.unit));
        break;
      }
      case 'tags-in-zone': {
        if (c.side !== side) break;
        for (const u of mine) {
          if (u.loc.at !== 'hex' || !hasTag(typeOf(after, u), c.tags)) continue;
          if (!inZone(after, board, c.zone, board.grid.indexOf(u.loc.hex)))
            out.push(unitViolation(c.ruleId, 'setup/outside_zone', `${u.id} must be set up in zone ${c.zone}`, u.id));
        }
        break;
      }
      default:
        assertNever(c, 'setup constraint');
    }
  }
  return out;
}
