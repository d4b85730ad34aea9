import { Field, ID, ObjectType, registerEnumType } from '@nestjs/graphql';

export enum NotificationEndpointKind {
  WEBHOOK = 'webhook',
  DISCORD = 'discord',
}
registerEnumType(NotificationEndpointKind, {
  name: 'NotificationEndpointKind',
  description: 'Where an endpoint sends notifications.',
  valuesMap: {
    WEBHOOK: { description: 'Your own http(s) receiver, signed per Standard Webhooks (up to five for all your games, and five for each game).' },
    DISCORD: { description: 'A Discord channel\'s webhook (one for all your games, and one for each game).' },
  },
});

@ObjectType({
  description:
    'One of your notification endpoints: a webhook or a Discord webhook, for all your games or for one game. A game\'s notifications go to its own endpoints; for a kind it has none of, to your all-games endpoints of that kind. The signing secret is never shown here.',
})
export class NotificationEndpoint {
  @Field(() => ID, { description: 'Endpoint id (ep_...).' })
  id!: string;

  @Field(() => NotificationEndpointKind, { description: 'Webhook or Discord.' })
  kind!: NotificationEndpointKind;

  @Field(() => ID, {
    nullable: true,
    description: 'The one game this endpoint is for: it gets that game\'s notifications, instead of your all-games endpoints of the same kind (even while it is disabled). Null: all your games.',
  })
  gameId!: string | null;

  @Field({ description: 'The URL notifications are posted to, as saved (normalised).' })
  url!: string;

  @Field({ description: 'False after the receiver refused for good (e.g. 410, or Discord 404); turn it back on with enableNotificationEndpoint.' })
  enabled!: boolean;

  @Field(() => Date, { nullable: true, description: 'When it was turned off; null while enabled.' })
  disabledAt!: Date | null;

  @Field(() => String, { nullable: true, description: 'Why it was turned off, e.g. "HTTP 410"; null while enabled.' })
  disabledReason!: string | null;

  @Field(() => Date, { nullable: true, description: 'After a secret rotation: until then the previous secret still signs beside the new one. Null otherwise (and always for Discord).' })
  previousSecretValidUntil!: Date | null;

  @Field(() => Date, { description: 'When it was added.' })
  createdAt!: Date;
}

@ObjectType({ description: 'A webhook endpoint with its signing secret. The secret is shown in this answer only: keep it.' })
export class WebhookWithSecret {
  @Field(() => NotificationEndpoint, { description: 'The endpoint.' })
  endpoint!: NotificationEndpoint;

  @Field({ description: 'The signing secret (whsec_...), for verifying the webhook-signature header. Shown this once.' })
  secret!: string;
}
