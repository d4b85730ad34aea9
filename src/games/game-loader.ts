import { Inject, Injectable } from '@nestjs/common';
import type { Tx } from '../database/prisma.service';
import type { StoredEvent } from '../event-store/event-store.types';
import { EventStore } from '../event-store/event-store.service';
import type { GameSystem, SideId } from '../rules/engine/types';
import { GAME_CATALOG, GameCatalog } from './game-catalog';
import type { GameEnvelope } from './game-envelope';
import { foldAppEvent, foldGame, GameCreatedData } from './game-fold';
import { gameNotFound, systemUnavailable } from './games.errors';
import { requireSide, viewerFor } from './seats';
import { StandingOrdersStore, StoredStanding } from './standing-orders-store';
import { withStandingOrders } from './standing-overlay';

export interface LoadedGame {
  state: GameEnvelope;
  version: number;
  system: GameSystem;
}

// A Gators! state is a few hundred kilobytes (it carries its scenario), so keep the cache small.
const CACHE_SIZE = 100;

/**
 * Rebuilds a game from its newest snapshot plus the events after it. The latest state of
 * recently used games is also kept in memory: the log is append-only, so a state once folded
 * for version N stays right, and only the events after N need reading. Folded states are never
 * mutated (the fold returns new objects), so sharing them is safe.
 *
 * The game as it stands now also carries each side's standing orders, which live beside the log
 * (StandingOrdersStore), read afresh at every load: they change without a new version, so no
 * state keyed by version may hold them. The cache and the snapshots hold the log's state only
 * (logState gives it back for a commit to fold on), and a past version is the log's alone.
 */
@Injectable()
export class GameLoader {
  private readonly recent = new Map<string, { version: number; state: GameEnvelope }>();
  /** Each state this loader laid standing orders over, to the log's state beneath it. */
  private readonly beneath = new WeakMap<GameEnvelope, GameEnvelope>();

  constructor(
    private readonly store: EventStore,
    @Inject(GAME_CATALOG) private readonly catalog: GameCatalog,
    private readonly standing: StandingOrdersStore,
  ) {}

  async load(gameId: string, atVersion?: number, tx?: Tx): Promise<LoadedGame> {
    return this.read(gameId, atVersion, tx);
  }

  /**
   * The game, read for a player. One who may not see it (see viewerFor) is told it is not there
   * before anything needs its game system: a game the server lacks the system of would otherwise
   * answer "unavailable, played with system X" to a stranger, and so give away that it exists.
   * What they may see is then checked again, with the whole game, by the caller.
   */
  async loadFor(gameId: string, playerId: string, atVersion?: number): Promise<LoadedGame> {
    return this.read(gameId, atVersion, undefined, playerId);
  }

  /**
   * The side the player holds in the game now. Seats fold without the game's system, so this
   * answers while the server lacks it; anyone without a seat is refused as seats.ts's requireSide refuses them.
   */
  async requireSide(gameId: string, playerId: string): Promise<SideId> {
    const { state, events } = await this.newest(gameId);
    return requireSide(foldSeats(state, events), playerId);
  }

  private async read(gameId: string, atVersion: number | undefined, tx: Tx | undefined, playerId?: string): Promise<LoadedGame> {
    // Now, not at a past version: read beside the log's rows (a transaction runs one query at a time).
    const standing = atVersion === undefined && !tx ? this.standing.read(gameId) : undefined;
    standing?.catch(() => undefined); // a game that is not there, or not for this player, never awaits it
    const { cached, state: base, baseVersion, events } = await this.newest(gameId, atVersion, tx);
    let state = base;
    const systemId = state?.systemId ?? (events[0]!.data as GameCreatedData).systemId;
    const system = this.catalog.system(systemId);
    if (!system) {
      if (playerId !== undefined) viewerFor(foldSeats(state, events), playerId);
      throw systemUnavailable(systemId);
    }
    for (const e of events) state = foldGame(system, state, e as never);
    const version = events.length > 0 ? events[events.length - 1]!.version : baseVersion;
    if (atVersion === undefined || version >= (cached?.version ?? 0)) this.remember(gameId, version, state!);
    if (atVersion === undefined) state = this.overlay(system, state!, await (standing ?? this.standing.read(gameId, tx)));
    return { state: state!, version, system };
  }

  /** The newest state held or snapshotted (up to atVersion) and the events after it, unfolded. */
  private async newest(gameId: string, atVersion?: number, tx?: Tx) {
    const cached = this.recent.get(gameId);
    const usable = cached && (atVersion === undefined || cached.version <= atVersion) ? cached : undefined;
    const base = usable ?? (await this.store.latestSnapshot(gameId, atVersion, tx));
    const events = await this.store.readStream(gameId, (base?.version ?? 0) + 1, atVersion, tx);
    if (!base && events.length === 0) throw gameNotFound(gameId);
    return { cached, state: base?.state as GameEnvelope | undefined, baseVersion: base?.version ?? 0, events };
  }

  /** A game `held` hands out, with the standing orders of now laid over it, as load does. */
  async current(game: LoadedGame): Promise<LoadedGame> {
    return { ...game, state: this.overlay(game.system, game.state, await this.standing.read(game.state.id)) };
  }

  /**
   * The state the log alone gives, beneath the standing orders a load laid over it: what a
   * commit folds its events on, and so what is cached and snapshotted.
   */
  logState(state: GameEnvelope): GameEnvelope {
    return this.beneath.get(state) ?? state;
  }

  /**
   * Each stored side's orders set as the engine sets them (its StandingOrdersSet, which older
   * games hold in their log): a row replaces what the log says; a side without one keeps it.
   */
  private overlay(system: GameSystem, state: GameEnvelope, stored: StoredStanding): GameEnvelope {
    const sides = Object.keys(stored);
    if (state.rules === undefined || sides.length === 0) return state;
    const over = { ...state, rules: withStandingOrders(system, state.rules, stored) };
    this.beneath.set(over, this.logState(state));
    return over;
  }

  /**
   * The game at exactly this version, if this process holds it; no read. Not while the server
   * lacks its system: a load then judges first who is asking. The log's state only: `current`
   * adds the standing orders.
   */
  held(gameId: string, version: number): LoadedGame | undefined {
    const cached = this.recent.get(gameId);
    if (!cached || cached.version !== version) return undefined;
    const system = this.catalog.system(cached.state.systemId);
    return system ? { state: cached.state, version, system } : undefined;
  }

  /**
   * A game carries its scenario data (the first rules event), so it needs only the system that
   * plays it: not the catalog entry it was created from, which may have changed or gone since.
   */
  systemFor(systemId: string): GameSystem {
    const system = this.catalog.system(systemId);
    if (!system) throw systemUnavailable(systemId);
    return system;
  }

  /** A state this process folded for a version it knows is committed. */
  remember(gameId: string, version: number, folded: GameEnvelope): void {
    const state = this.logState(folded);
    if ((this.recent.get(gameId)?.version ?? -1) > version) return;
    this.recent.delete(gameId);
    this.recent.set(gameId, { version, state });
    if (this.recent.size > CACHE_SIZE) this.recent.delete(this.recent.keys().next().value!);
  }
}

/** Seats and options, folded without the game's system (the rules state, left behind, is not read). */
function foldSeats(state: GameEnvelope | undefined, events: readonly StoredEvent[]): GameEnvelope {
  return events.reduce((s, e) => (e.meta.source === 'rules' ? s : foldAppEvent(s, e)), state)!;
}
