import { Injectable } from '@nestjs/common';
import type { Response } from 'express';
import { ApiTokensService } from '../../auth/api-tokens.service';
import { RateLimitedError, UnauthenticatedError } from '../../common/errors';
import type { ApiRequest } from './principal';
import { RateLimiter, rateKeyOf } from './rate-limiter';

/**
 * What an HTTP request costs its caller: one request of the rate limit, per player with a
 * token, per client address without one. Every request pays, its body read or not: one
 * refused unread (not JSON, too large, text no column can hold) is as much work to send as any
 * other, and left free it would let a client send them without end.
 */
@Injectable()
export class RequestBudget {
  constructor(
    private readonly tokens: ApiTokensService,
    private readonly limiter: RateLimiter,
  ) {}

  /**
   * Authenticates the bearer token onto `req.principal` and spends one request of its budget.
   * Throws UnauthenticatedError for a bad token, RateLimitedError (Retry-After set) once the
   * budget is spent.
   */
  async spend(req: ApiRequest, res: Response): Promise<void> {
    const address = `ip:${req.ip ?? req.socket.remoteAddress ?? 'unknown'}`;
    req.principal = await this.authenticate(req.headers.authorization).catch(async (err: unknown) => {
      // A refused token counts as an anonymous request of its address: else guessing tokens
      // (a database lookup each) would never be limited.
      if (err instanceof UnauthenticatedError) {
        const spent = await this.limiter.hit(address, false);
        if (!spent.allowed) throw rateLimited(res, spent);
        tellBudget(res, spent);
      }
      throw err;
    });
    // Per player, not per token: a player may hold 50 tokens.
    const key = req.principal ? rateKeyOf(req.principal) : address;
    const decision = await this.limiter.hit(key, !!req.principal);
    if (!decision.allowed) throw rateLimited(res, decision);
    tellBudget(res, decision);
  }

  private async authenticate(header: string | undefined) {
    if (header === undefined || header === '') return null;
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!match) throw new UnauthenticatedError('The Authorization header must be "Bearer <token>".');
    return this.tokens.authenticate(match[1]!);
  }
}

function tellBudget(res: Response, decision: { limit: number; remaining: number }): void {
  res.setHeader('RateLimit-Limit', String(decision.limit));
  res.setHeader('RateLimit-Remaining', String(decision.remaining));
}

function rateLimited(res: Response, decision: { limit: number; remaining: number; retryAfterSeconds: number }): RateLimitedError {
  tellBudget(res, decision);
  res.setHeader('Retry-After', String(decision.retryAfterSeconds));
  return new RateLimitedError(decision.retryAfterSeconds);
}
