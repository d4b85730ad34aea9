import { Args, ID, Int, Resolver, Subscription } from '@nestjs/graphql';
import type { Principal } from '../../auth/auth.types';
import { ApiTokensService } from '../../auth/api-tokens.service';
import { BadInputError } from '../../common/errors';
import { noSuchVersion } from '../../games/games.errors';
import { GamesApiService } from '../games/games-api.service';
import { CurrentPrincipal } from '../http/principal';
import { GameFeed } from './game-feed.service';
import { GameUpdate } from './game-update.model';
import { GameUpdates } from './game-updates';

@Resolver(() => GameUpdate)
export class GameUpdatesResolver {
  constructor(
    private readonly games: GamesApiService,
    private readonly feed: GameFeed,
    private readonly tokens: ApiTokensService,
  ) {}

  @Subscription(() => GameUpdate, {
    description: 'Every change of a game you hold a seat in (or may watch), over graphql-ws, as your side may see it. Completes after the update that ends the game (at once on an ended game with nothing after fromVersion). Refused (NOT_FOUND) for any other game.',
    resolve: (payload: GameUpdate) => payload,
  })
  async gameUpdated(
    @Args('gameId', { type: () => ID, description: 'Game id.' }) gameId: string,
    @Args('fromVersion', { type: () => Int, nullable: true, description: 'Deliver the changes after this version at once: the last version you have, at most the current one (default: only changes after you subscribe).' }) fromVersion: number | null,
    @CurrentPrincipal() { playerId, tokenId }: Principal,
  ): Promise<AsyncIterableIterator<GameUpdate>> {
    const game = await this.games.game(gameId, playerId);
    if (fromVersion != null && (!Number.isInteger(fromVersion) || fromVersion < 0)) {
      throw new BadInputError('request/bad_version', 'fromVersion is a whole number from 0.', { field: 'fromVersion' });
    }
    // A version the game has not reached was read somewhere else: clamped to the current one, the
    // client took the next updates for versions it thought it already had.
    if (fromVersion != null && fromVersion > game.version) throw noSuchVersion('fromVersion', fromVersion, game.version, 'updates');
    const live = () => this.tokens.assertLive(tokenId);
    return GameUpdates.open(this.feed, this.games, gameId, playerId, fromVersion ?? game.version, live);
  }
}
