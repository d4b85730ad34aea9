import { Field, ID, InputType, Int, ObjectType, registerEnumType } from '@nestjs/graphql';

@ObjectType({ description: 'Which channels notifications go out on.' })
export class NotificationChannels {
  @Field({ description: 'Mail.' })
  email!: boolean;

  @Field({ description: 'Your webhook endpoints.' })
  webhook!: boolean;

  @Field({ description: 'Your Discord webhook.' })
  discord!: boolean;
}

@ObjectType({ description: 'Local times between which no notification is sent (held until the end).' })
export class QuietHours {
  @Field({ description: 'Start, "HH:MM" in your time zone.' })
  start!: string;

  @Field({ description: 'End, "HH:MM" in your time zone; may be past midnight.' })
  end!: string;
}

@ObjectType({ description: 'Notification settings in effect (a game\'s overrides over your defaults).' })
export class NotificationSettings {
  @Field(() => ID, { nullable: true, description: 'The game these settings are for; null for your defaults.' })
  gameId!: string | null;

  @Field(() => NotificationChannels, { description: 'Channels on or off.' })
  channels!: NotificationChannels;

  @Field(() => QuietHours, { nullable: true, description: 'Quiet hours; null for none.' })
  quietHours!: QuietHours | null;

  @Field(() => Int, { description: 'How long before a deadline the reminder comes, in minutes.' })
  reminderLeadMinutes!: number;

  @Field({ description: 'Hold turn mail for one daily digest instead of one mail per turn.' })
  digest!: boolean;
}

@InputType({ description: 'A change to notification settings; absent fields stay as they are.' })
export class NotificationSettingsInput {
  @Field({ nullable: true, description: 'Mail on or off.' })
  email?: boolean;

  @Field({ nullable: true, description: 'Webhooks on or off.' })
  webhook?: boolean;

  @Field({ nullable: true, description: 'Discord on or off.' })
  discord?: boolean;

  @Field({ nullable: true, description: 'Quiet hours start, "HH:MM" (give end too).' })
  quietStart?: string;

  @Field({ nullable: true, description: 'Quiet hours end, "HH:MM" (give start too).' })
  quietEnd?: string;

  @Field({ nullable: true, description: 'True: no quiet hours. False only beside quietStart and quietEnd (alone it is refused: it names no quiet hours).' })
  noQuietHours?: boolean;

  @Field(() => Int, { nullable: true, description: 'Reminder lead in minutes (0 to 43200).' })
  reminderLeadMinutes?: number;

  @Field({ nullable: true, description: 'Daily digest on or off.' })
  digest?: boolean;
}

export enum DeliveryStatus {
  PENDING = 'pending',
  HELD = 'held',
  DELIVERED = 'delivered',
  DEAD = 'dead',
  CANCELLED = 'cancelled',
}
registerEnumType(DeliveryStatus, {
  name: 'DeliveryStatus',
  description: 'Where a notification delivery stands.',
  valuesMap: {
    PENDING: { description: 'Waiting to be sent (or retried).' },
    HELD: { description: 'Held for the daily digest.' },
    DELIVERED: { description: 'Accepted by the receiver.' },
    DEAD: { description: 'Given up after retries (dead-lettered); it can be sent again.' },
    CANCELLED: { description: 'Not sent: the channel was turned off.' },
  },
});

@ObjectType({ description: 'One notification on one channel.' })
export class NotificationDelivery {
  @Field(() => ID, { description: 'Delivery id.' })
  id!: string;

  @Field(() => ID, { description: 'The notification it delivers (one notification has a delivery per channel and endpoint).' })
  notificationId!: string;

  @Field({ description: 'What it was about, e.g. "your_turn".' })
  kind!: string;

  @Field(() => ID, { nullable: true, description: 'The game it was about.' })
  gameId!: string | null;

  @Field({ description: 'email, webhook or discord.' })
  channel!: string;

  @Field(() => ID, { nullable: true, description: 'The webhook or Discord endpoint it went to (me.notificationEndpoints); null for mail, or once that endpoint was removed.' })
  endpointId!: string | null;

  @Field(() => DeliveryStatus, { description: 'Its status.' })
  status!: DeliveryStatus;

  @Field(() => Int, { description: 'Attempts so far.' })
  attempts!: number;

  @Field(() => Date, { nullable: true, description: 'When it is (next) due, while pending or held.' })
  nextAttemptAt!: Date | null;

  @Field(() => String, { nullable: true, description: 'The last error.' })
  lastError!: string | null;

  @Field(() => Int, { nullable: true, description: 'The receiver\'s last status code.' })
  lastStatus!: number | null;

  @Field(() => Date, { description: 'When it was queued.' })
  createdAt!: Date;

  @Field(() => Date, { nullable: true, description: 'When it was delivered, dead-lettered or cancelled.' })
  finishedAt!: Date | null;
}
