import type { CorsOptions } from '@nestjs/common/interfaces/external/cors-options.interface';
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
