import { Inject, Injectable } from '@nestjs/common';
import { BadInputError, DomainError } from '../../common/errors';
import { MAX_VERSION } from '../../event-store/event-store.types';
import { APP_CONFIG } from '../../config/config.module';
import type { AppConfig } from '../../config/config.schema';
import { CreateGame, CreateGameHandler } from '../../games/commands/create-game.handler';
import { type InvitationRecord, InvitationsHandler } from '../../games/commands/invitations.handler';
import { PlayerActionsHandler } from '../../games/commands/player-actions.handler';
import { CheckPhaseHandler } from '../../games/commands/check-phase.handler';
import { SubmitPhaseHandler } from '../../games/commands/submit-phase.handler';
import { GAME_CATALOG, GameCatalog } from '../../games/game-catalog';
import type { Outcome as DomainOutcome } from '../../games/outcome';
import { GameQueries } from '../../games/queries/game-queries';
import { assertNever } from '../../rules/engine/assert-never';
import { hexLabel } from '../../rules/model/schema/common';
import type { RawSubmission } from '../../rules/engine/types';
import { visibleTextProblem } from '../../common/visible-text';
import { charCount } from '../../common/text-length';
import { badCursor, decodeCursor, encodeCursor, isPositiveInt, isString, pageSize } from '../graphql/pagination';
import { onMap, publicMap, PublicMap } from '../scenarios/board-map';
import type { Scenario } from '../scenarios/scenario.model';
import type { BoardView, HistoryEvent, HistoryPhase, SideOptions, UnitOptions } from './board.model';
import type { Game, GameListing, PhaseState } from './game.model';
import { toBoardView, toEvent, toGame, toHistoryPhase, toListing, toOutcomeParts, toScenario, toUnitOptions, toViolation } from './presenters';

export type MyGamesFilterValue = 'awaiting' | 'active' | 'finished' | 'all';
export type PlayerAction = 'resign' | 'proposeUndo' | 'acceptUndo' | 'declineUndo' | 'startVacation' | 'endVacation';

export interface OutcomeParts {
  gameId: string;
  fromVersion: number;
  version: number;
  events: HistoryEvent[];
  phase: PhaseState;
}

export interface PhaseDraft {
  gameId: string;
  expectedVersion: number;
  kind: RawSubmission['kind'];
  orders: unknown;
}

export interface PhaseCheckParts {
  valid: boolean;
  version: number;
  violations: Array<ReturnType<typeof toViolation>>;
}

export interface Page<T> {
  items: T[];
  cursors: string[];
  hasMore: boolean;
}

/**
 * A time as the list hands it out (toISOString, years 1 to 9999): other date text that Date
 * reads may be one Postgres cannot hold, such as year 0 or -271821.
 */
const isIsoTime = (v: string): boolean => /^(?!0000)\d{4}-/.test(v) && !Number.isNaN(Date.parse(v)) && new Date(v).toISOString() === v;
/** A time and an id: where a newest-first list (games, open challenges) stopped. */
const isTimeIdCursor = (v: unknown): v is [string, string] => Array.isArray(v) && v.length === 2 && isString(v[0]) && isString(v[1]) && isIsoTime(v[0]);
/** A game's invitations: [game, createdAt, id] of the last one handed out. */
const isInvitationsCursor = (v: unknown): v is [string, string, string] => Array.isArray(v) && v.length === 3 && v.every(isString) && isIsoTime(v[1] as string);

/**
 * What the GraphQL resolvers and REST controllers share: calls into the games module with
 * the caller's player id, cursors and page caps, and the shaping of answers. It never reads
 * game data itself; every read goes through GameQueries, which applies the caller's view.
 */
@Injectable()
export class GamesApiService {
  constructor(
    private readonly queries: GameQueries,
    private readonly creator: CreateGameHandler,
    private readonly invitations: InvitationsHandler,
    private readonly submitter: SubmitPhaseHandler,
    private readonly checker: CheckPhaseHandler,
    private readonly actions: PlayerActionsHandler,
    @Inject(GAME_CATALOG) private readonly catalog: GameCatalog,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  get maxPageSize(): number {
    return this.config.api.maxPageSize;
  }

  scenarios(first: number | null | undefined, after: string | null | undefined) {
    const size = pageSize(first, this.maxPageSize);
    const all = this.queries.scenarios().map(toScenario);
    const from = decodeCursor('scenarios', after, isString);
    const start = from === undefined ? 0 : all.findIndex((s) => s.id === from) + 1;
    if (from !== undefined && start === 0) throw new BadInputError('request/bad_cursor', 'That cursor is not one this list handed out.', { field: 'after' });
    const items = all.slice(start, start + size);
    return { items, cursors: items.map((s) => encodeCursor('scenarios', s.id)), hasMore: start + size < all.length };
  }

  /** A scenario on offer: what new games are created from, not what an existing game plays (see gameScenario). */
  scenario(id: string) {
    const entry = this.catalog.get(id);
    return entry ? toScenario(entry) : null;
  }

  scenarioMap(id: string): PublicMap | null {
    const entry = this.catalog.get(id);
    return entry ? publicMap({ version: entry.version, data: entry.scenario }) : null;
  }

  /** The scenario a game plays, with its board, as the game recorded them. */
  async gameScenario(gameId: string, playerId: string): Promise<(Scenario & { map: PublicMap | null }) | null> {
    const scenario = await this.queries.scenario(gameId, playerId);
    return scenario ? { ...toScenario(scenario), map: publicMap(scenario) } : null;
  }

  /** The side the player holds in the game; refused to anyone else, as the game itself is. Needs no game system. */
  requireSide(gameId: string, playerId: string): Promise<string> {
    return this.queries.requireSide(gameId, playerId);
  }

  async game(gameId: string, playerId: string, atVersion?: number): Promise<Game> {
    return toGame(await this.queries.summary(gameId, playerId, checkVersion(atVersion)));
  }

  /** `asPlayed`: as the side saw it while the game ran, even if it has ended since. */
  async view(gameId: string, playerId: string, atVersion?: number, asPlayed = false): Promise<BoardView> {
    const { game, board, scenario } = await this.queries.view(gameId, playerId, checkVersion(atVersion), asPlayed);
    return toBoardView(toGame(game), board, scenario ? publicMap(scenario) : null);
  }

  /** `after`: the orders of a phase being written (see GameQueries.options); undefined: none. */
  async options(gameId: string, playerId: string, unitId: string, targetHex?: string | null, after?: unknown): Promise<UnitOptions> {
    if (!unitId || charCount(unitId) > 100) throw new BadInputError('request/bad_unit', 'unitId must be 1 to 100 characters.', { field: 'unitId' });
    const target = targetHex ?? undefined;
    if (target !== undefined && !hexLabel.safeParse(target).success) throw badTargetHex();
    const { scenario, options } = await this.queries.options(gameId, playerId, unitId, after ?? undefined);
    // The map is public (see publicMap), so refusing a hex off it tells nothing of the game.
    if (target !== undefined && scenario && !onMap(scenario, target)) throw badTargetHex();
    return toUnitOptions(options, target);
  }

  /** The side's orders of no one unit, now or after the drafted orders `after` (undefined: none). */
  async sideOptions(gameId: string, playerId: string, after?: unknown): Promise<SideOptions> {
    return { other: await this.queries.sideOptions(gameId, playerId, after ?? undefined) };
  }

  /** `after` is a history cursor; the page covers `first` versions of the log from there. */
  async history(gameId: string, playerId: string, first: number | null | undefined, after: string | null | undefined, fromVersion?: number | null, asPlayed = false) {
    const size = pageSize(first, this.maxPageSize, this.maxPageSize);
    const place = decodeCursor('history', after, isHistoryCursor);
    // Another game's cursor names a place in another log: paging from it here would be silently wrong.
    if (place && place[0] !== gameId) throw badCursor();
    const cursor = place?.[1];
    // Both name where the page starts; one of them was silently ignored.
    if (cursor !== undefined && fromVersion != null) throw new BadInputError('request/invalid', 'Give either fromVersion or a cursor (after; cursor over REST), not both: each says where the page starts.', { field: 'fromVersion' });
    const from = cursor ?? checkVersion(fromVersion ?? undefined, 'fromVersion') ?? 1;
    const page = await this.queries.history(gameId, playerId, from, size, asPlayed).catch((err: unknown) => {
      // Past the game's next version, a cursor was not handed out by this game: the refusal of
      // fromVersion would name a field the client never sent.
      throw cursor !== undefined && err instanceof DomainError && err.code === 'game/no_such_version' ? badCursor() : err;
    });
    const events = page.events.map(toEvent);
    const phases: HistoryPhase[] = page.phases.map(toHistoryPhase);
    return { events, phases, cursors: events.map((e) => encodeCursor('history', [gameId, e.version + 1])), nextVersion: page.nextVersion, nextCursor: page.nextVersion ? encodeCursor('history', [gameId, page.nextVersion]) : null };
  }

  /** A finished game's whole log: one JSON document, the same over REST and GraphQL. */
  exportGame(gameId: string, playerId: string) {
    return this.queries.export(gameId, playerId);
  }

  async myGames(playerId: string, filter: MyGamesFilterValue, first: number | null | undefined, after: string | null | undefined): Promise<Page<GameListing>> {
    const size = pageSize(first, this.maxPageSize);
    const from = decodeCursor('games', after, isTimeIdCursor);
    const page = await this.queries.myGames(playerId, filter, size, from ? { updatedAt: new Date(from[0]), id: from[1] } : undefined);
    const items = page.items.map(toListing);
    return { items, cursors: items.map((g) => encodeCursor('games', [g.updatedAt.toISOString(), g.id])), hasMore: page.hasMore };
  }

  async createGame(cmd: CreateGame, playerId: string): Promise<{ gameId: string; version: number; seedCommitment: string }> {
    // A blank title was quietly replaced by the scenario's name; omitting it is how to ask for that.
    if (cmd.title !== undefined && (charCount(cmd.title) > 200 || cmd.title.trim() === '')) {
      throw new BadInputError('game/bad_title', 'title must be 1 to 200 characters, not all blank; omit it to use the scenario\'s name.', { field: 'title' });
    }
    const problem = cmd.title === undefined ? null : visibleTextProblem(cmd.title.trim());
    if (problem) throw new BadInputError('game/bad_title', `title ${problem}; omit it to use the scenario's name.`, { field: 'title' });
    return this.creator.execute(cmd, playerId);
  }

  invite(gameId: string, side: string, kind: 'token' | 'open', playerId: string, expiresInHours?: number) {
    return this.invitations.invite(gameId, side, kind, playerId, expiresInHours);
  }

  async gameInvitations(gameId: string, playerId: string, first: number | null | undefined, after: string | null | undefined): Promise<Page<InvitationRecord>> {
    const size = pageSize(first, this.maxPageSize);
    const from = decodeCursor('invitations', after, isInvitationsCursor);
    // Another game's cursor: it would page this game's list from another's place in time.
    if (from && from[0] !== gameId) throw badCursor();
    const page = await this.invitations.list(gameId, playerId, size, from ? { createdAt: new Date(from[1]), id: from[2] } : undefined);
    return { items: page.items, cursors: page.items.map((r) => encodeCursor('invitations', [gameId, r.createdAt.toISOString(), r.invitationId])), hasMore: page.hasMore };
  }

  withdrawInvitation(gameId: string, invitationId: string, playerId: string) {
    if (!invitationId || charCount(invitationId) > 100) throw new BadInputError('request/bad_invitation', 'invitationId must be 1 to 100 characters.', { field: 'invitationId' });
    return this.invitations.withdraw(gameId, invitationId, playerId);
  }

  async openChallenges(first: number | null | undefined, after: string | null | undefined) {
    const size = pageSize(first, this.maxPageSize);
    const from = decodeCursor('challenges', after, isTimeIdCursor);
    const rows = await this.invitations.openChallenges(size + 1, from ? { createdAt: new Date(from[0]), id: from[1] } : undefined);
    const items = rows.slice(0, size);
    return { items, cursors: items.map((r) => encodeCursor('challenges', [r.createdAt.toISOString(), r.invitationId])), hasMore: rows.length > size };
  }

  join(by: { token?: string | null; invitationId?: string | null }, playerId: string) {
    if (by.token && by.invitationId) throw new BadInputError('invitation/ambiguous', 'Give either token or invitationId, not both.');
    if (by.token) return this.invitations.join({ token: by.token }, playerId);
    if (by.invitationId) return this.invitations.join({ invitationId: by.invitationId }, playerId);
    throw new BadInputError('invitation/missing', 'Give the invitation token, or the id of an open challenge.', { field: 'token' });
  }

  async submit(cmd: PhaseDraft & { idempotencyKey: string }, playerId: string): Promise<OutcomeParts> {
    const outcome = await this.submitter.execute({ ...draft(cmd), idempotencyKey: cmd.idempotencyKey }, playerId);
    return toOutcomeParts(outcome);
  }

  /** A submission's checks without the submission (see CheckPhaseHandler). */
  async check(cmd: PhaseDraft, playerId: string): Promise<PhaseCheckParts> {
    const checked = await this.checker.execute(draft(cmd), playerId);
    return { valid: checked.valid, version: checked.version, violations: checked.violations.map(toViolation) };
  }

  async act(action: PlayerAction, gameId: string, expectedVersion: number, playerId: string): Promise<OutcomeParts> {
    checkExpectedVersion(expectedVersion);
    let outcome: DomainOutcome;
    switch (action) {
      case 'resign':
        outcome = await this.actions.resign(gameId, expectedVersion, playerId);
        break;
      case 'proposeUndo':
        outcome = await this.actions.proposeUndo(gameId, expectedVersion, playerId);
        break;
      case 'acceptUndo':
        outcome = await this.actions.answerUndo(gameId, expectedVersion, playerId, true);
        break;
      case 'declineUndo':
        outcome = await this.actions.answerUndo(gameId, expectedVersion, playerId, false);
        break;
      case 'startVacation':
        outcome = await this.actions.startVacation(gameId, expectedVersion, playerId);
        break;
      case 'endVacation':
        outcome = await this.actions.endVacation(gameId, expectedVersion, playerId);
        break;
      default:
        return assertNever(action);
    }
    return toOutcomeParts(outcome);
  }
}

/** What submitting and checking read from the request alike, so the two refuse bad input alike. */
function draft(cmd: PhaseDraft) {
  if (cmd.orders === undefined) throw new BadInputError('orders/malformed', 'orders is required.', { field: 'orders' });
  return { gameId: cmd.gameId, expectedVersion: checkExpectedVersion(cmd.expectedVersion), submission: { kind: cmd.kind, orders: cmd.orders } };
}

const isVersion = (v: unknown): v is number => isPositiveInt(v) && v <= MAX_VERSION;
const isHistoryCursor = (v: unknown): v is [string, number] => Array.isArray(v) && v.length === 2 && isString(v[0]) && isVersion(v[1]);

/** A filter that silently matched nothing told the client its attack had no preview, not that it named no hex. */
const badTargetHex = () => new BadInputError('request/bad_hex', 'targetHex must be a hex of the map, column then row, e.g. "0507".', { field: 'targetHex' });

function checkVersion(v: number | undefined, field: 'atVersion' | 'fromVersion' | 'expectedVersion' = 'atVersion', min = 1): number | undefined {
  if (v === undefined || v === null) return undefined;
  // Versions are Postgres integers: a larger number would fail in the query, as a 500.
  if (!Number.isInteger(v) || v < min || v > MAX_VERSION) throw new BadInputError('request/bad_version', `${field} is a whole number from ${min} to ${MAX_VERSION}.`, { field });
  return v;
}

/**
 * GraphQL's Int admits negative numbers, which no game ever is at: without this the answer was
 * a version conflict "not the expected -1" rather than the bad argument it is. (REST's DTO says
 * the same first.) 0 is a game before its first event.
 */
function checkExpectedVersion(v: number): number {
  return checkVersion(v, 'expectedVersion', 0) ?? v;
}
