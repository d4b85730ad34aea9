import { Controller, Get, Param, Query, UsePipes } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { NotFoundError } from '../../common/errors';
import { PageQuery } from '../games/games.dto';
import { GamesApiService } from '../games/games-api.service';
import { apiValidation } from '../http/validation';
import { ScenarioPageDto, ScenarioWithMapDto } from './scenarios.responses';

/** The scenarios on offer. Public: no token needed. */
@ApiTags('scenarios')
@UsePipes(apiValidation)
@Controller('api/v1/scenarios')
export class ScenariosController {
  constructor(private readonly games: GamesApiService) {}

  @Get()
  @ApiOkResponse({ type: ScenarioPageDto })
  @ApiOperation({ summary: 'The scenarios, with each one\'s system, sides, turns and description.' })
  list(@Query() q: PageQuery) {
    const p = this.games.scenarios(q.limit, q.cursor);
    return { items: p.items, nextCursor: p.hasMore ? p.cursors[p.cursors.length - 1]! : null };
  }

  @Get(':scenarioId')
  @ApiOkResponse({ type: ScenarioWithMapDto })
  @ApiNotFoundResponse({ description: 'No such scenario (problem document).' })
  @ApiOperation({ summary: 'One scenario with its board (hexes, terrain, overlays).' })
  one(@Param('scenarioId') id: string) {
    const s = this.games.scenario(id);
    if (!s) throw new NotFoundError('scenario/not_found', `No scenario "${id}".`);
    return { ...s, map: this.games.scenarioMap(id) };
  }
}
