import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ConfigModule } from '../src/config/config.module';
import { loadConfig } from '../src/config/config.schema';
import { DatabaseModule } from '../src/database/database.module';
import { PrismaService } from '../src/database/prisma.service';
import { EventStore } from '../src/event-store/event-store.service';
import { CreateGameHandler } from '../src/games/commands/create-game.handler';
import { InvitationsHandler } from '../src/games/commands/invitations.handler';
import { SubmitPhaseHandler } from '../src/games/commands/submit-phase.handler';
import type { GameCatalog } from '../src/games/game-catalog';
import { PlayerActionsHandler } from '../src/games/commands/player-actions.handler';
import { GameLoader } from '../src/games/game-loader';
import { StandingOrdersStore } from '../src/games/standing-orders-store';
import { GamesModule } from '../src/games/games.module';
import { configureLogger } from '../src/logging/logger';
import { NotificationsModule } from '../src/notifications/notifications.module';

/**
 * The games module as the server wires it (with the notifications module: outbox rows and
 * reminder preferences are part of every commit) on a benchmark database, without HTTP. The
 * delivery and deadline workers are off: the benchmarks time commands, not background work.
 */
export async function gamesContext(url: string, catalog: GameCatalog, poolMax = 30) {
  configureLogger('silent');
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATABASE_URL: url, WORKERS_ENABLED: 'false', MIGRATE_ON_START: 'false' });
  @Module({ imports: [ConfigModule.forRoot(config), DatabaseModule.forRoot({ kind: 'postgres', url, poolMax, close: async () => undefined }), GamesModule.register({ catalog, imports: [NotificationsModule] })] })
  class BenchModule {}
  const app = await NestFactory.createApplicationContext(BenchModule, { logger: false });
  const prisma = app.get(PrismaService);
  let n = 0;
  return {
    app,
    prisma,
    store: app.get(EventStore),
    loader: app.get(GameLoader),
    create: app.get(CreateGameHandler),
    invitations: app.get(InvitationsHandler),
    submit: app.get(SubmitPhaseHandler),
    actions: app.get(PlayerActionsHandler),
    standing: app.get(StandingOrdersStore),
    async player(name: string): Promise<string> {
      n += 1;
      const id = `bench-${name}-${process.pid}-${n}`;
      await prisma.player.create({ data: { id, email: `${id}@example.test`, displayName: name, timeZone: 'UTC' } });
      return id;
    },
  };
}
