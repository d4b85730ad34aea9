import { logger } from '../../logging/logger';
import type { HistoryEvent } from '../games/board.model';
import { GameStatus, READ_IN_FULL } from '../games/game.model';
import type { GamesApiService } from '../games/games-api.service';
import type { GameFeed } from './game-feed.service';
import type { GameUpdate } from './game-update.model';

/**
 * One subscriber's stream of updates for one game. Each update is built from GameQueries for
 * this subscriber only (the game summary, and the history since the last version delivered),
 * so a subscriber learns nothing its side could not read by querying.
 */
export class GameUpdates implements AsyncIterableIterator<GameUpdate> {
  private readonly queue: GameUpdate[] = [];
  private waiting: ((r: IteratorResult<GameUpdate>) => void) | null = null;
  private failed: ((err: unknown) => void) | null = null;
  /** A build that failed while nobody was waiting: it ends the stream after what was queued. */
  private failure: { err: unknown } | null = null;
  private done = false;
  /** The game has ended: nothing more can come, so the stream completes once what was built is read. */
  private ended = false;
  private latestSeen = 0;
  private building: Promise<void> = Promise.resolve();
  private unlisten: (() => void) | null = null;

  private constructor(
    private readonly gameId: string,
    private readonly playerId: string,
    private delivered: number,
    private readonly games: GamesApiService,
    /** Throws once the subscriber's token is revoked: checked before each update is built. */
    private readonly live: () => Promise<void>,
  ) {}

  /**
   * Starts listening, then looks at the game once more: it delivers at once if the game is past
   * `fromVersion`, including a change committed while the listener was being registered, which
   * the feed may have announced to nobody.
   */
  static async open(feed: GameFeed, games: GamesApiService, gameId: string, playerId: string, fromVersion: number, live: () => Promise<void>): Promise<GameUpdates> {
    const updates = new GameUpdates(gameId, playerId, fromVersion, games, live);
    updates.unlisten = await feed.listen(gameId, (v) => updates.changed(v));
    updates.enqueueBuild(true);
    return updates;
  }

  private changed(version: number): void {
    if (this.done || this.failure || version <= this.delivered || version <= this.latestSeen) return;
    this.latestSeen = version;
    this.enqueueBuild(false);
  }

  private enqueueBuild(lookAnyway: boolean): void {
    this.building = this.building.then(() => this.build(lookAnyway)).catch((err) => this.fail(err));
  }

  private async build(lookAnyway: boolean): Promise<void> {
    if (this.done || this.failure || (!lookAnyway && this.latestSeen <= this.delivered)) return;
    const game = await this.games.game(this.gameId, this.playerId);
    if (game.version <= this.delivered) return this.endIf(game.status);
    await this.live();
    this.latestSeen = Math.max(this.latestSeen, game.version);
    const events: HistoryEvent[] = [];
    let from: number | null = this.delivered + 1;
    while (from !== null && from <= game.version) {
      // Read as the game was when summarised: should it end meanwhile, the end's full replay
      // would otherwise fill an update that still shows the game running.
      const page = await this.games.history(this.gameId, this.playerId, null, null, from, !game[READ_IN_FULL]);
      events.push(...page.events.filter((e) => e.version <= game.version));
      from = page.nextVersion;
    }
    const update: GameUpdate = { gameId: this.gameId, fromVersion: this.delivered + 1, version: game.version, events, game };
    this.delivered = game.version;
    this.push(update);
    this.endIf(game.status);
  }

  /** An ended game's log takes no more events, so a subscriber waiting on it would wait for ever. */
  private endIf(status: GameStatus): void {
    if (status !== GameStatus.FINISHED || this.done) return;
    this.ended = true;
    this.unlisten?.();
    this.unlisten = null;
    if (this.queue.length === 0 && this.waiting) void this.return();
  }

  private push(update: GameUpdate): void {
    if (this.done) return;
    if (this.waiting) {
      const resolve = this.waiting;
      this.waiting = null;
      this.failed = null;
      resolve({ value: update, done: false });
    } else {
      this.queue.push(update);
    }
  }

  private fail(err: unknown): void {
    logger().warn({ err, gameId: this.gameId }, 'a game subscription failed');
    if (this.failed) {
      const reject = this.failed;
      this.waiting = null;
      this.failed = null;
      reject(err);
      void this.return();
      return;
    }
    // The consumer is busy (sending the last update): what was built still goes out, and then
    // the error, so that the client learns the stream broke rather than seeing it complete.
    this.failure = { err };
    this.unlisten?.();
    this.unlisten = null;
  }

  next(): Promise<IteratorResult<GameUpdate>> {
    if (this.queue.length) return Promise.resolve({ value: this.queue.shift()!, done: false });
    if (this.failure) {
      const { err } = this.failure;
      void this.return();
      return Promise.reject(err);
    }
    if (this.done) return Promise.resolve({ value: undefined, done: true });
    if (this.ended) return this.return();
    return new Promise((resolve, reject) => {
      this.waiting = resolve;
      this.failed = reject;
    });
  }

  return(): Promise<IteratorResult<GameUpdate>> {
    if (!this.done) {
      this.done = true;
      this.unlisten?.();
      this.unlisten = null;
      this.queue.length = 0;
      this.failure = null;
      this.waiting?.({ value: undefined, done: true });
      this.waiting = null;
      this.failed = null;
    }
    return Promise.resolve({ value: undefined, done: true });
  }

  throw(err?: unknown): Promise<IteratorResult<GameUpdate>> {
    void this.return();
    return Promise.reject(err);
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<GameUpdate> {
    return this;
  }
}
