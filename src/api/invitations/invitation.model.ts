import { Field, ID, InputType, Int, ObjectType, registerEnumType } from '@nestjs/graphql';

export enum InvitationKind {
  TOKEN = 'token',
  OPEN = 'open',
}
registerEnumType(InvitationKind, {
  name: 'InvitationKind',
  description: 'How a seat is offered.',
  valuesMap: {
    TOKEN: { description: 'A single-use token for one person: whoever presents it takes the seat.' },
    OPEN: { description: 'An open challenge anyone may accept (listed in openChallenges).' },
  },
});

/** What every view of an invitation says of it. */
@ObjectType({ isAbstract: true })
abstract class InvitationFields {
  @Field(() => ID, { description: 'Invitation id (an open challenge is joined by it).' })
  id!: string;

  @Field(() => ID, { description: 'The game.' })
  gameId!: string;

  @Field({ description: 'The side offered.' })
  side!: string;

  @Field(() => InvitationKind, { description: 'Token or open challenge.' })
  kind!: InvitationKind;
}

@ObjectType({ description: 'An offer of a seat in a game.' })
export class Invitation extends InvitationFields {
  @Field(() => String, { nullable: true, description: 'The invitation token, shown only in the answer to `invite` (it is stored hashed). Pass it to joinGame.' })
  token!: string | null;

  @Field(() => Date, { nullable: true, description: 'When it stops working.' })
  expiresAt!: Date | null;
}

@ObjectType({ description: "An invitation of a game, as its organiser and seated players see it (never its token)." })
export class InvitationRecord extends InvitationFields {
  @Field({ description: 'open: it can still seat someone; used: it seated someone; ended: it expired or was withdrawn, or can seat nobody now (its seat was taken otherwise, or the game ended).' })
  status!: string;

  @Field(() => Date, { description: 'When it was made.' })
  createdAt!: Date;

  @Field(() => Date, { nullable: true, description: 'When it stops (or stopped) working.' })
  expiresAt!: Date | null;

  @Field(() => Date, { nullable: true, description: 'When it seated someone.' })
  usedAt!: Date | null;
}

@ObjectType({ description: 'An open challenge: a seat anyone may take.' })
export class OpenChallenge {
  @Field(() => ID, { description: 'Invitation id: pass it to joinGame as invitationId.' })
  id!: string;

  @Field(() => ID, { description: 'The game.' })
  gameId!: string;

  @Field({ description: 'The side offered.' })
  side!: string;

  @Field(() => Date, { description: 'When it was made.' })
  createdAt!: Date;

  @Field(() => Date, { nullable: true, description: 'When it stops working.' })
  expiresAt!: Date | null;

  @Field({ description: "The game's title." })
  title!: string;

  @Field({ description: 'The scenario the game plays (see scenarios).' })
  scenarioId!: string;

  @Field({ description: 'The display name of whoever created the game.' })
  organiserName!: string;

  @Field(() => Int, { description: 'How many hours each phase may take before its deadline.' })
  deadlineHours!: number;
}

@ObjectType({ description: 'A seat taken.' })
export class JoinResult {
  @Field(() => ID, { description: 'The game joined.' })
  gameId!: string;

  @Field({ description: 'Your side.' })
  side!: string;

  @Field(() => Int, { description: 'The game\'s version after joining.' })
  version!: number;

  @Field({ description: 'True when yours was the last open seat and the game has begun.' })
  started!: boolean;
}

@InputType({ description: 'An invitation to a seat of your game.' })
export class InviteInput {
  @Field(() => ID, { description: 'Your game (you created it or hold a seat in it).' })
  gameId!: string;

  @Field({ description: 'The open side to offer.' })
  side!: string;

  @Field(() => InvitationKind, { defaultValue: InvitationKind.TOKEN, description: 'A token for one person (default) or an open challenge.' })
  kind!: InvitationKind;

  @Field(() => Int, { nullable: true, description: 'Hours until it expires (1-2160, default 336).' })
  expiresInHours?: number;
}
