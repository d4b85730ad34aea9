import { Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import { APP_CONFIG } from '../../config/config.module';
import type { AppConfig } from '../../config/config.schema';
import { PrismaService } from '../../database/prisma.service';
import { EventStore } from '../../event-store/event-store.service';
import type { Checkpoint } from '../../event-store/event-store.types';
import { logger } from '../../logging/logger';

type Listener = (version: number) => void;

const PAGE = 500;

/**
 * One follower of the event log per process, shared by every subscription. It reads
 * EventStore.readAll from a checkpoint (which never skips an event whose transaction commits
 * late), so it sees commits made by any server instance, and tells the listeners of each game
 * the newest version it saw. It follows only while someone listens, starting from the moment
 * the first listener arrives. It passes on game ids and versions only: what a subscriber
 * receives is built from GameQueries for that subscriber.
 */
@Injectable()
export class GameFeed implements OnModuleDestroy {
  private readonly log = logger().child({ component: 'subscriptions' });
  private readonly listeners = new Map<string, Set<Listener>>();
  private checkpoint: Checkpoint | null = null;
  private starting: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private polling: Promise<void> | null = null;
  private closed = false;

  constructor(
    private readonly store: EventStore,
    private readonly prisma: PrismaService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Calls `listener` with a game's newest version whenever new events of it are committed. */
  async listen(gameId: string, listener: Listener): Promise<() => void> {
    let set = this.listeners.get(gameId);
    if (!set) this.listeners.set(gameId, (set = new Set()));
    set.add(listener);
    const unlisten = () => {
      const s = this.listeners.get(gameId);
      s?.delete(listener);
      if (s && s.size === 0) this.listeners.delete(gameId);
      if (this.listeners.size === 0) this.stopFollowing();
    };
    try {
      await this.ensureFollowing();
    } catch (err) {
      // The subscriber gets the error and holds nothing: a listener left behind would keep polling for no one.
      unlisten();
      throw err;
    }
    return unlisten;
  }

  get listening(): number {
    let n = 0;
    for (const s of this.listeners.values()) n += s.size;
    return n;
  }

  async onModuleDestroy(): Promise<void> {
    this.closed = true;
    this.listeners.clear();
    this.stopFollowing();
    await this.polling?.catch(() => undefined);
  }

  private ensureFollowing(): Promise<void> {
    if (this.checkpoint) return Promise.resolve();
    this.starting ??= this.head()
      .then((cp) => {
        this.checkpoint = cp;
        this.schedule();
      })
      .finally(() => {
        this.starting = null;
      });
    return this.starting;
  }

  /**
   * The log's head as a checkpoint: every transaction older than the oldest one still open
   * has ended, so events from those are already in the past; anything from the oldest open
   * transaction on is read. Events read that a subscriber already knows are dropped by its
   * version, so starting a little early is harmless; starting late is not.
   */
  private async head(): Promise<Checkpoint> {
    const rows = await this.prisma.pool.query<{ xmin: string }>('SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS xmin');
    const xmin = BigInt(rows.rows[0]!.xmin);
    return { transactionId: String(xmin > 0n ? xmin - 1n : 0n), position: '9223372036854775807' };
  }

  private schedule(): void {
    if (this.closed || this.timer || this.listeners.size === 0) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.polling = this.poll().finally(() => {
        this.polling = null;
        this.schedule();
      });
    }, this.config.api.subscriptionPollMs);
    this.timer.unref?.();
  }

  private stopFollowing(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.checkpoint = null;
  }

  private async poll(): Promise<void> {
    try {
      for (;;) {
        const from = this.checkpoint;
        if (!from) return;
        const events = await this.store.readAll(from, PAGE);
        if (this.checkpoint !== from) return; // stopped (and maybe restarted) meanwhile
        const newest = new Map<string, number>();
        for (const e of events) newest.set(e.gameId, Math.max(newest.get(e.gameId) ?? 0, e.version));
        if (events.length) this.checkpoint = events[events.length - 1]!.checkpoint;
        for (const [gameId, version] of newest) {
          for (const listener of [...(this.listeners.get(gameId) ?? [])]) listener(version);
        }
        if (events.length < PAGE) return;
      }
    } catch (err) {
      this.log.error({ err }, 'following the event log failed; retrying');
    }
  }
}
