import { DynamicModule, Module, Provider } from '@nestjs/common';
import { EventStoreModule } from '../event-store/event-store.module';
import { CreateGameHandler } from './commands/create-game.handler';
import { InvitationsHandler } from './commands/invitations.handler';
import { PlayerActionsHandler } from './commands/player-actions.handler';
import { CheckPhaseHandler } from './commands/check-phase.handler';
import { SubmitPhaseHandler } from './commands/submit-phase.handler';
import { DICE_SOURCE, DiceSourceFactory, seededDice } from './dice/dice-source';
import { GameSecrets } from './dice/game-secrets';
import { GAME_CATALOG, GameCatalog } from './game-catalog';
import { CLOCK, Clock, ID_GENERATOR, IdGenerator, randomIds, systemClock } from './game-clock';
import { GameCommitter } from './game-committer';
import { GameLoader } from './game-loader';
import { GameQueries } from './queries/game-queries';
import { DeadlineWorker } from './scheduler/deadline-worker';
import { JobRunner } from './scheduler/job-runner';
import { ReminderSchedule } from './scheduler/reminder-schedule';
import { StandingOrdersStore } from './standing-orders-store';

export interface GamesModuleOptions {
  catalog: GameCatalog;
  clock?: Clock;
  ids?: IdGenerator;
  dice?: DiceSourceFactory;
  /** Modules that provide NOTIFICATION_OUTBOX (notifications, and the players' reminder settings). */
  imports?: DynamicModule['imports'];
}

const handlers = [CreateGameHandler, InvitationsHandler, SubmitPhaseHandler, CheckPhaseHandler, PlayerActionsHandler, GameQueries];

/** Games: commands and their handlers, loading and committing, queries, and the deadline scheduler. */
@Module({})
export class GamesModule {
  static register(options: GamesModuleOptions): DynamicModule {
    const providers: Provider[] = [
      { provide: GAME_CATALOG, useValue: options.catalog },
      { provide: CLOCK, useValue: options.clock ?? systemClock },
      { provide: ID_GENERATOR, useValue: options.ids ?? randomIds },
      { provide: DICE_SOURCE, useValue: options.dice ?? seededDice },
      GameLoader,
      StandingOrdersStore,
      GameSecrets,
      GameCommitter,
      JobRunner,
      DeadlineWorker,
      ReminderSchedule,
      ...handlers,
    ];
    return {
      module: GamesModule,
      imports: [EventStoreModule, ...(options.imports ?? [])],
      providers,
      exports: [...handlers, GameLoader, DeadlineWorker, ReminderSchedule, GAME_CATALOG, CLOCK],
    };
  }
}
