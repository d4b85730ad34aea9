import { HttpException, NotFoundException } from '@nestjs/common';
import type { Request } from 'express';
import { METHODS } from 'node:http';

interface RouteLayer {
  route?: { methods: Record<string, boolean> };
  match(path: string): boolean;
}

/**
 * A path the API serves asked with a method it does not serve is a 405 naming the methods it
 * does, not the 404 of a path that does not exist (RFC 9110, 15.5.6). Null for any other error.
 */
export function methodNotAllowed(error: unknown, req: Request): { error: HttpException; allow: string } | null {
  if (!(error instanceof NotFoundException) || !error.message.startsWith(`Cannot ${req.method} `)) return null;
  const stack = (req.app as unknown as { router?: { stack?: RouteLayer[] } }).router?.stack ?? [];
  const methods = new Set<string>();
  for (const layer of stack) {
    // Middleware mounted with `all` (Apollo, the API's own) answers every method: it says nothing of the routes.
    if (!layer.route || METHODS.every((m) => layer.route!.methods[m.toLowerCase()]) || !layer.match(req.path)) continue;
    for (const [method, served] of Object.entries(layer.route.methods)) if (served && method !== '_all') methods.add(method.toUpperCase());
  }
  if (methods.size === 0) return null;
  if (methods.has('GET')) methods.add('HEAD');
  const allow = [...methods].sort().join(', ');
  return { error: new HttpException({ message: `${req.method} is not served here; this path takes ${allow}.`, code: 'http/method_not_allowed' }, 405), allow };
}
