import { Injectable } from '@nestjs/common';
import { EndpointView, NotificationEndpointsService } from '../../notifications/preferences/endpoints.service';
import { GamesApiService } from '../games/games-api.service';
import { requireSeatIfGiven } from './require-seat';

/**
 * The notifications module's endpoints, for the caller only. An endpoint scoped to a game is
 * checked first, as per-game settings are: the caller must hold a seat in that game.
 */
@Injectable()
export class NotificationEndpointsApi {
  constructor(
    private readonly endpoints: NotificationEndpointsService,
    private readonly games: GamesApiService,
  ) {}

  list(playerId: string): Promise<EndpointView[]> {
    return this.endpoints.listEndpoints(playerId);
  }

  async addWebhook(playerId: string, url: string, gameId: string | null | undefined): Promise<{ endpoint: EndpointView; secret: string }> {
    await requireSeatIfGiven(this.games, gameId, playerId);
    return this.endpoints.addWebhook(playerId, url, gameId ?? null);
  }

  async setDiscordWebhook(playerId: string, url: string | null, gameId: string | null | undefined): Promise<EndpointView | null> {
    await requireSeatIfGiven(this.games, gameId, playerId);
    return this.endpoints.setDiscordWebhook(playerId, url, gameId ?? null);
  }

  rotateWebhookSecret(playerId: string, endpointId: string): Promise<{ endpoint: EndpointView; secret: string }> {
    return this.endpoints.rotateWebhookSecret(playerId, endpointId);
  }

  enable(playerId: string, endpointId: string): Promise<EndpointView> {
    return this.endpoints.enableEndpoint(playerId, endpointId);
  }

  remove(playerId: string, endpointId: string): Promise<void> {
    return this.endpoints.removeEndpoint(playerId, endpointId);
  }
}
