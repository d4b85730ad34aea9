import { ApiProperty } from '@nestjs/swagger';
import { BoardMapDto } from '../scenarios/scenarios.responses';
import { GameDto } from './game.responses';

// The REST twins of the GraphQL models in board.model.ts (see game.responses.ts for why twins).

export const systemJson = (description: string) => ({ type: 'object', additionalProperties: true, description: `${description} (system-specific).` }) as const;

export class UnitViewDto {
  @ApiProperty({ description: 'Unit id.' })
  id!: string;

  @ApiProperty({ description: 'Unit type id from the scenario.' })
  type!: string;

  @ApiProperty({ description: 'The side that owns it.' })
  side!: string;

  @ApiProperty({ description: 'Where it is: "hex", "carried", "towed", "box" or "eliminated" ("unknown" when the system does not say).' })
  at!: string;

  @ApiProperty({ type: String, nullable: true, description: 'Its hex, when on the map.' })
  hex!: string | null;

  @ApiProperty({ type: [String], description: 'The units carrying or towing it, if any.' })
  heldBy!: string[];

  @ApiProperty({ type: String, nullable: true, description: 'The off-map box it is in, if any.' })
  box!: string | null;

  @ApiProperty(systemJson('Its visible state flags, e.g. disrupted, fired'))
  flags!: unknown;

  @ApiProperty(systemJson('Its visible values, e.g. steps left, setup zone'))
  values!: unknown;

  @ApiProperty({ type: String, nullable: true, description: 'On your own concealed unit: the marker the other sides see instead of it.' })
  concealedAs!: string | null;
}

export class MarkerViewDto {
  @ApiProperty({ description: 'The hex the marker is on.' })
  hex!: string;

  @ApiProperty({ description: 'The marker\'s face.', example: '?' })
  marker!: string;

  @ApiProperty({ description: 'The side that owns what is under it.' })
  side!: string;
}

export class StackViewDto {
  @ApiProperty({ description: 'The hex.' })
  hex!: string;

  @ApiProperty({ type: [String], description: 'The visible units there, in the engine\'s order.' })
  unitIds!: string[];

  @ApiProperty({ type: [MarkerViewDto], description: 'Concealment markers there, your own included.' })
  markers!: MarkerViewDto[];
}

export class BoardViewDto {
  @ApiProperty({ type: 'integer', description: 'The version of the game the board shows: the one asked for (atVersion) rounded up to the end of the change that wrote it, as a board is never shown halfway through one; the current version when none was asked for. The same as game.version.' })
  version!: number;

  @ApiProperty({ type: GameDto, description: 'The game at the version shown.' })
  game!: GameDto;

  @ApiProperty({ type: BoardMapDto, nullable: true, description: 'The scenario\'s map: hexes and terrain (public). Null for a system without a kernel map.' })
  map!: BoardMapDto | null;

  @ApiProperty({ type: [UnitViewDto], description: 'The units you may see.' })
  units!: UnitViewDto[];

  @ApiProperty({ type: [StackViewDto], description: 'Visible units and markers grouped by hex, ordered by hex.' })
  stacks!: StackViewDto[];

  @ApiProperty({ type: [MarkerViewDto], description: 'Concealment markers on the map, the same for every reader: the other sides\' over units you may not see, and your own over yours (what the others see of them).' })
  markers!: MarkerViewDto[];

  @ApiProperty({ type: String, nullable: true, description: 'Time of day of the current turn, if the scenario has one.' })
  timeOfDay!: string | null;

  @ApiProperty({ ...systemJson('Your side\'s own secrets: standing orders, sealed orders, notes, and in a reaction window asked of your side its choices (reaction.details); null for a spectator. Once the game has ended, every side\'s, keyed by side, for every reader'), nullable: true })
  own!: unknown;

  @ApiProperty({ ...systemJson('The whole view exactly as the game system produced it for you'), nullable: true })
  raw!: unknown;
}

export class ViolationDto {
  @ApiProperty({ description: 'The rule it breaks.', example: 'GT-6C.2' })
  ruleId!: string;

  @ApiProperty({ description: 'Namespaced machine code.', example: 'movement/zoc_stop' })
  code!: string;

  @ApiProperty({ description: 'What is wrong, for people.' })
  message!: string;

  @ApiProperty({ type: 'integer', nullable: true, description: 'Index of the offending order in the submission; null for the submission as a whole.' })
  orderIndex!: number | null;

  @ApiProperty({ type: String, nullable: true, description: 'The one counter a violation of the whole submission is about (an unplaced unit, a helicopter on the wrong ship, a firer an answer names); null when it names an order (see orderIndex) or no single counter.' })
  unit!: string | null;
}

export class ReachableHexDto {
  @ApiProperty({ description: 'The hex.' })
  hex!: string;

  @ApiProperty({ description: 'Movement points it costs to get there.' })
  cost!: number;

  @ApiProperty({ type: [String], description: 'The cheapest path, excluding the start hex.' })
  path!: string[];

  @ApiProperty({ type: [String], required: false, description: "Units the move order must take along in its `with` (a gun's other towers, GT-6K.5); absent when the unit moves alone." })
  with?: string[];
}

export class AttackOptionDto {
  @ApiProperty({ description: 'The hex attacked.' })
  targetHex!: string;

  @ApiProperty({ type: [String], description: 'The visible units there.' })
  targetIds!: string[];

  @ApiProperty({ ...systemJson('Odds or hit preview from what your side can see: strength, defense, odds column, modifiers; `{ "concealed": true }` when what defends, or as what, is hidden from you'), nullable: true })
  preview!: unknown;
}

export class UnitOptionsDto {
  @ApiProperty({ description: 'The unit.' })
  unitId!: string;

  @ApiProperty({ type: [ReachableHexDto], description: 'Hexes it can move to, with their costs.' })
  moves!: ReachableHexDto[];

  @ApiProperty({ type: [AttackOptionDto], description: 'Targets it can attack, each with an odds preview (with targetHex: only the attack on that hex).' })
  attacks!: AttackOptionDto[];

  @ApiProperty({
    type: 'array',
    nullable: true,
    items: { type: 'object', required: ['action'], properties: { action: { type: 'string' }, detail: { description: 'System-specific.' } } },
    description: 'Other actions the system offers, each with its details (system-specific); null when it offers none.',
  })
  other!: Array<{ action: string; detail: unknown }> | null;

  @ApiProperty({ type: [ViolationDto], deprecated: true, description: 'Always empty: a unit that is not yours is refused with 400 game/not_your_unit.' })
  violations!: ViolationDto[];
}

export class HistoryEventDto {
  @ApiProperty({ type: 'integer', description: 'Its version in the game\'s log.' })
  version!: number;

  @ApiProperty({ description: 'Past-tense event type.', example: 'UnitMoved' })
  type!: string;

  @ApiProperty(systemJson('Its data as you may see it'))
  data!: unknown;

  @ApiProperty({ type: String, format: 'date-time', description: 'When it happened.' })
  time!: string;
}

export class HistoryPhaseDto {
  @ApiProperty({ type: 'integer', description: 'Game turn.' })
  turn!: number;

  @ApiProperty({ description: 'Phase id.' })
  phase!: string;

  @ApiProperty({ description: 'How the sides acted: sequential, simultaneous or reaction.' })
  mode!: string;

  @ApiProperty({ type: [String], description: 'The sides that had to act.' })
  acting!: string[];

  @ApiProperty({ type: 'integer', description: 'The version of the event that opened it.' })
  fromVersion!: number;
}

export class HistoryPageDto {
  @ApiProperty({ type: [HistoryEventDto], description: 'The events of this page you may read, oldest first. A page covers `limit` versions of the log, so it may hold fewer events when some were hidden from you.' })
  events!: HistoryEventDto[];

  @ApiProperty({ type: [HistoryPhaseDto], description: 'The phases that began within this page.' })
  phases!: HistoryPhaseDto[];

  @ApiProperty({ type: String, nullable: true, description: 'Pass as `cursor` to read on; null at the end of the log.' })
  nextCursor!: string | null;
}

export class SideOptionsDto {
  @ApiProperty({
    type: 'array',
    items: { type: 'object', required: ['action'], properties: { action: { type: 'string' }, detail: { description: 'System-specific.' } } },
    description: 'Your side\'s orders that belong to no one unit (Gators!: a hex for Debris at setup, camouflage, guerrillas), each the order { kind: action, ...detail } the rules accept sent now (after your draft, if any); empty when there are none or it is not your turn.',
  })
  other!: Array<{ action: string; detail: unknown }>;
}
