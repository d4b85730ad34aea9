import { ApiProperty } from '@nestjs/swagger';
import { HistoryEventDto, ViolationDto } from '../games/board.responses';
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

export class PhaseCheckDto {
  @ApiProperty({ description: 'Whether submitting these orders now would pass the rules: true exactly when violations is empty.' })
  valid!: boolean;

  @ApiProperty({ type: 'integer', description: 'The version checked against: submit at this version to have the orders checked the same way.' })
  version!: number;

  @ApiProperty({ type: [ViolationDto], description: 'Every rule the orders break (or every way they cannot be read), as a refused submission lists them.' })
  violations!: ViolationDto[];
}
