import { Field, ID, InputType, Int, ObjectType, registerEnumType } from '@nestjs/graphql';
import { HistoryEvent } from '../games/board.model';
import { Game, PhaseState } from '../games/game.model';
import { GraphQLJSON } from '../graphql/json.scalar';

@ObjectType({ description: 'What an action did: the new events as you may see them, and where the game stands now.' })
export class Outcome {
  @Field(() => ID, { description: 'Game id.' })
  gameId!: string;

  @Field(() => Int, { description: 'Version of the first event written.' })
  fromVersion!: number;

  @Field(() => Int, { description: 'The game\'s version after the action: send it as the next expectedVersion.' })
  version!: number;

  @Field(() => [HistoryEvent], { description: 'The events written, as your side may see them.' })
  events!: HistoryEvent[];

  @Field(() => PhaseState, { description: 'The phase right after the action.' })
  phase!: PhaseState;

  @Field(() => Game, { description: 'The game as it stands now (read again, so it may be newer than `version`).' })
  game!: Game;
}

export enum SubmissionKind {
  ORDERS = 'orders',
  REACTION = 'reaction',
  STANDING_ORDERS = 'standing-orders',
}
registerEnumType(SubmissionKind, {
  name: 'SubmissionKind',
  description: 'What a submission is.',
  valuesMap: {
    ORDERS: { description: 'A whole phase of orders (or a setup).' },
    REACTION: { description: 'The answer to a reaction your side is asked for.' },
    STANDING_ORDERS: { description: 'Your side\'s standing reaction orders, replacing the previous ones; they answer reactions without a pause.' },
  },
});

@InputType({ description: 'A phase of orders, checked against the rules as a whole.' })
export class SubmitPhaseInput {
  @Field(() => ID, { description: 'Game id.' })
  gameId!: string;

  @Field(() => Int, { description: 'The version you last saw; if the game has moved on, you get CONFLICT with the current version.' })
  expectedVersion!: number;

  @Field(() => SubmissionKind, { defaultValue: SubmissionKind.ORDERS, description: 'What is submitted.' })
  kind!: SubmissionKind;

  @Field(() => GraphQLJSON, { description: 'The orders, in the game system\'s format (for the kernel: a list such as [{"kind":"move","unit":"a-1","path":["0405"]}]).' })
  orders!: unknown;

  @Field({ description: 'A key you choose (1-200 characters): a retry with the same key returns the first outcome and never rolls dice again.' })
  idempotencyKey!: string;
}

@InputType({ description: 'The answer to a reaction your side is asked for.' })
export class SubmitReactionInput {
  @Field(() => ID, { description: 'Game id.' })
  gameId!: string;

  @Field(() => Int, { description: 'The version you last saw.' })
  expectedVersion!: number;

  @Field(() => GraphQLJSON, { description: 'The answer, in the reaction kind\'s format (e.g. {"attackers":["p2-dragon-1"]}).' })
  answer!: unknown;

  @Field({ description: 'Idempotency key (1-200 characters).' })
  idempotencyKey!: string;
}

@InputType({ description: 'Your side\'s standing reaction orders.' })
export class SetStandingOrdersInput {
  @Field(() => ID, { description: 'Game id.' })
  gameId!: string;

  @Field(() => Int, { description: 'The version you last saw.' })
  expectedVersion!: number;

  @Field(() => GraphQLJSON, { description: 'Standing orders per reaction kind, e.g. {"anti-landing":"all"}.' })
  orders!: unknown;

  @Field({ description: 'Idempotency key (1-200 characters).' })
  idempotencyKey!: string;
}
