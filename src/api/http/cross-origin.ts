import type { CorsOptions } from '@nestjs/common/interfaces/external/cors-options.interface';
import type { NextFunction, Request, Response } from 'express';
import type { ApiConfig } from '../../config/config.schema';

/**
 * Browsers on other origins (third-party web clients) may call the API. The token travels in the
 * Authorization header, never in a cookie, so a page can act only with a token it holds: no
 * credentials are allowed, and `*` is a safe default. Preflights are answered before the rate
 * limit and authentication, which they carry nothing for.
 */
export function corsOptions(origins: ApiConfig['corsOrigins']): CorsOptions | null {
  if (origins === 'none') return null;
  return {
    origin: origins === '*' ? '*' : origins,
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    credentials: false,
    exposedHeaders: ['RateLimit-Limit', 'RateLimit-Remaining', 'Retry-After', 'X-Request-Id', 'Content-Disposition'],
    maxAge: 600,
  };
}

/**
 * The preflight is answered by the CORS middleware, before ApiRequestMiddleware sets the API's
 * `Cache-Control: no-store`; it gets the header here so that every answer of the API carries it,
 * as the README says. How long a browser keeps a preflight is `maxAge`'s business, not a cache's.
 */
export function preflightNoStore(req: Request, res: Response, next: NextFunction): void {
  if (req.method === 'OPTIONS') res.setHeader('Cache-Control', 'no-store');
  next();
}
