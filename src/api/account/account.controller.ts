import { Body, Controller, Delete, Get, Header, HttpCode, Param, Patch, Post, Query, UsePipes } from '@nestjs/common';
import { ApiAcceptedResponse, ApiBadRequestResponse, ApiCreatedResponse, ApiForbiddenResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiProduces, ApiServiceUnavailableResponse, ApiTags, ApiTooManyRequestsResponse, ApiUnauthorizedResponse } from '@nestjs/swagger';
import { ApiTokensService } from '../../auth/api-tokens.service';
import { MagicLinksService } from '../../auth/magic-links.service';
import { PlayersService } from '../../auth/players.service';
import { PageQuery } from '../games/games.dto';
import { GamesApiService } from '../games/games-api.service';
import { decodeCursor, encodeCursor, isString, pageSize } from '../graphql/pagination';
import { ApiAuthenticated } from '../http/openapi.decorators';
import { PlayerId } from '../http/principal';
import { apiValidation } from '../http/validation';
import { CreateTokenDto, MagicLinkDto, RedeemDto, UpdateProfileDto } from './account.dto';
import { ProfileApi } from './profile.service';
import { ApiTokenDto, ApiTokenPageDto, IssuedApiTokenDto, MagicLinkSentDto, PlayerDto } from './account.responses';
import { MAGIC_LINK_PAGE } from './magic-link.page';

@ApiTags('account')
@UsePipes(apiValidation)
@Controller('api/v1')
export class AccountController {
  constructor(
    private readonly players: PlayersService,
    private readonly tokens: ApiTokensService,
    private readonly magicLinks: MagicLinksService,
    private readonly games: GamesApiService,
    private readonly profile: ProfileApi,
  ) {}

  @Get('me')
  @ApiAuthenticated()
  @ApiOkResponse({ type: PlayerDto })
  @ApiOperation({ summary: 'The player the token belongs to.' })
  me(@PlayerId() playerId: string) {
    return this.players.get(playerId);
  }

  @Patch('me')
  @ApiAuthenticated()
  @ApiOkResponse({ type: PlayerDto, description: 'Your account after the change.' })
  @ApiBadRequestResponse({ description: 'Neither field given (`request/invalid`), or a bad name or time zone (`auth/invalid_display_name`, `auth/invalid_time_zone`). An RFC 9457 problem document.' })
  @ApiOperation({ summary: 'Changes your name or time zone.' })
  updateMe(@Body() body: UpdateProfileDto, @PlayerId() playerId: string) {
    return this.profile.update(playerId, body);
  }

  @Get('me/tokens')
  @ApiAuthenticated()
  @ApiOkResponse({ type: ApiTokenPageDto })
  @ApiOperation({ summary: 'Your API tokens, newest first (without the tokens themselves).' })
  async listTokens(@Query() q: PageQuery, @PlayerId() playerId: string) {
    const p = await this.tokens.list(playerId, pageSize(q.limit, this.games.maxPageSize), decodeCursor('tokens', q.cursor, isString));
    return { items: p.items, nextCursor: p.hasMore ? encodeCursor('tokens', p.items[p.items.length - 1]!.id) : null };
  }

  @Post('me/tokens')
  @ApiAuthenticated()
  @ApiCreatedResponse({ type: IssuedApiTokenDto })
  @ApiOperation({ summary: 'Makes an API token. 201 with the token, shown this once.' })
  createToken(@Body() body: CreateTokenDto, @PlayerId() playerId: string) {
    return this.tokens.issue(playerId, body.name);
  }

  @Delete('me/tokens/:tokenId')
  @ApiAuthenticated()
  @ApiOkResponse({ type: ApiTokenDto, description: 'The token\'s record, now with revokedAt (revoking a revoked token again changes nothing).' })
  @ApiNotFoundResponse({ description: 'No such token of yours (`auth/token_not_found`). An RFC 9457 problem document.' })
  @ApiOperation({ summary: 'Revokes one of your tokens, at once.' })
  revokeToken(@Param('tokenId') tokenId: string, @PlayerId() playerId: string) {
    return this.tokens.revoke(playerId, tokenId);
  }

  @Post('auth/magic-links')
  @HttpCode(202)
  @ApiAcceptedResponse({ type: MagicLinkSentDto, description: 'The link is on its way (the same answer whether or not the account existed).' })
  @ApiBadRequestResponse({ description: 'A malformed email (`auth/invalid_email`), display name or time zone, or a body that is not what this takes (`request/invalid`). An RFC 9457 problem document.' })
  @ApiForbiddenResponse({ description: 'This server cannot send mail (`auth/mail_unavailable`). An RFC 9457 problem document.' })
  @ApiTooManyRequestsResponse({ description: 'This address was sent MAGIC_LINKS_PER_HOUR links in the last hour (`auth/magic_link_rate_limited`), or the request rate limit is exceeded (`http/rate_limited`); see Retry-After. An RFC 9457 problem document.' })
  @ApiServiceUnavailableResponse({ description: 'The mail server did not take the mail (`auth/mail_not_sent`); nothing was kept. See Retry-After. An RFC 9457 problem document.' })
  @ApiOperation({ summary: 'Mails a single-use, short-lived sign-in link; creates the account on first use. No token needed.' })
  async requestMagicLink(@Body() body: MagicLinkDto) {
    const r = await this.magicLinks.request(body);
    return { sent: true, expiresAt: r.expiresAt };
  }

  @Post('auth/magic-links/redeem')
  @ApiCreatedResponse({ type: IssuedApiTokenDto })
  @ApiUnauthorizedResponse({ description: 'The code is unknown, already used or expired (`auth/unauthenticated`); ask for a new link. An RFC 9457 problem document.' })
  @ApiOperation({ summary: 'Trades a sign-in code for a new API token (201, shown once). Works once. No token needed.' })
  redeem(@Body() body: RedeemDto) {
    return this.magicLinks.redeem(body.token, body.tokenName);
  }

  @Get('auth/magic-link')
  @Header('Content-Type', 'text/html; charset=utf-8')
  @Header('Cache-Control', 'no-store')
  // A page with a button: another site must not frame it and have it clicked (clickjacking).
  @Header('X-Frame-Options', 'DENY')
  @Header('Content-Security-Policy', "frame-ancestors 'none'")
  @ApiProduces('text/html')
  @ApiOkResponse({ type: String, description: 'An HTML page that reads the code from the URL fragment and, when the person presses its button, trades it for an API token.' })
  @ApiOperation({ summary: 'The page sign-in mails link to (the code is in the URL fragment).' })
  magicLinkPage() {
    return MAGIC_LINK_PAGE;
  }
}
