import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import { ThrottlerStorageService } from '@nestjs/throttler';
import { APP_CONFIG } from '../../config/config.module';
import type { AppConfig } from '../../config/config.schema';

export interface RateDecision {
  limit: number;
  remaining: number;
  /** Seconds until the caller may try again; 0 when allowed. */
  retryAfterSeconds: number;
  allowed: boolean;
}

/**
 * Counts requests per API token (per client address without one) in a sliding window, using
 * @nestjs/throttler's storage. It is called once per HTTP request by the API middleware rather
 * than through ThrottlerGuard, because a guard runs per resolver: one GraphQL request with
 * five fields would count five times, and a request refused by validation would not count.
 * The counts live in this process: with N instances a caller gets up to N times the limit.
 */
@Injectable()
export class RateLimiter implements OnApplicationShutdown {
  private readonly storage = new ThrottlerStorageService();

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  async hit(key: string, authenticated: boolean): Promise<RateDecision> {
    const { windowMs, perToken, anonymous } = this.config.api.rateLimit;
    const limit = authenticated ? perToken : anonymous;
    const r = await this.storage.increment(key, windowMs, limit, 0, 'api');
    const allowed = !r.isBlocked;
    return {
      limit,
      remaining: Math.max(0, limit - r.totalHits),
      retryAfterSeconds: allowed ? 0 : Math.max(1, r.timeToBlockExpire),
      allowed,
    };
  }

  onApplicationShutdown(): void {
    this.storage.onApplicationShutdown();
  }
}
