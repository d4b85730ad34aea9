import type { ApolloDriverConfig } from '@nestjs/apollo';
import { ApolloDriver } from '@nestjs/apollo';
import type { GraphQLSchemaHost } from '@nestjs/graphql';
import { GraphQLError, GraphQLFormattedError } from 'graphql';
import type { Context as WsContext } from 'graphql-ws';
import type { ApiTokensService } from '../../auth/api-tokens.service';
import type { Principal } from '../../auth/auth.types';
import { BadInputError, DomainError, RateLimitedError } from '../../common/errors';
import type { AppConfig } from '../../config/config.schema';
import type { ApiRequest, GqlContext } from '../http/principal';
import { formatGraphqlError } from './graphql-errors';
import { graphqlProtection, noSubscriptionOverHttpRule, parseAndValidate, prepareOperation } from './graphql-limits';
import { inputProblem } from '../http/input-guards';
import { RateLimiter, rateKeyOf } from '../http/rate-limiter';
import { describeRootTypes } from './root-descriptions';

interface WsExtra {
  principal?: Principal;
  token?: string;
  request?: unknown;
  socket?: { close(code: number, reason: string): void };
  /** The player this connection is counted for, once it is accepted. */
  countedFor?: string;
  /** The socket closed (graphql-ws called onClose), perhaps while onConnect was still awaiting. */
  closed?: boolean;
}

/** WebSocket close code 1008, policy violation: the player holds too many connections. */
const TOO_MANY_CONNECTIONS = 1008;

function bearer(params: Record<string, unknown> | undefined): string | null {
  const raw = params?.['authorization'] ?? params?.['Authorization'];
  const m = typeof raw === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(raw) : null;
  return m ? m[1]! : null;
}

function isWsContext(arg: unknown): arg is WsContext<Record<string, unknown>, WsExtra> {
  return !!arg && typeof arg === 'object' && 'extra' in arg && 'subscriptions' in arg;
}

const format = (errors: readonly GraphQLError[]): GraphQLFormattedError[] => errors.map((e) => formatGraphqlError(e.toJSON(), e));

/**
 * GraphQL at /graphql: code-first schema (sorted), Apollo with graphql-armor's limits and the
 * reserved-names rule, introspection per configuration, no batching, no landing page, the
 * one error mapping. Subscriptions use graphql-ws on the same server, authenticated by the
 * token in the connection_init payload and re-checked on every subscribe, with the same limits.
 */
export function graphqlOptions(config: AppConfig, tokens: ApiTokensService, schemaHost: GraphQLSchemaHost, limiter: RateLimiter): ApolloDriverConfig {
  const protection = graphqlProtection(config.api);
  // Per instance, unlike the request rate limit: a socket lives on, and costs, one instance.
  const open = new Map<string, number>();
  return {
    driver: ApolloDriver,
    path: '/graphql',
    autoSchemaFile: true,
    sortSchema: true,
    transformSchema: describeRootTypes,
    introspection: config.api.introspection,
    playground: false,
    graphiql: false,
    includeStacktraceInErrorResponses: false,
    allowBatchedHttpRequests: false,
    csrfPrevention: true,
    plugins: protection.plugins,
    validationRules: [...protection.validationRules, noSubscriptionOverHttpRule],
    parseOptions: protection.parseOptions,
    formatError: formatGraphqlError,
    context: (arg: unknown): GqlContext => {
      if (isWsContext(arg)) return { principal: arg.extra.principal ?? null, req: arg.extra.request };
      const req = (arg as { req: ApiRequest }).req;
      return { req, principal: req.principal ?? null };
    },
    subscriptions: {
      'graphql-ws': {
        path: '/graphql',
        connectionInitWaitTimeout: 10_000,
        onConnect: async (ctx: WsContext<Record<string, unknown>, WsExtra>) => {
          const token = bearer(ctx.connectionParams);
          if (!token) return false;
          try {
            ctx.extra.principal = await tokens.authenticate(token);
            ctx.extra.token = token;
          } catch {
            return false;
          }
          // Closed while the token was checked (the client gave up, or spoke before the ack): onClose
          // has run already and would never give back a place counted now.
          if (ctx.extra.closed) return false;
          const player = ctx.extra.principal.playerId;
          const held = open.get(player) ?? 0;
          if (held >= config.api.wsConnectionsPerPlayer) {
            ctx.extra.socket?.close(TOO_MANY_CONNECTIONS, `At most ${config.api.wsConnectionsPerPlayer} open connections per player`);
            return false;
          }
          open.set(player, held + 1);
          ctx.extra.countedFor = player;
          return true;
        },
        onClose: (ctx: WsContext<Record<string, unknown>, WsExtra>) => {
          ctx.extra.closed = true;
          const player = ctx.extra.countedFor;
          if (!player) return;
          ctx.extra.countedFor = undefined;
          const left = (open.get(player) ?? 1) - 1;
          if (left > 0) open.set(player, left);
          else open.delete(player);
        },
        onSubscribe: async (ctx: WsContext<Record<string, unknown>, WsExtra>, _id: string, payload: { query: string; variables?: Record<string, unknown> | null; operationName?: string | null }) => {
          // graphql-ws has already counted this one. Without a cap, one connection carried any
          // number of subscriptions, and the per-player connection cap meant nothing. Counted before
          // the first await: after it, every operation of a burst sent at once is counted too.
          const max = config.api.wsOperationsPerConnection;
          if (Object.keys(ctx.subscriptions).length > max) {
            const message = `At most ${max} operations at once on one connection: complete one first.`;
            return [new GraphQLError(message, { originalError: new BadInputError('ws/too_many_operations', message) })];
          }
          try {
            ctx.extra.principal = await tokens.authenticate(ctx.extra.token ?? '');
          } catch (err) {
            if (!(err instanceof DomainError)) throw err;
            return [new GraphQLError(err.message, { originalError: err })];
          }
          // Each operation counts as one HTTP request would, against the same budget.
          const decision = limiter.hit(rateKeyOf(ctx.extra.principal), true);
          if (!decision.allowed) {
            const limited = new RateLimitedError(decision.retryAfterSeconds);
            return [new GraphQLError(limited.message, { originalError: limited })];
          }
          if (typeof payload.query !== 'string') return [new GraphQLError('A query is required.', { extensions: { code: 'BAD_REQUEST' } })];
          const bad = inputProblem(payload.variables, 'variables');
          if (bad !== null) return [new GraphQLError(bad.message, { originalError: new BadInputError(bad.code, bad.message, { field: bad.field }) })];
          const checked = parseAndValidate(schemaHost.schema, payload.query, config.api, protection.validationRules);
          if ('errors' in checked) return checked.errors;
          const ready = prepareOperation(schemaHost.schema, checked.document, payload.operationName, payload.variables);
          if ('errors' in ready) return ready.errors;
          return { schema: schemaHost.schema, document: checked.document, variableValues: payload.variables ?? null, operationName: payload.operationName ?? null };
        },
        onNext: (_ctx: unknown, _id: string, _payload: unknown, _args: unknown, result: { errors?: readonly GraphQLError[]; data?: unknown }) =>
          result.errors ? { ...result, errors: format(result.errors) } : undefined,
        onError: (_ctx: unknown, _id: string, _payload: unknown, errors: readonly GraphQLError[]) => format(errors),
      },
    },
  } as ApolloDriverConfig;
}
