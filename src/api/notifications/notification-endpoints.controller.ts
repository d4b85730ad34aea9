import { Body, Controller, Delete, Get, Header, HttpCode, Param, Post, Put, Query, UsePipes } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiProperty, ApiPropertyOptional, ApiTags } from '@nestjs/swagger';
import { IsOptional, IsString, Length } from 'class-validator';
import { ApiAuthenticated, ApiGameScopeErrors } from '../http/openapi.decorators';
import { PlayerId } from '../http/principal';
import { apiValidation } from '../http/validation';
import { MAX_TARGET_URL } from '../../notifications/security/target-url';
import { NotificationEndpointsApi } from './notification-endpoints-api.service';

const GAME_SCOPE = 'Only for this game (one you hold a seat in): its notifications go here instead of to your all-games endpoints of the same kind. Leave out for all your games.';

class GameScopeDto {
  @ApiPropertyOptional({ description: GAME_SCOPE })
  @IsOptional()
  @IsString()
  @Length(1, 100)
  gameId?: string;
}

class WebhookUrlDto extends GameScopeDto {
  @ApiProperty({ description: 'An http(s) URL without credentials; private, loopback and link-local addresses are refused.', example: 'https://bot.example.org/fieldpost', maxLength: MAX_TARGET_URL })
  @IsString()
  url!: string;
}

class DiscordUrlDto extends GameScopeDto {
  @ApiProperty({ description: 'The Discord channel\'s webhook URL.', example: 'https://discord.com/api/webhooks/123/abc', maxLength: MAX_TARGET_URL })
  @IsString()
  url!: string;
}

class EndpointDto {
  @ApiProperty({ description: 'Endpoint id (ep_...).' }) id!: string;
  @ApiProperty({ enum: ['webhook', 'discord'] }) kind!: string;
  @ApiProperty({ type: String, nullable: true, description: 'The one game this endpoint is for (it replaces your all-games endpoints of its kind there, even while disabled); null: all your games.' })
  gameId!: string | null;
  @ApiProperty({ description: 'Where notifications are posted, as saved (normalised).' }) url!: string;
  @ApiProperty({ description: 'False after the receiver refused for good (410, or Discord 401/404).' }) enabled!: boolean;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) disabledAt!: string | null;
  @ApiProperty({ type: String, nullable: true, example: 'HTTP 410' }) disabledReason!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'After a rotation: until then the previous secret still signs beside the new one.' })
  previousSecretValidUntil!: string | null;
  @ApiProperty({ type: String, format: 'date-time' }) createdAt!: string;
}

class EndpointListDto {
  @ApiProperty({ type: [EndpointDto] }) items!: EndpointDto[];
}

class WebhookWithSecretDto {
  @ApiProperty({ type: EndpointDto }) endpoint!: EndpointDto;
  @ApiProperty({ description: 'The signing secret (whsec_...), shown this once.' }) secret!: string;
}

const notYours = ApiNotFoundResponse({ description: 'No such endpoint of yours (another player\'s endpoint is not found either). An RFC 9457 problem document.' });

/** The caller's webhook endpoints and Discord webhooks, for all their games or for one. */
@ApiTags('notifications')
@ApiAuthenticated()
@UsePipes(apiValidation)
@Controller('api/v1/me/notifications')
export class NotificationEndpointsController {
  constructor(private readonly endpoints: NotificationEndpointsApi) {}

  @Get('endpoints')
  @ApiOkResponse({ type: EndpointListDto })
  @ApiOperation({ summary: 'Your webhook endpoints and Discord webhooks, each with its game scope (`gameId`, null for all games), oldest first (disabled ones with the reason; never a secret).' })
  async list(@PlayerId() playerId: string) {
    return { items: await this.endpoints.list(playerId) };
  }

  @Post('webhooks')
  @Header('Cache-Control', 'no-store')
  @ApiCreatedResponse({ type: WebhookWithSecretDto })
  @ApiGameScopeErrors()
  @ApiOperation({
    summary: 'Adds a webhook endpoint, for all your games or (gameId) for one: at most five for each. 201 with `endpoint` and its signing `secret` (whsec_...), shown this once.',
  })
  addWebhook(@Body() body: WebhookUrlDto, @PlayerId() playerId: string) {
    return this.endpoints.addWebhook(playerId, body.url, body.gameId);
  }

  @Post('webhooks/:endpointId/rotate-secret')
  @HttpCode(200)
  @Header('Cache-Control', 'no-store')
  @ApiOkResponse({ type: WebhookWithSecretDto })
  @notYours
  @ApiOperation({ summary: 'A new signing secret for one of your webhooks, shown this once; the old one keeps signing beside it until `endpoint.previousSecretValidUntil`.' })
  rotate(@Param('endpointId') endpointId: string, @PlayerId() playerId: string) {
    return this.endpoints.rotateWebhookSecret(playerId, endpointId);
  }

  @Put('discord')
  @ApiOkResponse({ type: EndpointDto })
  @ApiGameScopeErrors()
  @ApiOperation({ summary: 'Sets your Discord webhook for all your games or (gameId) for one game, replacing the one that scope had; other scopes keep theirs.' })
  setDiscord(@Body() body: DiscordUrlDto, @PlayerId() playerId: string) {
    return this.endpoints.setDiscordWebhook(playerId, body.url, body.gameId);
  }

  @Delete('discord')
  @HttpCode(204)
  @ApiNoContentResponse({ description: 'Removed, or there was none; no body.' })
  @ApiGameScopeErrors()
  @ApiOperation({ summary: 'Removes your Discord webhook for all your games, or with ?gameId= the one for that game (204, also when there was none).' })
  async clearDiscord(@Query() q: GameScopeDto, @PlayerId() playerId: string): Promise<void> {
    await this.endpoints.setDiscordWebhook(playerId, null, q.gameId);
  }

  @Post('endpoints/:endpointId/enable')
  @HttpCode(200)
  @ApiOkResponse({ type: EndpointDto })
  @notYours
  @ApiOperation({ summary: 'Turns a disabled endpoint back on, after checking its URL again.' })
  enable(@Param('endpointId') endpointId: string, @PlayerId() playerId: string) {
    return this.endpoints.enable(playerId, endpointId);
  }

  @Delete('endpoints/:endpointId')
  @HttpCode(204)
  @ApiNoContentResponse({ description: 'Removed; no body.' })
  @notYours
  @ApiOperation({ summary: 'Removes one of your endpoints for good (204); a game whose own endpoint it was falls back to your all-games endpoints of that kind.' })
  async remove(@Param('endpointId') endpointId: string, @PlayerId() playerId: string): Promise<void> {
    await this.endpoints.remove(playerId, endpointId);
  }
}
