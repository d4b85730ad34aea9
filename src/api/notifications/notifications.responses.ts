import { ApiProperty } from '@nestjs/swagger';
import { PageOf } from '../http/page.responses';
import { DeliveryStatus } from './notification-settings.model';

const dateTime = { type: String, format: 'date-time' } as const;

export class NotificationChannelsDto {
  @ApiProperty({ description: 'Mail.' })
  email!: boolean;

  @ApiProperty({ description: 'Your webhook endpoints.' })
  webhook!: boolean;

  @ApiProperty({ description: 'Your Discord webhook.' })
  discord!: boolean;
}

export class QuietHoursDto {
  @ApiProperty({ description: 'Start, "HH:MM" in your time zone.', example: '22:00' })
  start!: string;

  @ApiProperty({ description: 'End, "HH:MM" in your time zone; may be past midnight.', example: '07:30' })
  end!: string;
}

export class NotificationSettingsDto {
  @ApiProperty({ type: String, nullable: true, description: 'The game these settings are for; null for your defaults.' })
  gameId!: string | null;

  @ApiProperty({ type: NotificationChannelsDto, description: 'Channels on or off.' })
  channels!: NotificationChannelsDto;

  @ApiProperty({ type: QuietHoursDto, nullable: true, description: 'Local times between which no notification is sent (held until the end); null for none.' })
  quietHours!: QuietHoursDto | null;

  @ApiProperty({ type: 'integer', description: 'How long before a deadline the reminder comes, in minutes.' })
  reminderLeadMinutes!: number;

  @ApiProperty({ description: 'Hold turn mail for one daily digest instead of one mail per turn.' })
  digest!: boolean;
}

export class NotificationDeliveryDto {
  @ApiProperty({ description: 'Delivery id.' })
  id!: string;

  @ApiProperty({ description: 'The notification it delivers (one notification has a delivery per channel).' })
  notificationId!: string;

  @ApiProperty({ description: 'What it was about.', example: 'your_turn' })
  kind!: string;

  @ApiProperty({ type: String, nullable: true, description: 'The game it was about.' })
  gameId!: string | null;

  @ApiProperty({ enum: ['email', 'webhook', 'discord'], description: 'The channel.' })
  channel!: string;

  @ApiProperty({ type: String, nullable: true, description: 'The webhook or Discord endpoint it went to (see /me/notifications/endpoints); null for mail, or once that endpoint was removed.' })
  endpointId!: string | null;

  @ApiProperty({ enum: DeliveryStatus, enumName: 'DeliveryStatus', description: 'pending (waiting to be sent or retried), held (for the daily digest), delivered, dead (given up after retries; it can be sent again) or cancelled (the channel was turned off).' })
  status!: DeliveryStatus;

  @ApiProperty({ type: 'integer', description: 'Attempts so far.' })
  attempts!: number;

  @ApiProperty({ ...dateTime, nullable: true, description: 'When it is (next) due, while pending or held.' })
  nextAttemptAt!: string | null;

  @ApiProperty({ type: String, nullable: true, description: 'The last error.' })
  lastError!: string | null;

  @ApiProperty({ type: 'integer', nullable: true, description: 'The receiver\'s last status code.' })
  lastStatus!: number | null;

  @ApiProperty({ ...dateTime, description: 'When it was queued.' })
  createdAt!: string;

  @ApiProperty({ ...dateTime, nullable: true, description: 'When it was delivered, dead-lettered or cancelled.' })
  finishedAt!: string | null;
}

export const NotificationDeliveryPageDto = PageOf(NotificationDeliveryDto, 'deliveries', 'newest first');
