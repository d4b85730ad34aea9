import { ArgumentsHost, Catch, ExceptionFilter } from '@nestjs/common';
import type { Request, Response } from 'express';
import { logger } from '../logging/logger';
import { toProblem } from './error-mapping';

/** Every HTTP error leaves as application/problem+json; internals are logged, never sent. */
@Catch()
export class ProblemFilter implements ExceptionFilter {
  catch(error: unknown, host: ArgumentsHost): void {
    if (host.getType() !== 'http') throw error;
    const http = host.switchToHttp();
    const req = http.getRequest<Request>();
    const res = http.getResponse<Response>();
    const { problem, internal } = toProblem(error, req.originalUrl);
    if (internal) logger().error({ err: error }, 'unhandled error');
    if (res.headersSent) return;
    const retryAfter = problem['retryAfterSeconds'];
    if (typeof retryAfter === 'number') res.setHeader('Retry-After', String(Math.ceil(retryAfter)));
    res.status(problem.status).type('application/problem+json').send(JSON.stringify(problem));
  }
}
