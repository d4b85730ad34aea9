import { Field, ID, InputType, Int, ObjectType } from '@nestjs/graphql';
import { Violation } from '../games/board.model';
import { GraphQLJSON } from '../graphql/json.scalar';
import { SubmissionKind } from './outcome.model';

@InputType({ description: 'A phase of orders to check without submitting it: what submitPhase takes, less the idempotency key.' })
export class CheckPhaseInput {
  @Field(() => ID, { description: 'Game id.' })
  gameId!: string;

  @Field(() => Int, { description: 'The version you last saw; if the game has moved on, you get CONFLICT with the current version.' })
  expectedVersion!: number;

  @Field(() => SubmissionKind, { defaultValue: SubmissionKind.ORDERS, description: 'What would be submitted.' })
  kind!: SubmissionKind;

  @Field(() => GraphQLJSON, { description: 'The orders, in the game system\'s format, as submitPhase takes them.' })
  orders!: unknown;
}

@ObjectType({ description: 'What the rules say of a phase of orders checked without submitting it. Nothing was rolled or written.' })
export class PhaseCheck {
  @Field({ description: 'Whether submitting these orders now would pass the rules: true exactly when violations is empty.' })
  valid!: boolean;

  @Field(() => Int, { description: 'The version checked against: submit at this version to have the orders checked the same way.' })
  version!: number;

  @Field(() => [Violation], { description: 'Every rule the orders break (or every way they cannot be read), each with its rule ID and order index, as a refused submitPhase lists them.' })
  violations!: Violation[];
}
