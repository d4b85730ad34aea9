import { checkGameId } from '../../notifications/preferences/endpoints.service';
import type { GamesApiService } from '../games/games-api.service';

/**
 * Per-game notification settings and endpoints are for games the caller holds a seat in: a
 * game they cannot see is NOT_FOUND (as everywhere in the API), one they only watch FORBIDDEN.
 * None of this needs the game's system, so it answers while the server lacks it.
 */
export async function requireSeat(games: GamesApiService, gameId: string, playerId: string): Promise<void> {
  await games.requireSide(gameId, playerId);
}

/**
 * The same for a game id that may be left out (null: all the player's games). A malformed id is
 * bad input before it is a game nobody can find, and '' is malformed: taken for none, it changed
 * the player's defaults.
 */
export async function requireSeatIfGiven(games: GamesApiService, gameId: string | null | undefined, playerId: string): Promise<void> {
  if (gameId === null || gameId === undefined) return;
  checkGameId(gameId);
  await requireSeat(games, gameId, playerId);
}
