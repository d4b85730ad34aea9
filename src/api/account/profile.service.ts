import { Injectable } from '@nestjs/common';
import type { PlayerView } from '../../auth/auth.types';
import { PlayersService } from '../../auth/players.service';
import { NotificationSettingsApi } from '../notifications/notification-settings.service';

/** The caller's name and time zone, for REST and GraphQL alike. */
@Injectable()
export class ProfileApi {
  constructor(
    private readonly players: PlayersService,
    private readonly notifications: NotificationSettingsApi,
  ) {}

  async update(playerId: string, input: { displayName?: string | null; timeZone?: string | null }): Promise<PlayerView> {
    const { player, timeZoneChanged } = await this.players.update(playerId, input);
    // Quiet hours are kept in the player's time zone: mail waiting for them, and a digest for its hour, moves with it.
    if (timeZoneChanged) await this.notifications.timeZoneChanged(playerId);
    return player;
  }
}
