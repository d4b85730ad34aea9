import { ArgumentsHost, Catch, ExceptionFilter } from '@nestjs/common';
import type { Request, Response } from 'express';
import { logger } from '../logging/logger';
import { errorResponse } from './error-mapping';
import { methodNotAllowed } from './method-not-allowed';

/**
 * Every HTTP error leaves as application/problem+json, or for /graphql (a body the parser
 * refused before Apollo saw it) as a GraphQL error list; internals are logged, never sent.
 */
@Catch()
export class ProblemFilter implements ExceptionFilter {
  catch(error: unknown, host: ArgumentsHost): void {
    if (host.getType() !== 'http') throw error;
    const http = host.switchToHttp();
    const req = http.getRequest<Request>();
    const res = http.getResponse<Response>();
    const wrongMethod = methodNotAllowed(error, req);
    if (wrongMethod) res.setHeader('Allow', wrongMethod.allow);
    const answer = errorResponse(wrongMethod?.error ?? error, req.originalUrl);
    if (answer.internal) logger().error({ err: error }, 'unhandled error');
    if (res.headersSent) return;
    // An error answer is never for a cache, also one raised before the API's own middleware ran (a body that cannot be read).
    res.setHeader('Cache-Control', 'no-store');
    const retryAfter = answer.problem['retryAfterSeconds'];
    if (typeof retryAfter === 'number') res.setHeader('Retry-After', String(Math.ceil(retryAfter)));
    res.status(answer.status).type(answer.contentType).send(JSON.stringify(answer.body));
  }
}
