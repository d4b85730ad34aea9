import { Body, Controller, Get, HttpCode, Param, Patch, Post, Query, UsePipes } from '@nestjs/common';
import { ApiConflictResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiPropertyOptional, ApiTags } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsArray, IsBoolean, IsIn, IsInt, IsOptional, IsString, Length, Matches } from 'class-validator';
import { PageQuery } from '../games/games.dto';
import { ApiAuthenticated, ApiGameScopeErrors } from '../http/openapi.decorators';
import { PlayerId } from '../http/principal';
import { apiValidation } from '../http/validation';
import { DeliveryStatus } from './notification-settings.model';
import { NotificationSettingsApi } from './notification-settings.service';
import { NotificationDeliveryDto, NotificationDeliveryPageDto, NotificationSettingsDto } from './notifications.responses';

class GameQuery {
  @ApiPropertyOptional({ description: 'A game you hold a seat in; omit for your defaults.' })
  @IsOptional()
  @IsString()
  @Length(1, 100)
  gameId?: string;
}

class DeliveriesQuery extends PageQuery {
  @ApiPropertyOptional({ description: 'Comma-separated statuses: pending, held, delivered, dead, cancelled.', example: 'dead' })
  @IsOptional()
  @Transform(({ value }) => (typeof value === 'string' ? value.split(',').filter(Boolean) : value))
  @IsArray()
  @IsIn(['pending', 'held', 'delivered', 'dead', 'cancelled'], { each: true })
  status?: DeliveryStatus[];

  @ApiPropertyOptional({ description: 'Only about this game (one you hold a seat in).' })
  @IsOptional()
  @IsString()
  @Length(1, 100)
  gameId?: string;
}

class SettingsDto {
  @ApiPropertyOptional() @IsOptional() @IsBoolean() email?: boolean;
  @ApiPropertyOptional() @IsOptional() @IsBoolean() webhook?: boolean;
  @ApiPropertyOptional() @IsOptional() @IsBoolean() discord?: boolean;
  @ApiPropertyOptional({ example: '22:00' }) @IsOptional() @Matches(/^\d{2}:\d{2}$/) quietStart?: string;
  @ApiPropertyOptional({ example: '07:30' }) @IsOptional() @Matches(/^\d{2}:\d{2}$/) quietEnd?: string;
  @ApiPropertyOptional({ description: 'True: no quiet hours. False only beside quietStart and quietEnd (alone it is refused: it names no quiet hours).' }) @IsOptional() @IsBoolean() noQuietHours?: boolean;
  @ApiPropertyOptional() @IsOptional() @IsInt() reminderLeadMinutes?: number;
  @ApiPropertyOptional() @IsOptional() @IsBoolean() digest?: boolean;
}

/** The caller's notification settings and delivery log (from the notifications module). */
@ApiTags('notifications')
@ApiAuthenticated()
@UsePipes(apiValidation)
@Controller('api/v1/me/notifications')
export class NotificationsController {
  constructor(private readonly notifications: NotificationSettingsApi) {}

  @Get()
  @ApiOkResponse({ type: NotificationSettingsDto })
  @ApiGameScopeErrors()
  @ApiOperation({ summary: 'Your notification settings in effect (your defaults, or for one of your games).' })
  get(@Query() q: GameQuery, @PlayerId() playerId: string) {
    return this.notifications.get(playerId, q.gameId);
  }

  @Patch()
  @ApiOkResponse({ type: NotificationSettingsDto, description: 'The settings in effect after the change.' })
  @ApiGameScopeErrors()
  @ApiOperation({ summary: 'Changes your defaults, or (with gameId) your settings for one game.' })
  update(@Query() q: GameQuery, @Body() body: SettingsDto, @PlayerId() playerId: string) {
    return this.notifications.update(playerId, body, q.gameId);
  }

  @Get('deliveries')
  @ApiOkResponse({ type: NotificationDeliveryPageDto })
  @ApiGameScopeErrors()
  @ApiOperation({ summary: 'Your deliveries, newest first; status=dead for the dead letters.' })
  async deliveries(@Query() q: DeliveriesQuery, @PlayerId() playerId: string) {
    const p = await this.notifications.list(playerId, q.status, q.gameId, q.limit, q.cursor);
    return { items: p.items, nextCursor: p.hasMore ? p.cursors[p.cursors.length - 1]! : null };
  }

  @Post('deliveries/:deliveryId/redeliver')
  @HttpCode(200)
  @ApiOkResponse({ type: NotificationDeliveryDto, description: 'The delivery, pending again.' })
  @ApiNotFoundResponse({ description: 'No such delivery of yours (`notifications/delivery_not_found`). An RFC 9457 problem document.' })
  @ApiConflictResponse({ description: 'The endpoint the delivery went to is disabled or removed (`notifications/endpoint_disabled`): enable it first; or the notice calls you to a turn the game has gone past (`notifications/outdated`). An RFC 9457 problem document.' })
  @ApiOperation({ summary: 'Sends a dead-lettered delivery again.' })
  redeliver(@Param('deliveryId') deliveryId: string, @PlayerId() playerId: string) {
    return this.notifications.redeliver(playerId, deliveryId);
  }
}
