import { Args, ID, Mutation, Parent, Query, ResolveField, Resolver } from '@nestjs/graphql';
import { ApiTokensService } from '../../auth/api-tokens.service';
import { MagicLinksService } from '../../auth/magic-links.service';
import { PlayersService } from '../../auth/players.service';
import { ForbiddenError } from '../../common/errors';
import { connection, ConnectionType, decodeCursor, encodeCursor, isString, pageSize, PageArgs } from '../graphql/pagination';
import { GamesApiService } from '../games/games-api.service';
import { PlayerId } from '../http/principal';
import { DeliveryStatus, NotificationDelivery, NotificationSettings, NotificationSettingsInput } from '../notifications/notification-settings.model';
import { NotificationSettingsApi } from '../notifications/notification-settings.service';
import { ApiToken, IssuedApiToken, MagicLinkRequest, Player, UpdateProfileInput } from './account.model';
import { ProfileApi } from './profile.service';

const ApiTokenConnection = ConnectionType(ApiToken, 'ApiToken', 'API token');
const DeliveryConnection = ConnectionType(NotificationDelivery, 'NotificationDelivery', 'notification delivery');

/** The caller's account: tokens, sign-in links, notification settings and delivery log. */
@Resolver(() => Player)
export class AccountResolver {
  constructor(
    private readonly players: PlayersService,
    private readonly tokens: ApiTokensService,
    private readonly magicLinks: MagicLinksService,
    private readonly notifications: NotificationSettingsApi,
    private readonly games: GamesApiService,
    private readonly profile: ProfileApi,
  ) {}

  @Mutation(() => Player, { description: 'Changes your name or time zone (at least one).' })
  updateProfile(@Args('input', { type: () => UpdateProfileInput, description: 'Your new name, time zone or both.' }) input: UpdateProfileInput, @PlayerId() playerId: string): Promise<Player> {
    return this.profile.update(playerId, input);
  }

  @Query(() => Player, { description: 'The player the API token belongs to.' })
  me(@PlayerId() playerId: string): Promise<Player> {
    return this.players.get(playerId);
  }

  @ResolveField(() => ApiTokenConnection, { description: 'Your API tokens, newest first (revoked ones included).' })
  async apiTokens(@Parent() me: Player, @Args() page: PageArgs, @PlayerId() playerId: string) {
    own(me, playerId);
    const size = pageSize(page.first, this.games.maxPageSize);
    const p = await this.tokens.list(playerId, size, decodeCursor('tokens', page.after, isString));
    return connection(p.items, p.items.map((t) => encodeCursor('tokens', t.id)), p.hasMore);
  }

  @ResolveField(() => NotificationSettings, { description: 'Your notification settings in effect: your defaults, or for one of your games.' })
  notificationSettings(
    @Parent() me: Player,
    @Args('gameId', { type: () => ID, nullable: true, description: 'A game you hold a seat in.' }) gameId: string | null,
    @PlayerId() playerId: string,
  ) {
    own(me, playerId);
    return this.notifications.get(playerId, gameId);
  }

  @ResolveField(() => DeliveryConnection, { description: 'Your notifications\' deliveries, newest first; ask for status DEAD for the dead letters.' })
  async notificationDeliveries(
    @Parent() me: Player,
    @Args('status', { type: () => [DeliveryStatus], nullable: true, description: 'Only these statuses.' }) status: DeliveryStatus[] | null,
    @Args('gameId', { type: () => ID, nullable: true, description: 'Only about this game (one you hold a seat in).' }) gameId: string | null,
    @Args() page: PageArgs,
    @PlayerId() playerId: string,
  ) {
    own(me, playerId);
    const p = await this.notifications.list(playerId, status, gameId, page.first, page.after);
    return connection(p.items, p.cursors, p.hasMore);
  }

  @Mutation(() => IssuedApiToken, { description: 'Makes a new API token. The token is in this answer only.' })
  createApiToken(@Args('name', { description: 'Your label for it (1-100 characters).' }) name: string, @PlayerId() playerId: string) {
    return this.tokens.issue(playerId, name);
  }

  @Mutation(() => ApiToken, { description: 'Revokes one of your API tokens, at once and for good.' })
  revokeApiToken(@Args('id', { type: () => ID, description: 'Token id.' }) id: string, @PlayerId() playerId: string) {
    return this.tokens.revoke(playerId, id);
  }

  @Mutation(() => MagicLinkRequest, { description: 'Mails a sign-in link (single use, short-lived). Creates the account on first use. No token needed.' })
  async requestMagicLink(
    @Args('email', { description: 'Your email address.' }) email: string,
    @Args('displayName', { type: () => String, nullable: true, description: 'Your name for other players, 1-60 characters (new accounts; default: "Player" and six random characters, never a part of your address).' }) displayName: string | null,
    @Args('timeZone', { type: () => String, nullable: true, description: 'IANA time zone (new accounts; default UTC).' }) timeZone: string | null,
  ): Promise<MagicLinkRequest> {
    const r = await this.magicLinks.request({ email, displayName: displayName ?? undefined, timeZone: timeZone ?? undefined });
    return { sent: true, expiresAt: r.expiresAt };
  }

  @Mutation(() => IssuedApiToken, { description: 'Trades a sign-in link\'s code for a new API token. Works once. No token needed.' })
  redeemMagicLink(
    @Args('token', { description: 'The code from the sign-in mail (fpml_...).' }) token: string,
    @Args('tokenName', { type: () => String, nullable: true, description: 'A label for the new API token (1-100 characters).' }) tokenName: string | null,
  ) {
    return this.magicLinks.redeem(token, tokenName ?? undefined);
  }

  @Mutation(() => NotificationSettings, { description: 'Changes your default notification settings, or (with gameId) those for one of your games.' })
  updateNotificationSettings(
    @Args('input', { description: 'The change.' }) input: NotificationSettingsInput,
    @Args('gameId', { type: () => ID, nullable: true, description: 'A game you hold a seat in.' }) gameId: string | null,
    @PlayerId() playerId: string,
  ) {
    return this.notifications.update(playerId, input, gameId);
  }

  @Mutation(() => NotificationSettings, { description: 'Drops your overrides for a game: your defaults apply to it again.' })
  clearGameNotificationSettings(@Args('gameId', { type: () => ID, description: 'A game you hold a seat in.' }) gameId: string, @PlayerId() playerId: string) {
    return this.notifications.clearGame(playerId, gameId);
  }

  @Mutation(() => NotificationDelivery, { description: 'Sends a dead-lettered delivery again, with a fresh retry period. Refused (notifications/outdated) for a call to a turn the game has gone past.' })
  redeliverNotification(@Args('id', { type: () => ID, description: 'Delivery id.' }) id: string, @PlayerId() playerId: string) {
    return this.notifications.redeliver(playerId, id);
  }
}

/** A field of `me` is only ever read by its owner; the check holds even if Player is reached another way. */
export function own(me: Player, playerId: string): void {
  if (me.id !== playerId) throw new ForbiddenError('auth/not_yours', 'That account is not yours.');
}
