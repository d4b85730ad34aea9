import { Field, ObjectType } from '@nestjs/graphql';
import { ConnectionType } from '../graphql/pagination';
import { HistoryEvent, HistoryPhase } from './board.model';

const HistoryEventConnectionBase = ConnectionType(HistoryEvent, 'HistoryEvent', 'event');

@ObjectType({ description: 'A page of the game\'s log: the events you may read, and the phases that began in it. A page covers up to `first` versions of the log, so it may hold fewer events when some were hidden from you.' })
export class HistoryConnection extends HistoryEventConnectionBase {
  @Field(() => [HistoryPhase], { description: 'The phases that began within this page.' })
  phases!: HistoryPhase[];
}
