import { Inject, Injectable } from '@nestjs/common';
import type { Tx } from '../database/prisma.service';
import { EventStore } from '../event-store/event-store.service';
import type { GameSystem } from '../rules/engine/types';
import { GAME_CATALOG, GameCatalog } from './game-catalog';
import type { GameEnvelope } from './game-envelope';
import { foldGame, GameCreatedData } from './game-fold';
import { gameNotFound, scenarioNotFound } from './games.errors';

export interface LoadedGame {
  state: GameEnvelope;
  version: number;
  system: GameSystem;
}

/** Rebuilds a game from its newest snapshot plus the events after it. */
@Injectable()
export class GameLoader {
  constructor(
    private readonly store: EventStore,
    @Inject(GAME_CATALOG) private readonly catalog: GameCatalog,
  ) {}

  async load(gameId: string, atVersion?: number, tx?: Tx): Promise<LoadedGame> {
    const snapshot = await this.store.latestSnapshot(gameId, atVersion, tx);
    const events = await this.store.readStream(gameId, (snapshot?.version ?? 0) + 1, atVersion, tx);
    let state = snapshot?.state as GameEnvelope | undefined;
    if (!state && events.length === 0) throw gameNotFound(gameId);
    const scenarioId = state?.scenarioId ?? (events[0]!.data as GameCreatedData).scenarioId;
    const system = this.systemFor(scenarioId);
    for (const e of events) state = foldGame(system, state, e as never);
    const version = events.length > 0 ? events[events.length - 1]!.version : snapshot!.version;
    return { state: state!, version, system };
  }

  systemFor(scenarioId: string): GameSystem {
    const entry = this.catalog.get(scenarioId);
    if (!entry) throw scenarioNotFound(scenarioId);
    return entry.system;
  }
}
