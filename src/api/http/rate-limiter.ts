import { Inject, Injectable, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { APP_CONFIG } from '../../config/config.module';
import type { AppConfig } from '../../config/config.schema';
import { PrismaService } from '../../database/prisma.service';
import { logger } from '../../logging/logger';
import { SharedRateCounts } from './shared-rate-counts';
import { estimate, msUntilBelow } from './sliding-window';

export interface RateDecision {
  limit: number;
  remaining: number;
  /** Seconds until the caller may try again; 0 when allowed. */
  retryAfterSeconds: number;
  allowed: boolean;
}

/** Expired rows are deleted at most this often (and at most once per window). */
const PRUNE_EVERY_MS = 60_000;
/** Shutdown does not wait longer than this for the last flush (the database may be gone). */
const LAST_FLUSH_MS = 2000;

/** The bucket of an authenticated caller, over HTTP and graphql-ws alike: per player, as a player may hold 50 tokens. */
export const rateKeyOf = (principal: { playerId: string }) => `player:${principal.playerId}`;

/**
 * Counts requests per player (rateKeyOf; per client address without a token) in a sliding
 * window, over all server instances sharing the database. It is called once per HTTP request
 * (RequestBudget, also for a request whose body is refused unread) rather than through
 * ThrottlerGuard, because a guard runs per resolver: one GraphQL request with five fields would
 * count five times, and a request refused by validation would not count.
 *
 * A decision never waits for the database: it uses the totals of all instances read at this
 * instance's last flush plus what it let through since. Every RATE_LIMIT_SYNC_MS the new hits
 * are flushed, so a caller spreading requests over N instances can exceed the limit by what
 * the other instances let through before this one flushed the key again (at worst N times the
 * limit, for a burst that reaches every instance within one interval). Refused requests do not
 * count, so a caller hammering while refused gets in again once its earlier requests age out.
 */
@Injectable()
export class RateLimiter implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly log = logger().child({ component: 'rate-limit' });
  private readonly counts: SharedRateCounts;
  private timer: NodeJS.Timeout | null = null;
  private syncing: Promise<void> | null = null;
  /** Set from the first failed flush until one succeeds, so an outage is logged once. */
  private failing = false;
  private prunedAt = Date.now();

  constructor(
    prisma: PrismaService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.counts = new SharedRateCounts(prisma, config.api.rateLimit.windowMs);
  }

  hit(key: string, authenticated: boolean): RateDecision {
    const { windowMs, perToken, anonymous } = this.config.api.rateLimit;
    const limit = authenticated ? perToken : anonymous;
    const now = Date.now();
    const current = now - (now % windowMs);
    const elapsed = (now - current) / windowMs;
    const counts = { previous: this.counts.count(key, current - windowMs), current: this.counts.count(key, current) };
    const estimated = estimate(counts, elapsed);
    if (estimated < limit) {
      this.counts.add(key, current);
      return { limit, remaining: limit - estimated - 1, retryAfterSeconds: 0, allowed: true };
    }
    const waitMs = msUntilBelow(counts, limit, elapsed, windowMs);
    return { limit, remaining: 0, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)), allowed: false };
  }

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.sync(), this.config.api.rateLimit.syncMs);
    this.timer.unref();
  }

  /** Before the database module's own hook (it is global, so destroyed last): the pool is still open. */
  async onModuleDestroy(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    let timeout: NodeJS.Timeout | undefined;
    const last = (async () => {
      await this.syncing;
      await this.sync();
    })();
    await Promise.race([last, new Promise<void>((done) => (timeout = setTimeout(done, LAST_FLUSH_MS).unref()))]);
    clearTimeout(timeout);
  }

  /** One flush at a time: a tick that comes while one is under way (a slow database) is skipped. */
  private sync(): Promise<void> {
    this.syncing ??= this.flush().finally(() => {
      this.syncing = null;
    });
    return this.syncing;
  }

  private async flush(): Promise<void> {
    try {
      await this.counts.flush();
      const now = Date.now();
      if (now - this.prunedAt >= Math.max(PRUNE_EVERY_MS, this.config.api.rateLimit.windowMs)) {
        this.prunedAt = now;
        await this.counts.prune(now);
      }
      if (this.failing) this.log.info('rate limit counts are shared through the database again');
      this.failing = false;
    } catch (err) {
      if (!this.failing) this.log.warn({ err }, 'rate limit counts cannot be shared through the database; this instance counts on its own and retries every RATE_LIMIT_SYNC_MS');
      this.failing = true;
    }
  }
}
