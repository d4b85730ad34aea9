import { Body, Controller, Delete, Get, Header, HttpCode, Param, Post, Put, UsePipes } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { IsString, Length } from 'class-validator';
import { NotificationEndpointsService } from '../../notifications/preferences/endpoints.service';
import { ApiAuthenticated } from '../http/openapi.decorators';
import { PlayerId } from '../http/principal';
import { apiValidation } from '../http/validation';

class WebhookUrlDto {
  @ApiProperty({ description: 'An http(s) URL without credentials; private, loopback and link-local addresses are refused.', example: 'https://bot.example.org/fieldpost' })
  @IsString()
  @Length(1, 2048)
  url!: string;
}

class DiscordUrlDto {
  @ApiProperty({ description: 'The Discord channel\'s webhook URL.', example: 'https://discord.com/api/webhooks/123/abc' })
  @IsString()
  @Length(1, 2048)
  url!: string;
}

const notYours = ApiNotFoundResponse({ description: 'No such endpoint of yours (another player\'s endpoint is not found either). An RFC 9457 problem document.' });

/** The caller's webhook endpoints and Discord webhook (the notifications module's endpoints service). */
@ApiTags('notifications')
@ApiAuthenticated()
@UsePipes(apiValidation)
@Controller('api/v1/me/notifications')
export class NotificationEndpointsController {
  constructor(private readonly endpoints: NotificationEndpointsService) {}

  @Get('endpoints')
  @ApiOperation({ summary: 'Your webhook endpoints and Discord webhook, oldest first (disabled ones with the reason; never a secret).' })
  async list(@PlayerId() playerId: string) {
    return { items: await this.endpoints.listEndpoints(playerId) };
  }

  @Post('webhooks')
  @Header('Cache-Control', 'no-store')
  @ApiOperation({ summary: 'Adds a webhook endpoint (at most five). 201 with `endpoint` and its signing `secret` (whsec_...), shown this once.' })
  addWebhook(@Body() body: WebhookUrlDto, @PlayerId() playerId: string) {
    return this.endpoints.addWebhook(playerId, body.url);
  }

  @Post('webhooks/:endpointId/rotate-secret')
  @HttpCode(200)
  @Header('Cache-Control', 'no-store')
  @notYours
  @ApiOperation({ summary: 'A new signing secret for one of your webhooks, shown this once; the old one keeps signing beside it until `endpoint.previousSecretValidUntil`.' })
  rotate(@Param('endpointId') endpointId: string, @PlayerId() playerId: string) {
    return this.endpoints.rotateWebhookSecret(playerId, endpointId);
  }

  @Put('discord')
  @ApiOperation({ summary: 'Sets your Discord webhook, replacing the one you had.' })
  setDiscord(@Body() body: DiscordUrlDto, @PlayerId() playerId: string) {
    return this.endpoints.setDiscordWebhook(playerId, body.url);
  }

  @Delete('discord')
  @HttpCode(204)
  @ApiOperation({ summary: 'Removes your Discord webhook (204, also when you had none).' })
  async clearDiscord(@PlayerId() playerId: string): Promise<void> {
    await this.endpoints.setDiscordWebhook(playerId, null);
  }

  @Post('endpoints/:endpointId/enable')
  @HttpCode(200)
  @notYours
  @ApiOperation({ summary: 'Turns a disabled endpoint back on, after checking its URL again.' })
  enable(@Param('endpointId') endpointId: string, @PlayerId() playerId: string) {
    return this.endpoints.enableEndpoint(playerId, endpointId);
  }

  @Delete('endpoints/:endpointId')
  @HttpCode(204)
  @notYours
  @ApiOperation({ summary: 'Removes one of your endpoints for good (204).' })
  async remove(@Param('endpointId') endpointId: string, @PlayerId() playerId: string): Promise<void> {
    await this.endpoints.removeEndpoint(playerId, endpointId);
  }
}
