import { Field, ID, Int, ObjectType } from '@nestjs/graphql';
import { HistoryEvent } from '../games/board.model';
import { Game } from '../games/game.model';

@ObjectType({ description: 'A game changed: the new events your side may see, and the game as it stands.' })
export class GameUpdate {
  @Field(() => ID, { description: 'Game id.' })
  gameId!: string;

  @Field(() => Int, { description: 'The first version this update covers.' })
  fromVersion!: number;

  @Field(() => Int, { description: 'The game\'s version after this update.' })
  version!: number;

  @Field(() => [HistoryEvent], { description: 'The new events, as your side may see them (hidden ones left out or redacted).' })
  events!: HistoryEvent[];

  @Field(() => Game, { description: 'The game as your side sees it now.' })
  game!: Game;
}
