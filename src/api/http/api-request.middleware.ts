import { Inject, Injectable, NestMiddleware } from '@nestjs/common';
import type { NextFunction, Response } from 'express';
import { errorResponse, isGraphqlUrl } from '../../common/error-mapping';
import { BadInputError, DomainError } from '../../common/errors';
import { APP_CONFIG } from '../../config/config.module';
import type { AppConfig } from '../../config/config.schema';
import { logger } from '../../logging/logger';
import { InputProblem, inputProblem, textProblem } from './input-guards';
import type { ApiRequest } from './principal';
import { RequestBudget } from './request-budget';

const BODY_BYTES = Symbol('bodyBytes');

/** Notes how many bytes the JSON body parser read (its `verify` hook), for a body with no Content-Length. */
export function noteBodyBytes(req: object, bytes: number): void {
  (req as { [BODY_BYTES]?: number })[BODY_BYTES] = bytes;
}

function bodyBytes(req: ApiRequest): number {
  return Number(req.headers['content-length'] ?? (req as { [BODY_BYTES]?: number })[BODY_BYTES] ?? 0);
}

class BodyTooLargeError extends BadInputError {
  constructor(max: number) {
    super('http/payload_too_large', `The request body is larger than ${max} bytes.`, { maxBytes: max });
  }
}

/**
 * Runs in front of /graphql and /api/v1, before Apollo and the controllers: authenticates the
 * bearer token and applies the rate limit (RequestBudget; a bad token is refused here, even for
 * operations that need none), then refuses oversized bodies, batched GraphQL requests and JSON
 * that would fail deeper in (input-guards.ts). The budget comes first so that those refusals
 * are counted too, as the body parser's own are (bootstrap.ts).
 */
@Injectable()
export class ApiRequestMiddleware implements NestMiddleware {
  constructor(
    private readonly budget: RequestBudget,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async use(req: ApiRequest, res: Response, next: NextFunction): Promise<void> {
    const graphql = isGraphqlUrl(req.originalUrl);
    // Every answer is one account's (a new token or invitation, a side's view) or says who may
    // not: no browser or proxy keeps it.
    res.setHeader('Cache-Control', 'no-store');
    try {
      await this.budget.spend(req, res);
      const max = this.config.api.maxBodyBytes;
      if (bodyBytes(req) > max) return this.refuse(req, res, new BodyTooLargeError(max), 413);
      if (graphql && Array.isArray(req.body)) {
        return this.refuse(req, res, new BadInputError('graphql/batch_refused', 'Batched operations are not accepted: send one operation per request.'));
      }
      const bad = problemIn(req, graphql);
      if (bad !== null) return this.refuse(req, res, new BadInputError(bad.code, bad.message, { field: bad.field }));
      next();
    } catch (err) {
      if (err instanceof DomainError) return this.refuse(req, res, err);
      logger().error({ err }, 'API request middleware failed');
      next(err);
    }
  }

  private refuse(req: ApiRequest, res: Response, error: DomainError, status?: number): void {
    const answer = errorResponse(error, req.originalUrl.split('?')[0]!, status);
    res.status(answer.status).type(answer.contentType).send(JSON.stringify(answer.body));
  }
}

/** The first problem of a request's path, query string or JSON body (see input-guards.ts). */
function problemIn(req: ApiRequest, graphql: boolean): InputProblem | null {
  let path: string;
  try {
    path = decodeURIComponent(req.path);
  } catch {
    path = req.path; // a malformed escape is the router's to refuse
  }
  // GraphQL's own strings are checked by a validation rule, once parsed (an escaped "\u0000" in the query text).
  return textProblem(path, 'the path') ?? inputProblem(req.query, 'query') ?? inputProblem(req.body, graphql ? 'request' : 'body');
}
