import { Args, ID, Mutation, Parent, ResolveField, Resolver } from '@nestjs/graphql';
import type { EndpointView } from '../../notifications/preferences/endpoints.service';
import type { TargetKind } from '../../notifications/security/target-url';
import { own } from '../account/account.resolver';
import { Player } from '../account/account.model';
import { PlayerId } from '../http/principal';
import { NotificationEndpointsApi } from './notification-endpoints-api.service';
import { NotificationEndpoint, NotificationEndpointKind, WebhookWithSecret } from './notification-endpoint.model';

const KIND: Record<TargetKind, NotificationEndpointKind> = { webhook: NotificationEndpointKind.WEBHOOK, discord: NotificationEndpointKind.DISCORD };

const toEndpoint = (e: EndpointView): NotificationEndpoint => ({ ...e, kind: KIND[e.kind] });

const GAME_SCOPE = 'Only for this game (one you hold a seat in): its notifications go here instead of to your all-games endpoints of the same kind. Leave out (or null) for all your games.';

/**
 * The caller's webhook endpoints and Discord webhooks, each for all their games or for one
 * (NotificationEndpointsApi over the notifications module). Every call is about the caller's
 * own endpoints: another player's endpoint id is NOT_FOUND, and URLs are checked against SSRF
 * by the module.
 */
@Resolver(() => Player)
export class NotificationEndpointsResolver {
  constructor(private readonly endpoints: NotificationEndpointsApi) {}

  @ResolveField(() => [NotificationEndpoint], { description: 'Your webhook endpoints and Discord webhooks, each with its game scope, oldest first (disabled ones included, with the reason).' })
  async notificationEndpoints(@Parent() me: Player, @PlayerId() playerId: string): Promise<NotificationEndpoint[]> {
    own(me, playerId);
    return (await this.endpoints.list(playerId)).map(toEndpoint);
  }

  @Mutation(() => WebhookWithSecret, {
    description: 'Adds a webhook endpoint, for all your games or for one (at most five for each). The answer holds its signing secret, shown this once.',
  })
  async addWebhookEndpoint(
    @Args('url', { description: 'An http(s) URL without credentials; private, loopback and link-local addresses are refused.' }) url: string,
    @Args('gameId', { type: () => ID, nullable: true, description: GAME_SCOPE }) gameId: string | null,
    @PlayerId() playerId: string,
  ): Promise<WebhookWithSecret> {
    const added = await this.endpoints.addWebhook(playerId, url, gameId);
    return { endpoint: toEndpoint(added.endpoint), secret: added.secret };
  }

  @Mutation(() => WebhookWithSecret, {
    description: 'Gives one of your webhooks a new signing secret, shown this once. The old secret keeps signing beside it until endpoint.previousSecretValidUntil (the grace period).',
  })
  async rotateWebhookSecret(@Args('id', { type: () => ID, description: 'Endpoint id (a webhook).' }) id: string, @PlayerId() playerId: string): Promise<WebhookWithSecret> {
    const rotated = await this.endpoints.rotateWebhookSecret(playerId, id);
    return { endpoint: toEndpoint(rotated.endpoint), secret: rotated.secret };
  }

  @Mutation(() => NotificationEndpoint, {
    nullable: true,
    description:
      'Sets your Discord webhook for all your games, or for one game (replacing the one that scope had), or with url null removes it. Other scopes keep theirs. Returns the new endpoint, or null when removed.',
  })
  async setDiscordWebhook(
    @Args('url', { type: () => String, nullable: true, description: 'https://discord.com/api/webhooks/<id>/<token>, or null to remove it.' }) url: string | null,
    @Args('gameId', { type: () => ID, nullable: true, description: GAME_SCOPE }) gameId: string | null,
    @PlayerId() playerId: string,
  ): Promise<NotificationEndpoint | null> {
    const set = await this.endpoints.setDiscordWebhook(playerId, url, gameId);
    return set && toEndpoint(set);
  }

  @Mutation(() => NotificationEndpoint, { description: 'Turns a disabled endpoint back on, after checking its URL again.' })
  async enableNotificationEndpoint(@Args('id', { type: () => ID, description: 'Endpoint id.' }) id: string, @PlayerId() playerId: string): Promise<NotificationEndpoint> {
    return toEndpoint(await this.endpoints.enable(playerId, id));
  }

  @Mutation(() => ID, {
    description: 'Removes one of your endpoints for good (a webhook\'s secret goes with it); a game whose own endpoint it was falls back to your all-games endpoints of that kind. Returns its id.',
  })
  async removeNotificationEndpoint(@Args('id', { type: () => ID, description: 'Endpoint id.' }) id: string, @PlayerId() playerId: string): Promise<string> {
    await this.endpoints.remove(playerId, id);
    return id;
  }
}
