import { Args, ID, Mutation, Parent, ResolveField, Resolver } from '@nestjs/graphql';
import { EndpointView, NotificationEndpointsService } from '../../notifications/preferences/endpoints.service';
import type { TargetKind } from '../../notifications/security/target-url';
import { own } from '../account/account.resolver';
import { Player } from '../account/account.model';
import { PlayerId } from '../http/principal';
import { NotificationEndpoint, NotificationEndpointKind, WebhookWithSecret } from './notification-endpoint.model';

const KIND: Record<TargetKind, NotificationEndpointKind> = { webhook: NotificationEndpointKind.WEBHOOK, discord: NotificationEndpointKind.DISCORD };

const toEndpoint = (e: EndpointView): NotificationEndpoint => ({ ...e, kind: KIND[e.kind] });

/**
 * The caller's webhook endpoints and Discord webhook (the notifications module's
 * NotificationEndpointsService). Every call is about the caller's own endpoints: another
 * player's endpoint id is NOT_FOUND, and URLs are checked against SSRF by the module.
 */
@Resolver(() => Player)
export class NotificationEndpointsResolver {
  constructor(private readonly endpoints: NotificationEndpointsService) {}

  @ResolveField(() => [NotificationEndpoint], { description: 'Your webhook endpoints and Discord webhook, oldest first (disabled ones included, with the reason).' })
  async notificationEndpoints(@Parent() me: Player, @PlayerId() playerId: string): Promise<NotificationEndpoint[]> {
    own(me, playerId);
    return (await this.endpoints.listEndpoints(playerId)).map(toEndpoint);
  }

  @Mutation(() => WebhookWithSecret, { description: 'Adds a webhook endpoint (at most five). The answer holds its signing secret, shown this once.' })
  async addWebhookEndpoint(
    @Args('url', { description: 'An http(s) URL without credentials; private, loopback and link-local addresses are refused.' }) url: string,
    @PlayerId() playerId: string,
  ): Promise<WebhookWithSecret> {
    const added = await this.endpoints.addWebhook(playerId, url);
    return { endpoint: toEndpoint(added.endpoint), secret: added.secret };
  }

  @Mutation(() => WebhookWithSecret, {
    description: 'Gives one of your webhooks a new signing secret, shown this once. The old secret keeps signing beside it until endpoint.previousSecretValidUntil (the grace period).',
  })
  async rotateWebhookSecret(@Args('id', { type: () => ID, description: 'Endpoint id (a webhook).' }) id: string, @PlayerId() playerId: string): Promise<WebhookWithSecret> {
    const rotated = await this.endpoints.rotateWebhookSecret(playerId, id);
    return { endpoint: toEndpoint(rotated.endpoint), secret: rotated.secret };
  }

  @Mutation(() => NotificationEndpoint, { nullable: true, description: 'Sets your Discord webhook (replacing the one you had), or with url null removes it. Returns the new endpoint, or null when removed.' })
  async setDiscordWebhook(
    @Args('url', { type: () => String, nullable: true, description: 'https://discord.com/api/webhooks/<id>/<token>, or null to remove it.' }) url: string | null,
    @PlayerId() playerId: string,
  ): Promise<NotificationEndpoint | null> {
    const set = await this.endpoints.setDiscordWebhook(playerId, url);
    return set && toEndpoint(set);
  }

  @Mutation(() => NotificationEndpoint, { description: 'Turns a disabled endpoint back on, after checking its URL again.' })
  async enableNotificationEndpoint(@Args('id', { type: () => ID, description: 'Endpoint id.' }) id: string, @PlayerId() playerId: string): Promise<NotificationEndpoint> {
    return toEndpoint(await this.endpoints.enableEndpoint(playerId, id));
  }

  @Mutation(() => ID, { description: 'Removes one of your endpoints for good (a webhook\'s secret goes with it). Returns its id.' })
  async removeNotificationEndpoint(@Args('id', { type: () => ID, description: 'Endpoint id.' }) id: string, @PlayerId() playerId: string): Promise<string> {
    await this.endpoints.removeEndpoint(playerId, id);
    return id;
  }
}
