import { Field, ID, Int, ObjectType } from '@nestjs/graphql';
import { GraphQLJSON } from '../graphql/json.scalar';

@ObjectType({ description: 'A side of a scenario, e.g. the invader or the defender.' })
export class ScenarioSide {
  @Field(() => ID, { description: 'The side id used everywhere else (seats, acting sides, orders).' })
  id!: string;

  @Field({ description: 'The side\'s name for people.' })
  name!: string;
}

@ObjectType({ description: 'A scenario: one on offer, which games can be created from, or the one a game recorded when it was created.' })
export class Scenario {
  @Field(() => ID, { description: 'Scenario id, e.g. "gators-unnarstan".' })
  id!: string;

  @Field({ description: 'Changes whenever the scenario\'s data changes (a hash of its files).' })
  version!: string;

  @Field({ description: 'The scenario\'s name.' })
  name!: string;

  @Field({ description: 'What the scenario is about.' })
  description!: string;

  @Field({ description: 'The game system that plays it, e.g. "gators".' })
  system!: string;

  @Field(() => [ScenarioSide], { description: 'The sides, in the scenario\'s order.' })
  sides!: ScenarioSide[];

  @Field(() => Int, { description: 'How many game turns it lasts.' })
  turns!: number;
}

@ObjectType({ description: 'One hex of the board and its terrain.' })
export class BoardHex {
  @Field({ description: 'The hex label, CCRR (column then row, 1-based), e.g. "0405".' })
  hex!: string;

  @Field({ description: 'Terrain id from the scenario\'s terrain legend, e.g. "clear".' })
  terrain!: string;
}

@ObjectType({ description: 'The scenario\'s board: public, the same for every side.' })
export class BoardMap {
  @Field(() => Int, { description: 'Columns of the map rectangle.' })
  columns!: number;

  @Field(() => Int, { description: 'Rows of the map rectangle.' })
  rows!: number;

  @Field(() => [BoardHex], { description: 'Every on-map hex with its terrain (off-map cells are left out).' })
  hexes!: BoardHex[];

  @Field(() => GraphQLJSON, { description: 'The terrain legend: for each terrain id its name and medium.' })
  terrain!: unknown;

  @Field(() => GraphQLJSON, { description: 'Overlays: roads, rivers, bridges, cities, airfields and hexside features, as the scenario defines them.' })
  features!: unknown;
}
