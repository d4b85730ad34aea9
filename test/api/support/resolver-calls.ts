import { MagicLinksService } from '../../../src/auth/magic-links.service';
import { PlayersService } from '../../../src/auth/players.service';
import { ApiTokensService } from '../../../src/auth/api-tokens.service';
import { GamesApiService } from '../../../src/api/games/games-api.service';
import { NotificationSettingsApi } from '../../../src/api/notifications/notification-settings.service';
import { GameQueries } from '../../../src/games/queries/game-queries';
import { NotificationEndpointsService } from '../../../src/notifications/preferences/endpoints.service';
import type { ApiApp } from './api-app';

/**
 * Counts calls from resolvers into the services they are thin wrappers of: every resolver
 * calls one of these, so a count that stays at zero means no resolver ran. (Authentication
 * is the middleware's, before GraphQL, so it is not counted.)
 */
export function countResolverCalls(app: ApiApp): { count(): number; restore(): void } {
  const spies: jest.SpyInstance[] = [];
  for (const type of [GamesApiService, NotificationSettingsApi, PlayersService, MagicLinksService, ApiTokensService, GameQueries, NotificationEndpointsService] as const) {
    const instance = app.running.app.get(type as never) as Record<string, unknown>;
    const proto = Object.getPrototypeOf(instance) as object;
    for (const name of Object.getOwnPropertyNames(proto)) {
      if (name === 'constructor' || name === 'authenticate' || typeof (instance[name]) !== 'function') continue;
      spies.push(jest.spyOn(instance as never, name as never));
    }
  }
  return {
    count: () => spies.reduce((n, s) => n + s.mock.calls.length, 0),
    restore: () => spies.forEach((s) => s.mockRestore()),
  };
}
