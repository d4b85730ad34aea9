import type { SideId, Viewer } from '../rules/engine/types';
import type { GameEnvelope } from './game-envelope';
import { gameNotFound, notSeated } from './games.errors';

/** The side a player holds in a game, or null. */
export function sideOf(state: GameEnvelope, playerId: string): SideId | null {
  for (const [side, holder] of Object.entries(state.seats)) if (holder === playerId) return side;
  return null;
}

/** The player's side; someone without a seat learns the game exists only if it admits spectators. */
export function requireSide(state: GameEnvelope, playerId: string): SideId {
  const side = sideOf(state, playerId);
  if (side) return side;
  throw state.options.spectators || state.createdBy === playerId ? notSeated(state.id) : gameNotFound(state.id);
}

/**
 * How a player may look at a game: as their side; as a spectator when the game allows
 * spectators, or when they organised it without taking a seat (they invite its players); once
 * the game has ended, everyone who may see it sees everything. Anyone else learns nothing, not
 * even that the game exists. `asPlayed`: as the game was seen while it ran, even if it has ended
 * since (a subscription update built before the end is read after it).
 */
export function viewerFor(state: GameEnvelope, playerId: string, asPlayed = false): Viewer {
  const side = sideOf(state, playerId);
  const watcher = state.options.spectators || state.createdBy === playerId;
  if (state.status === 'finished' && !asPlayed && (side || watcher)) return { kind: 'referee' };
  if (side) return { kind: 'side', side };
  if (watcher) return { kind: 'spectator' };
  throw gameNotFound(state.id);
}
