import { INestApplicationContext, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ConfigModule } from '../../src/config/config.module';
import { DatabaseModule } from '../../src/database/database.module';
import { PrismaService } from '../../src/database/prisma.service';
import { EventStore } from '../../src/event-store/event-store.service';
import { catalogEntry } from '../../src/games/catalog-builder';
import { CreateGameHandler } from '../../src/games/commands/create-game.handler';
import { InvitationsHandler } from '../../src/games/commands/invitations.handler';
import { PlayerActionsHandler } from '../../src/games/commands/player-actions.handler';
import { SubmitPhaseHandler } from '../../src/games/commands/submit-phase.handler';
import { CheckPhaseHandler } from '../../src/games/commands/check-phase.handler';
import type { DiceSourceFactory } from '../../src/games/dice/dice-source';
import { seededSource } from '../../src/games/dice/server-dice';
import { CatalogEntry, StaticCatalog } from '../../src/games/game-catalog';
import type { Clock } from '../../src/games/game-clock';
import { GameLoader } from '../../src/games/game-loader';
import { GamesModule } from '../../src/games/games.module';
import { GameQueries } from '../../src/games/queries/game-queries';
import { DeadlineWorker } from '../../src/games/scheduler/deadline-worker';
import { testScenario } from '../../src/rules/testing/scenario-files';
import { testSystem } from '../../src/rules/testing/test-system';
import { configureLogger } from '../../src/logging/logger';
import { NotificationsModule } from '../../src/notifications/notifications.module';
import { testConfig, testRuntime, uniqueId } from './database';
import { isolatedDatabase, onPostgresServer } from './isolated-database';

/** A clock the test moves by hand. */
export class FakeClock implements Clock {
  private t: number;
  constructor(iso = '2026-12-01T09:00:00.000Z') {
    this.t = Date.parse(iso);
  }
  now(): Date {
    return new Date(this.t);
  }
  advance(ms: number): void {
    this.t += ms;
  }
}

/** Rolls forced by purpose (first match wins, each used once); the rest come from the seed. */
export function forcedDice(forced: Array<{ purpose?: RegExp; value: number }>): DiceSourceFactory {
  return (seed) => {
    const queue = [...forced];
    const fromSeed = seededSource(seed);
    return (n, sides, purpose) => {
      const i = queue.findIndex((f) => !f.purpose || f.purpose.test(purpose));
      if (i < 0) return fromSeed(n, sides, purpose);
      return queue.splice(i, 1)[0]!.value;
    };
  };
}

export const kernelTestEntry = (): CatalogEntry => catalogEntry(testScenario(), testSystem);

export interface GamesHarness {
  app: INestApplicationContext;
  prisma: PrismaService;
  clock: FakeClock;
  create: CreateGameHandler;
  invitations: InvitationsHandler;
  submit: SubmitPhaseHandler;
  check: CheckPhaseHandler;
  actions: PlayerActionsHandler;
  queries: GameQueries;
  loader: GameLoader;
  store: EventStore;
  worker: DeadlineWorker;
  player(name: string, timeZone?: string): Promise<string>;
  close(): Promise<void>;
}

export interface HarnessOptions {
  entries?: CatalogEntry[];
  dice?: DiceSourceFactory;
  clock?: FakeClock;
  poolMax?: number;
  /** Another database than the shared test database (see workerDatabase). */
  databaseUrl?: string;
  /** With the notifications module: commits write their outbox rows (no worker sends them). */
  notifications?: boolean;
  /** Environment variables over the test configuration's. */
  env?: Record<string, string>;
}

/**
 * A database of its own for a test that runs the deadline worker with a clock of its own: a
 * worker claims every due job in its database, and on the shared one it would fire other test
 * files' deadlines. On the embedded database (one connection, tests run one at a time) the
 * shared database is used.
 */
export async function workerDatabase(label: string): Promise<{ url: string | undefined; drop(): Promise<void> }> {
  if (!onPostgresServer) return { url: undefined, drop: async () => undefined };
  const db = await isolatedDatabase(label);
  return { url: db.url, drop: () => db.drop() };
}

/**
 * Runs fn with a games harness on a database and a clock of its own (for tests that run the
 * deadline worker), and drops both after it.
 */
export async function withOwnGames(
  label: string,
  fn: (h: GamesHarness, clock: FakeClock) => Promise<void>,
  start = '2026-12-10T09:00:00.000Z',
  options: Pick<HarnessOptions, 'notifications'> = {},
): Promise<void> {
  const clock = new FakeClock(start);
  const db = await workerDatabase(label);
  const h = await gamesHarness({ clock, databaseUrl: db.url, ...options });
  try {
    await fn(h, clock);
  } finally {
    await h.close();
    await db.drop();
  }
}

/** The code a command was refused with, or "accepted". */
export const refusalCode = (p: Promise<unknown>): Promise<string> => p.then(() => 'accepted', (e: { code?: string }) => e.code ?? String(e));

export async function gamesHarness(options: HarnessOptions = {}): Promise<GamesHarness> {
  const clock = options.clock ?? new FakeClock();
  const config = testConfig({ WORKERS_ENABLED: 'false', ...(options.databaseUrl ? { DATABASE_URL: options.databaseUrl } : {}), ...options.env });
  @Module({
    imports: [
      ConfigModule.forRoot(config),
      DatabaseModule.forRoot(options.databaseUrl ? { ...testRuntime(options.poolMax), url: options.databaseUrl } : testRuntime(options.poolMax)),
      GamesModule.register({
        catalog: new StaticCatalog(options.entries ?? [kernelTestEntry()]),
        clock,
        ...(options.dice ? { dice: options.dice } : {}),
        ...(options.notifications ? { imports: [NotificationsModule] } : {}),
      }),
    ],
  })
  class HarnessModule {}
  configureLogger('silent');
  const app = await NestFactory.createApplicationContext(HarnessModule, { logger: false });
  const prisma = app.get(PrismaService);
  return {
    app,
    prisma,
    clock,
    create: app.get(CreateGameHandler),
    invitations: app.get(InvitationsHandler),
    submit: app.get(SubmitPhaseHandler),
    check: app.get(CheckPhaseHandler),
    actions: app.get(PlayerActionsHandler),
    queries: app.get(GameQueries),
    loader: app.get(GameLoader),
    store: app.get(EventStore),
    worker: app.get(DeadlineWorker),
    async player(name, timeZone = 'Europe/Berlin') {
      const id = uniqueId('player');
      await prisma.player.create({ data: { id, email: `${id}@example.test`, displayName: name, timeZone } });
      return id;
    },
    close: () => app.close(),
  };
}
