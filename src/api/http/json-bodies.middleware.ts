import type { NextFunction, Request, Response } from 'express';
import { UnsupportedMediaTypeError } from '../../common/errors';

/**
 * REST request bodies are JSON. A body in any other type is not parsed, so without this it would
 * reach the controllers as no body at all and be answered with a list of missing fields that
 * says nothing of the real mistake. (GraphQL has Apollo's own check, which says it plainly.)
 */
export function jsonBodiesOnly(req: Request, _res: Response, next: NextFunction): void {
  const hasBody = req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
  if (hasBody && !req.is('application/json')) {
    return next(new UnsupportedMediaTypeError('The request body must be JSON, sent with Content-Type: application/json.'));
  }
  next();
}
