import { canonical } from '../../common/canonical-json';
import { Inject, Injectable } from '@nestjs/common';
import { BadInputError, ConflictError } from '../../common/errors';
import { PrismaService } from '../../database/prisma.service';
import { EventStore } from '../../event-store/event-store.service';
import { MAX_VERSION } from '../../event-store/event-store.types';
import type { OtherOption, UnitOptions, Viewer } from '../../rules/engine/types';
import { GAME_CATALOG, GameCatalog } from '../game-catalog';
import { gameScenario, GameScenario } from '../scenario-facts';
import { illegalOrders, malformedOrders, noSuchVersion, notSeated, notYourUnit } from '../games.errors';
import { AppEvent, GameEnvelope } from '../game-envelope';
import { eventsFor, VisibleEvent } from '../game-events';
import { GameLoader, LoadedGame } from '../game-loader';
import { publicPhase, PublicPhase } from '../outcome';
import { sideOf, viewerFor } from '../seats';
import { StandingOrdersStore } from '../standing-orders-store';
import { listMyGames, MyGamesFilter } from './my-games.query';

export interface GameSummary extends PublicPhase {
  gameId: string;
  title: string;
  scenarioId: string;
  scenarioName: string;
  version: number;
  mySide: string | null;
  seats: Array<{ side: string; sideName: string; playerId: string | null; playerName: string | null }>;
  seedCommitment: string;
  /** Revealed once the game has ended. */
  seed: string | null;
  options: GameEnvelope['options'];
  pendingUndo: GameEnvelope['pendingUndo'];
  /** Read in full, as the referee (the game had ended): so is anything read with it at its version. */
  inFull: boolean;
}

export interface HistoryPhase {
  turn: number;
  phase: string;
  mode: string;
  acting: string[];
  fromVersion: number;
}

/** Reads. Every one goes through the viewer the player is entitled to, and the rules view. */
@Injectable()
export class GameQueries {
  constructor(
    private readonly prisma: PrismaService,
    private readonly store: EventStore,
    private readonly loader: GameLoader,
    private readonly standing: StandingOrdersStore,
    @Inject(GAME_CATALOG) private readonly catalog: GameCatalog,
  ) {}

  /** The scenarios new games can be created from. */
  scenarios() {
    return this.catalog.list();
  }

  async summary(gameId: string, playerId: string, atVersion?: number): Promise<GameSummary> {
    const { state, version, system, viewer } = await this.loadFor(gameId, playerId, atVersion);
    return this.summarise(state, version, system, viewer, playerId);
  }

  /** The side the player holds in the game (see GameLoader.requireSide: read without its game system). */
  requireSide(gameId: string, playerId: string): Promise<string> {
    return this.loader.requireSide(gameId, playerId);
  }

  /**
   * The game at a version (default: now) and who the player is in it. The seats are today's:
   * a player sees their side's past from before they sat down too. A stranger is refused before
   * anything is said about versions. A version inside a commit means the state after that
   * commit: halfway through one (a sealed setup being applied, say), the state holds what the
   * side never saw, such as which unit is still to be placed after a hidden one. Once the game
   * has ended, every version is read in full (the referee's view), as its history and export are;
   * `asPlayed` reads it as the side saw it then, for an answer that showed the game still running.
   */
  private async loadFor(gameId: string, playerId: string, atVersion?: number, asPlayed = false): Promise<LoadedGame & { viewer: Viewer }> {
    const now = await this.loader.loadFor(gameId, playerId);
    const viewer = viewerFor(now.state, playerId, asPlayed);
    if (atVersion === undefined || atVersion === now.version) return { ...now, viewer };
    if (atVersion > now.version) throw noSuchVersion('atVersion', atVersion, now.version);
    const seen = await this.store.commitEnd(gameId, atVersion);
    if (seen >= now.version) return { ...now, viewer };
    const then = await this.loader.load(gameId, seen);
    // Once the game has ended, every version of it is read in full, as its history and export are.
    return { ...then, viewer: now.state.status === 'finished' && !asPlayed ? viewer : viewerFor({ ...then.state, seats: now.state.seats }, playerId) };
  }

  /**
   * The board as the player's side sees it (at a past version, if asked: as the side saw it
   * then; after the end, in full unless `asPlayed`).
   */
  async view(gameId: string, playerId: string, atVersion?: number, asPlayed = false): Promise<{ game: GameSummary; board: unknown; scenario: GameScenario | null }> {
    const { state, version, system, viewer } = await this.loadFor(gameId, playerId, atVersion, asPlayed);
    // Canonical key order, so that a view's bytes never depend on how its state was built.
    const board = state.status === 'seating' && state.rules === undefined ? null : canonical(system.view(state.rules, viewer));
    return { game: await this.summarise(state, version, system, viewer, playerId), board, scenario: gameScenario(system, state) };
  }

  /** The scenario the game is played on, as it recorded it (its map is public, as every scenario's). */
  async scenario(gameId: string, playerId: string): Promise<GameScenario | null> {
    const { state, system } = await this.loader.loadFor(gameId, playerId);
    viewerFor(state, playerId);
    return gameScenario(system, state);
  }

  /**
   * What one of the side's units can do now, and the game's own scenario (for its map).
   * `after`: orders the player means to send first (a phase being written), as submitPhase takes
   * them; the options are then those after them. Read with the rules engine's parse and its check
   * of each order, as a submission's, so a draft is refused with the same violations.
   */
  async options(gameId: string, playerId: string, unitId: string, after?: unknown): Promise<{ scenario: GameScenario | null; options: UnitOptions }> {
    const { state, system, side, draft } = await this.forOptions(gameId, playerId, after);
    const out = system.options(state.rules, side, unitId, draft);
    if (Array.isArray(out)) throw notYourUnit(out);
    return { scenario: gameScenario(system, state), options: out };
  }

  /**
   * The side's orders that belong to no one unit (Gators!: a hex for Debris, camouflage or
   * guerrillas), now or after the orders of `after` (read as options() reads them).
   */
  async sideOptions(gameId: string, playerId: string, after?: unknown): Promise<OtherOption[]> {
    const { state, system, side, draft } = await this.forOptions(gameId, playerId, after);
    return system.sideOptions(state.rules, side, draft);
  }

  /** The game, the player's side (options are for a seated side of a game in progress only) and the draft, read. */
  private async forOptions(gameId: string, playerId: string, after: unknown) {
    const { state, system } = await this.loader.loadFor(gameId, playerId);
    const viewer = viewerFor(state, playerId);
    // Watching a game is no seat in it, at any moment of the game: not a conflict with that moment.
    if (viewer.kind === 'spectator') throw notSeated(gameId);
    if (viewer.kind !== 'side' || state.status !== 'active') throw new ConflictError('game/not_active', 'Options are only for a seated side of a game in progress.');
    return { state, system, side: viewer.side, draft: after === undefined ? undefined : readDraft(state.rules, system, viewer.side, after) };
  }

  /**
   * The events the player may read from `fromVersion`, and the phases they fall in: in full once
   * the game has ended, unless `asPlayed` (see viewerFor).
   */
  async history(gameId: string, playerId: string, fromVersion = 1, limit = 200, asPlayed = false): Promise<{ events: VisibleEvent[]; phases: HistoryPhase[]; nextVersion: number | null }> {
    if (!(Number.isInteger(fromVersion) && fromVersion >= 1 && fromVersion <= MAX_VERSION)) {
      throw new BadInputError('history/bad_version', `fromVersion must be a whole number from 1 to ${MAX_VERSION}.`);
    }
    const { state, version } = await this.loader.loadFor(gameId, playerId);
    const viewer = viewerFor(state, playerId, asPlayed);
    if (fromVersion > version + 1) throw noSuchVersion('fromVersion', fromVersion, version);
    const page = await this.store.readStream(gameId, fromVersion, Math.min(fromVersion + limit - 1, MAX_VERSION));
    const events = eventsFor(page, viewer).map(withoutScenarioData);
    const phases: HistoryPhase[] = [];
    for (const e of events) {
      const d = (e.data ?? {}) as Record<string, unknown>;
      if (e.type === AppEvent.DeadlineSet && !d['retimed'] && typeof d['phase'] === 'string') {
        phases.push({ turn: d['turn'] as number, phase: d['phase'], mode: d['mode'] as string, acting: d['sides'] as string[], fromVersion: e.version });
      }
    }
    // A full page that reached the version just loaded is the last one too: its size alone would
    // promise more that is not there.
    const last = page[page.length - 1];
    return { events, phases, nextVersion: page.length === limit && last && last.version < version ? last.version + 1 : null };
  }

  /**
   * The whole game in the open export format, once it has ended. Whoever may read the finished
   * game may export it (its players, and anyone if it admitted spectators): the export shows no
   * more than the referee's view that viewerFor gives them all after the end. Before the end the
   * log holds the sides' secrets and the unrevealed seed. With the log, each side's standing
   * orders as the game ended, which are kept beside it.
   */
  async export(gameId: string, playerId: string) {
    const { state, version, system } = await this.loader.loadFor(gameId, playerId);
    // First, so that a stranger learns nothing (not even that the game is still running).
    viewerFor(state, playerId);
    if (state.status !== 'finished') throw new ConflictError('game/not_finished', 'A game can be exported once it has ended.');
    const name = gameScenario(system, state)?.name ?? state.scenarioId;
    // Up to the version loaded, so that `game.version` is the last event's number.
    const events = await this.store.readStream(gameId, 1, version);
    const names = await this.names(state);
    return {
      format: 'fieldpost.game-export',
      formatVersion: 1,
      game: { id: state.id, title: state.title, version, result: canonical(state.result), options: canonical(state.options) },
      scenario: { id: state.scenarioId, version: state.scenarioVersion, system: state.systemId, name },
      seats: Object.entries(state.seats).map(([side, playerId]) => ({ side, playerId, playerName: playerId ? (names[playerId] ?? null) : null })),
      dice: { algorithm: 'HMAC-SHA256(seed, decimal roll number); 32-bit words with rejection; value = word mod sides + 1', seedCommitment: state.seedCommitment, seed: state.seed },
      events: events.map((e) => ({ version: e.version, type: e.type, data: e.data, meta: e.meta })),
      // Kept beside the log (StandingOrdersStore), so the log alone no longer has them.
      standingOrders: await this.standing.read(gameId),
    };
  }

  /** The player's games, newest activity first, with a keyset cursor. */
  myGames(playerId: string, filter: MyGamesFilter, limit: number, after?: { updatedAt: Date; id: string }) {
    return listMyGames(this.prisma, playerId, filter, limit, after);
  }

  private async summarise(state: GameEnvelope, version: number, system: ReturnType<GameLoader['systemFor']>, viewer: Viewer, playerId: string): Promise<GameSummary> {
    const scenario = gameScenario(system, state);
    const names = await this.names(state);
    return {
      gameId: state.id,
      title: state.title,
      scenarioId: state.scenarioId,
      scenarioName: scenario?.name ?? state.scenarioId,
      version,
      // The side the player reads as (at a past version, the seat they hold now), else theirs.
      mySide: viewer.kind === 'side' ? viewer.side : sideOf(state, playerId),
      seats: Object.entries(state.seats).map(([side, p]) => ({ side, sideName: scenario?.sides.find((s) => s.id === side)?.name ?? side, playerId: p, playerName: p ? (names[p] ?? null) : null })),
      seedCommitment: state.seedCommitment,
      seed: state.status === 'finished' ? state.seed : null,
      // Canonical, as the board: a view's bytes never depend on how its state was built.
      options: canonical(state.options),
      pendingUndo: canonical(state.pendingUndo),
      inFull: viewer.kind === 'referee',
      ...publicPhase(system, state),
    };
  }

  private async names(state: GameEnvelope): Promise<Record<string, string>> {
    const ids = Object.values(state.seats).filter((p): p is string => !!p);
    const players = await this.prisma.player.findMany({ where: { id: { in: ids } }, select: { id: true, displayName: true } });
    return Object.fromEntries(players.map((p) => [p.id, p.displayName]));
  }
}

/**
 * The rules engine's first event carries the whole scenario (map, units, tables) so that the
 * log is self-contained; a history page names the scenario instead. The export keeps it all.
 */
function withoutScenarioData(e: VisibleEvent): VisibleEvent {
  const d = e.data as { scenario?: { manifest?: { id?: string } } } | null;
  if (!d || typeof d !== 'object' || !d.scenario?.manifest) return e;
  return { ...e, data: { ...d, scenario: { id: d.scenario.manifest.id ?? null } } };
}

/**
 * A draft's orders, parsed and checked as a submission's would be. Out of turn nothing is offered
 * whatever the draft says (options are empty), so it is not read: no refusal for being out of turn.
 */
function readDraft(rules: LoadedGame['state']['rules'], system: LoadedGame['system'], side: string, after: unknown) {
  const phase = system.phase(rules);
  if (!phase.acting.includes(side) || phase.mode === 'reaction' || phase.mode === 'ended') return undefined;
  const parsed = system.parse(rules, side, { kind: 'orders', orders: after });
  if (!parsed.ok) throw malformedOrders(parsed.violations);
  const violations = system.validateDraft(rules, side, parsed.value);
  if (violations.length > 0) throw illegalOrders(violations);
  return parsed.value;
}
