import { notSeated } from '../../games/games.errors';
import type { GamesApiService } from '../games/games-api.service';

/**
 * Per-game notification settings and endpoints are for games the caller holds a seat in: a
 * game they cannot see is NOT_FOUND (as everywhere in the API), one they only watch FORBIDDEN.
 */
export async function requireSeat(games: GamesApiService, gameId: string, playerId: string): Promise<void> {
  const game = await games.game(gameId, playerId);
  if (!game.mySide) throw notSeated(gameId);
}
