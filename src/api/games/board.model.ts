import { Field, Float, Int, ObjectType } from '@nestjs/graphql';
import { GraphQLJSON } from '../graphql/json.scalar';
import { BoardMap } from '../scenarios/scenario.model';
import { Game } from './game.model';

@ObjectType({ description: 'A unit as your side may see it: your own in full, the enemy\'s only when not concealed.' })
export class UnitView {
  @Field({ description: 'Unit id.' })
  id!: string;

  @Field({ description: 'Unit type id from the scenario.' })
  type!: string;

  @Field({ description: 'The side that owns it.' })
  side!: string;

  @Field({ description: 'Where it is: "hex", "carried", "towed", "box" or "eliminated".' })
  at!: string;

  @Field(() => String, { nullable: true, description: 'Its hex, when on the map.' })
  hex!: string | null;

  @Field(() => [String], { description: 'The units carrying or towing it, if any.' })
  heldBy!: string[];

  @Field(() => String, { nullable: true, description: 'The off-map box it is in, if any.' })
  box!: string | null;

  @Field(() => GraphQLJSON, { description: 'Its visible state flags (system-specific), e.g. disrupted, fired.' })
  flags!: unknown;

  @Field(() => GraphQLJSON, { description: 'Its visible values (system-specific), e.g. steps left, setup zone.' })
  values!: unknown;

  @Field(() => String, { nullable: true, description: 'On your own concealed unit: the marker the other sides see instead of it.' })
  concealedAs!: string | null;
}

@ObjectType({ description: 'A concealment marker: the enemy sees this, not the units under it.' })
export class MarkerView {
  @Field({ description: 'The hex the marker is on.' })
  hex!: string;

  @Field({ description: 'The marker\'s face, e.g. "?".' })
  marker!: string;

  @Field({ description: 'The side that owns what is under it.' })
  side!: string;
}

@ObjectType({ description: 'Everything your side sees in one hex.' })
export class StackView {
  @Field({ description: 'The hex.' })
  hex!: string;

  @Field(() => [String], { description: 'The visible units there, in the engine\'s order.' })
  unitIds!: string[];

  @Field(() => [MarkerView], { description: 'Concealment markers there, your own included.' })
  markers!: MarkerView[];
}

@ObjectType({ description: 'The board as your side sees it, at the version it names.' })
export class BoardView {
  @Field(() => Int, { description: 'The version of the game the board shows: the one asked for (atVersion) rounded up to the end of the change that wrote it, as a board is never shown halfway through one; the current version when none was asked for. The same as game.version, unless the view names an atVersion of its own.' })
  version!: number;

  @Field(() => Game, { description: 'The game at the version shown.' })
  game!: Game;

  @Field(() => BoardMap, { nullable: true, description: 'The scenario\'s map: hexes and terrain (public). Null for a system without a kernel map.' })
  map!: unknown;

  @Field(() => [UnitView], { description: 'The units you may see.' })
  units!: UnitView[];

  @Field(() => [StackView], { description: 'Visible units and markers grouped by hex.' })
  stacks!: StackView[];

  @Field(() => [MarkerView], { description: 'Concealment markers on the map, the same for every reader: the other sides\' over units you may not see, and your own over yours (what the others see of them).' })
  markers!: MarkerView[];

  @Field(() => String, { nullable: true, description: 'Time of day of the current turn, if the scenario has one.' })
  timeOfDay!: string | null;

  @Field(() => GraphQLJSON, { nullable: true, description: 'Your side\'s own secrets: standing orders, sealed orders, notes, and in a reaction window asked of your side its choices (reaction.details); null for a spectator. Once the game has ended, every side\'s, keyed by side, for every reader.' })
  own!: unknown;

  @Field(() => GraphQLJSON, { description: 'The whole view exactly as the game system produced it for you (system-specific).' })
  raw!: unknown;
}

@ObjectType({ description: 'A rules violation.' })
export class Violation {
  @Field({ description: 'The rule it breaks, e.g. "GT-6C.2".' })
  ruleId!: string;

  @Field({ description: 'Namespaced machine code, e.g. "movement/zoc_stop".' })
  code!: string;

  @Field({ description: 'What is wrong, for people.' })
  message!: string;

  @Field(() => Int, { nullable: true, description: 'Index of the offending order in the submission; null for the submission as a whole.' })
  orderIndex!: number | null;

  @Field(() => String, { nullable: true, description: 'The one counter a violation of the whole submission is about (an unplaced unit, a helicopter on the wrong ship, a firer an answer names); null when it names an order (see orderIndex) or no single counter.' })
  unit!: string | null;
}

@ObjectType({ description: 'A hex a unit can reach this phase.' })
export class ReachableHex {
  @Field({ description: 'The hex.' })
  hex!: string;

  @Field(() => Float, { description: 'Movement points it costs to get there.' })
  cost!: number;

  @Field(() => [String], { description: 'The cheapest path, excluding the start hex.' })
  path!: string[];

  @Field(() => [String], { nullable: true, description: "Units the move order must take along in its `with` (a gun's other towers, GT-6K.5); null when the unit moves alone." })
  with?: string[] | null;
}

@ObjectType({ description: 'A target a unit can attack, with a preview of the odds.' })
export class AttackOption {
  @Field({ description: 'The hex attacked.' })
  targetHex!: string;

  @Field(() => [String], { description: 'The visible units there.' })
  targetIds!: string[];

  @Field(() => GraphQLJSON, { description: 'Odds or hit preview from what your side can see (system-specific: strength, defense, odds column, modifiers); `{ "concealed": true }` when what defends, or as what, is hidden from you.' })
  preview!: unknown;
}

@ObjectType({ description: 'What one of your units can do now.' })
export class UnitOptions {
  @Field({ description: 'The unit.' })
  unitId!: string;

  @Field(() => [ReachableHex], { description: 'Hexes it can move to, with their costs.' })
  moves!: ReachableHex[];

  @Field(() => [AttackOption], { description: 'Targets it can attack, each with an odds preview.' })
  attacks!: AttackOption[];

  @Field(() => GraphQLJSON, { nullable: true, description: 'Other actions the system offers (system-specific).' })
  other!: unknown;

  @Field(() => [Violation], {
    description: 'Always empty: a unit that is not yours is refused with BAD_USER_INPUT (game/not_your_unit).',
    deprecationReason: 'A unit that is not yours is an error (game/not_your_unit), not an empty answer.',
  })
  violations!: Violation[];
}

@ObjectType({ description: "Your side's orders that belong to no one unit (Gators!: a hex to place Debris in at setup, to camouflage, to raise guerrillas in)." })
export class SideOptions {
  @Field(() => GraphQLJSON, { description: 'Each as { action, detail }: the order { kind: action, ...detail }, one the rules accept sent now (after your draft, if you gave one). Empty when there are none or it is not your turn.' })
  other!: Array<{ action: string; detail: unknown }>;
}

@ObjectType({ description: 'An event of the game\'s log as you may read it (redacted where your side may not see the details).' })
export class HistoryEvent {
  @Field(() => Int, { description: 'Its version in the game\'s log.' })
  version!: number;

  @Field({ description: 'Past-tense event type, e.g. "UnitMoved".' })
  type!: string;

  @Field(() => GraphQLJSON, { description: 'Its data as you may see it (system-specific).' })
  data!: unknown;

  @Field(() => Date, { description: 'When it happened.' })
  time!: Date;
}

@ObjectType({ description: 'A phase that began in the part of the log read.' })
export class HistoryPhase {
  @Field(() => Int, { description: 'Game turn.' })
  turn!: number;

  @Field({ description: 'Phase id.' })
  phase!: string;

  @Field({ description: 'How the sides acted: sequential, simultaneous or reaction.' })
  mode!: string;

  @Field(() => [String], { description: 'The sides that had to act.' })
  acting!: string[];

  @Field(() => Int, { description: 'The version of the event that opened it.' })
  fromVersion!: number;
}
