import { Args, ID, Parent, Query, ResolveField, Resolver } from '@nestjs/graphql';
import { GamesApiService } from '../games/games-api.service';
import { connection, ConnectionType, PageArgs } from '../graphql/pagination';
import type { PublicMap } from './board-map';
import { BoardMap, Scenario } from './scenario.model';

const ScenarioConnection = ConnectionType(Scenario, 'Scenario', 'scenario');

/** The scenarios on offer. Public: no token needed. */
@Resolver(() => Scenario)
export class ScenariosResolver {
  constructor(private readonly games: GamesApiService) {}

  @Query(() => ScenarioConnection, { description: 'The scenarios games can be created from, with each one\'s system, sides, turns and description.' })
  scenarios(@Args() page: PageArgs) {
    const p = this.games.scenarios(page.first, page.after);
    return connection(p.items, p.cursors, p.hasMore);
  }

  @Query(() => Scenario, { nullable: true, description: 'One scenario by id; null if there is none.' })
  scenario(@Args('id', { type: () => ID, description: 'Scenario id.' }) id: string) {
    return this.games.scenario(id);
  }

  @ResolveField(() => BoardMap, { nullable: true, description: 'The scenario\'s board: hexes, terrain and overlays (public). Null for a system without a kernel map.' })
  map(@Parent() scenario: Scenario & { map?: PublicMap | null }) {
    // A game's scenario comes with the board the game recorded; one on offer has the catalog's.
    return scenario.map !== undefined ? scenario.map : this.games.scenarioMap(scenario.id);
  }
}
