import { Module } from '@nestjs/common';
import { RateLimiter } from './rate-limiter';

/**
 * The one rate limiter of the API, shared by the HTTP middleware and by graphql-ws (whose
 * options are built in GraphQLModule's own factory, which sees only what it imports).
 */
@Module({ providers: [RateLimiter], exports: [RateLimiter] })
export class RateLimitModule {}
