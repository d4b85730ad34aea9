import { Field, ID, InputType, Int, registerEnumType } from '@nestjs/graphql';

export enum MyGamesFilter {
  AWAITING = 'awaiting',
  ACTIVE = 'active',
  FINISHED = 'finished',
  ALL = 'all',
}
registerEnumType(MyGamesFilter, {
  name: 'MyGamesFilter',
  description: 'Which of my games to list.',
  valuesMap: {
    AWAITING: { description: 'Games that wait for me: my side must act now, or answer an undo proposal.' },
    ACTIVE: { description: 'Games being played or waiting for players.' },
    FINISHED: { description: 'Games that have ended.' },
    ALL: { description: 'All of them.' },
  },
});

@InputType({ description: 'Settings of a new game; each has a default.' })
export class GameSettingsInput {
  @Field({ nullable: true, description: 'Time limit of a phase, in hours (1-720). Default: the server\'s DEFAULT_DEADLINE_HOURS.' })
  deadlineHours?: number;

  @Field({ nullable: true, description: 'Time limit of a reaction window, in hours (from 0.25, at most deadlineHours). Default: 24 or deadlineHours, whichever is less.' })
  reactionHours?: number;

  @Field({ nullable: true, description: 'What a missed deadline does: "pass" (default) or "forfeit".' })
  timeoutKind?: string;

  @Field(() => Int, { nullable: true, description: 'Missed deadlines in a row after which a side forfeits (1-100, default 3).' })
  forfeitAfter?: number;

  @Field({ nullable: true, description: 'Let players without a seat watch the public view (default false).' })
  spectators?: boolean;

  @Field({ nullable: true, description: 'Days each player may pause their own clock (0-60, default 14).' })
  vacationDays?: number;

  @Field(() => Int, { nullable: true, description: 'Keep a snapshot of the state every this many events (10-10000, default 100): loading a game folds at most this many.' })
  snapshotInterval?: number;
}

@InputType({ description: 'A new game.' })
export class CreateGameInput {
  @Field(() => ID, { description: 'The scenario to play (see `scenarios`).' })
  scenarioId!: string;

  @Field({ nullable: true, description: 'A title (1 to 200 characters, not all blank); omit it for the scenario\'s name.' })
  title?: string;

  @Field({ nullable: true, description: 'The side you take; omit to only organise the game.' })
  side?: string;

  @Field(() => GameSettingsInput, { nullable: true, description: 'The game\'s settings.' })
  settings?: GameSettingsInput;
}

/** The games module's option shape from the API's flat settings input. */
export function toGameOptions(s: GameSettingsInput | undefined | null) {
  if (!s) return {};
  return {
    ...(s.deadlineHours != null ? { deadlineHours: s.deadlineHours } : {}),
    ...(s.reactionHours != null ? { reactionHours: s.reactionHours } : {}),
    ...(s.timeoutKind != null || s.forfeitAfter != null
      ? { timeout: { kind: (s.timeoutKind ?? 'pass') as 'pass' | 'forfeit', forfeitAfter: s.forfeitAfter ?? 3 } }
      : {}),
    ...(s.spectators != null ? { spectators: s.spectators } : {}),
    ...(s.vacationDays != null ? { vacationDays: s.vacationDays } : {}),
    ...(s.snapshotInterval != null ? { snapshotInterval: s.snapshotInterval } : {}),
  };
}
