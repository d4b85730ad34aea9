import { ApiProperty } from '@nestjs/swagger';
import { HistoryEventDto } from '../games/board.responses';
import { GameDto, PhaseStateDto } from '../games/game.responses';

export class OutcomeDto {
  @ApiProperty({ description: 'Game id.' })
  gameId!: string;

  @ApiProperty({ type: 'integer', description: 'Version of the first event written.' })
  fromVersion!: number;

  @ApiProperty({ type: 'integer', description: 'The game\'s version after the action: send it as the next expectedVersion.' })
  version!: number;

  @ApiProperty({ type: [HistoryEventDto], description: 'The events written, as your side may see them.' })
  events!: HistoryEventDto[];

  @ApiProperty({ type: PhaseStateDto, description: 'The phase right after the action.' })
  phase!: PhaseStateDto;

  @ApiProperty({ type: GameDto, description: 'The game as it stands now (read again, so it may be newer than `version`).' })
  game!: GameDto;
}
