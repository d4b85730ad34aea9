import { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import express from 'express';
import type { NextFunction, Request, Response } from 'express';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { noteBodyBytes } from './api/http/api-request.middleware';
import { answerClientError } from './api/http/client-error';
import { RequestBudget } from './api/http/request-budget';
import { corsOptions, preflightNoStore } from './api/http/cross-origin';
import { AppModule, AppOverrides } from './app.module';
import { bodyParserError, NOT_UTF8 } from './common/error-mapping';
import { DomainError } from './common/errors';
import { isUtf8 } from 'node:buffer';
import type { Server } from 'node:http';
import { localUrl, type AppConfig } from './config/config.schema';
import { openDatabase, DatabaseRuntime } from './database/database';
import type { DestinationStream } from 'pino';
import { configureLogger, logger } from './logging/logger';
import { JsonNestLogger } from './logging/nest-logger';
import { loadCatalog } from './games/load-catalog';
import { SYSTEMS } from './rules/systems';

export interface RunningApp {
  app: INestApplication;
  database: DatabaseRuntime;
  close(): Promise<void>;
}

/**
 * Builds the whole application: database (embedded or external, migrated), Nest, HTTP.
 * main.ts and the e2e tests share it, so tests boot exactly what users run.
 *
 * Express, not Fastify: a turn submission spends its time in Postgres round trips and the
 * rules engine, not in the router, so Fastify's edge on tiny handlers would not show; Express
 * is what Apollo's graphql-ws subscriptions, Swagger and supertest are built
 * and tested against first.
 */
export async function createApp(config: AppConfig, logDestination?: DestinationStream, overrides: AppOverrides = {}): Promise<RunningApp> {
  configureLogger(config.logLevel, logDestination);
  // Before the database: a scenario refused need not start, migrate and stop one first.
  const catalog = overrides.catalog ?? loadCatalog(SYSTEMS);
  const database = await openDatabase(config.database);
  try {
    const app = await NestFactory.create<NestExpressApplication>(AppModule.register(config, database, { ...overrides, catalog }), {
      logger: new JsonNestLogger(),
      bufferLogs: false,
      // The API reads JSON only (no form bodies): see jsonBody.
      bodyParser: false,
    });
    // The framework's name tells an attacker what to try, and nobody else anything.
    app.disable('x-powered-by');
    // What Node's parser refuses before Express sees it gets a problem document, not a bare status line.
    (app.getHttpServer() as Server).on('clientError', answerClientError);
    app.set('trust proxy', config.api.trustProxy);
    const cors = corsOptions(config.api.corsOrigins);
    if (cors) {
      app.use(preflightNoStore);
      app.enableCors(cors);
    }
    app.use(jsonBody(app.get(RequestBudget, { strict: false })));
    app.enableShutdownHooks();
    await app.init();
    return {
      app,
      database,
      async close() {
        await app.close();
        await database.close();
      },
    };
  } catch (err) {
    await database.close();
    throw err;
  }
}

/**
 * The JSON body parser. The size read is noted for the API's cap (ApiRequestMiddleware): a body
 * sent chunked has no Content-Length, and the middleware answers in the shape of the API asked
 * (GraphQL or REST). What the parser refuses leaves as a domain error (see bodyParserError),
 * and is counted against the caller's rate limit first: it never reaches the API middleware
 * that counts the others, and a body that cannot be read must not be free to send.
 */
function jsonBody(budget: RequestBudget) {
  const parse = express.json({
    limit: '1mb',
    verify: (req: object, _res: unknown, buf: Buffer) => {
      noteBodyBytes(req, buf.length);
      // The parser decodes what is not UTF-8 into U+FFFD and goes on: a name would be stored mangled.
      if (!isUtf8(buf)) throw Object.assign(new Error('not UTF-8'), { type: NOT_UTF8 });
    },
  });
  return (req: Request, res: Response, next: NextFunction) =>
    parse(req, res, (err?: unknown) => {
      if (err === undefined) return next();
      const refused = bodyParserError(err) ?? err;
      // Over the budget the answer is 429 (a bad token 401), as for any request; a failure to count (the database) leaves the parser's answer.
      budget.spend(req, res).then(
        () => next(refused),
        (spent: unknown) => {
          if (!(spent instanceof DomainError)) logger().warn({ err: spent }, 'a request whose body was refused could not be counted');
          next(spent instanceof DomainError ? spent : refused);
        },
      );
    });
}

export async function listen(running: RunningApp, config: AppConfig): Promise<void> {
  await running.app.listen(config.port, config.host);
  const bound = (running.app.getHttpServer() as Server).address();
  if (!config.publicUrlGiven && bound && typeof bound === 'object') config.publicUrl = localUrl(undefined, bound.port);
  logger().info({ url: await running.app.getUrl(), database: running.database.kind }, 'Fieldpost is listening');
}
