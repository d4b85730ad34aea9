import { Field, ID, InputType, ObjectType } from '@nestjs/graphql';

@ObjectType({ description: 'A player\'s account (only its owner sees it).' })
export class Player {
  @Field(() => ID, { description: 'Player id.' })
  id!: string;

  @Field({ description: 'Where sign-in links and notifications go.' })
  email!: string;

  @Field({ description: 'The name other players see.' })
  displayName!: string;

  @Field({ description: 'IANA time zone, e.g. "Europe/Berlin": deadlines and quiet hours are in it.' })
  timeZone!: string;

  @Field(() => Date, { description: 'When the account was made.' })
  createdAt!: Date;
}

@ObjectType({ description: 'An API token, without the token itself (only its hash is stored).' })
export class ApiToken {
  @Field(() => ID, { description: 'Token id (to revoke it).' })
  id!: string;

  @Field({ description: 'Your label for it.' })
  name!: string;

  @Field({ description: 'The token\'s first characters, to tell tokens apart.' })
  prefix!: string;

  @Field(() => Date, { description: 'When it was made.' })
  createdAt!: Date;

  @Field(() => Date, { nullable: true, description: 'When it was last used (to the minute).' })
  lastUsedAt!: Date | null;

  @Field(() => Date, { nullable: true, description: 'When it was revoked; a revoked token is refused.' })
  revokedAt!: Date | null;
}

@ObjectType({ description: 'A new API token. The token is shown this once: keep it.' })
export class IssuedApiToken {
  @Field({ description: 'The token: send it as "Authorization: Bearer <token>".' })
  token!: string;

  @Field(() => ApiToken, { description: 'Its record.' })
  apiToken!: ApiToken;
}

@ObjectType({ description: 'A sign-in link on its way.' })
export class MagicLinkRequest {
  @Field({ description: 'Always true: the answer does not tell whether the address already had an account.' })
  sent!: boolean;

  @Field(() => Date, { description: 'When the link stops working.' })
  expiresAt!: Date;
}

@InputType({ description: 'What to change in your account: at least one of the two.' })
export class UpdateProfileInput {
  @Field(() => String, { nullable: true, description: 'The name other players see, 1-60 characters.' })
  displayName?: string | null;

  @Field(() => String, { nullable: true, description: 'IANA time zone, e.g. Europe/Berlin: deadlines and quiet hours are read in it, and mail waiting for quiet hours, or a digest for its hour, moves with it.' })
  timeZone?: string | null;
}
