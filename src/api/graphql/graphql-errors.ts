import { unwrapResolverError } from '@apollo/server/errors';
import { HttpException } from '@nestjs/common';
import { GraphQLError, GraphQLFormattedError } from 'graphql';
import { clientMessage, databaseBusy, domainExtensions } from '../../common/error-mapping';
import { DomainError } from '../../common/errors';
import { logger } from '../../logging/logger';

/** Codes of errors Apollo and graphql-js raise for a bad request; their messages are safe to show. */
const REQUEST_ERROR_CODES = new Set([
  'GRAPHQL_PARSE_FAILED',
  'GRAPHQL_VALIDATION_FAILED',
  'BAD_USER_INPUT',
  'BAD_REQUEST',
  'OPERATION_RESOLUTION_FAILURE',
  'PERSISTED_QUERY_NOT_FOUND',
  'PERSISTED_QUERY_NOT_SUPPORTED',
]);

/**
 * The GraphQL side of the one error mapping (src/common/error-mapping.ts): a domain error gets
 * the GraphQL code of its kind, its namespaced code as `errorCode`, and its details (the
 * violations with their rule IDs, the current version); request errors keep their message;
 * anything else is logged and becomes a bare INTERNAL_SERVER_ERROR. Never a stack trace.
 */
export function formatGraphqlError(formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError {
  const original = unwrapResolverError(error);
  const where = { ...(formatted.locations ? { locations: formatted.locations } : {}), ...(formatted.path ? { path: formatted.path } : {}) };
  const domain = domainErrorIn(error) ?? databaseBusy(original);
  if (domain) return { message: clientMessage(domain.message), ...where, extensions: domainExtensions(domain) };
  if (original instanceof HttpException && original.getStatus() < 500) {
    return { message: clientMessage(original.message), ...where, extensions: { code: 'BAD_USER_INPUT', errorCode: 'http/bad_request' } };
  }
  const code = formatted.extensions?.['code'];
  // Raised by the server for the request itself (parse, validation, variables), not by a resolver.
  if (original === error && typeof code === 'string' && REQUEST_ERROR_CODES.has(code)) return { message: clientMessage(hideSuggestions(formatted.message)), ...where, extensions: { code } };
  // Apollo refuses some requests (a persisted query's hash or version) with a 4xx and no code.
  if (original === error && isClientStatus(error)) return { message: clientMessage(formatted.message), ...where, extensions: { code: 'BAD_REQUEST' } };
  logger().error({ err: original }, 'unhandled GraphQL error');
  return { message: 'An unexpected error occurred. It has been logged.', ...where, extensions: { code: 'INTERNAL_SERVER_ERROR' } };
}

/**
 * graphql-js suggests names close to a wrong one ('Did you mean the enum value "ACTIVE"?'), which
 * tells a client with introspection off what the schema holds. Armor hides them in validation
 * errors only; variables are coerced after validation, so every request error passes here too.
 */
export function hideSuggestions(message: string): string {
  return message.replace(/ ?Did you mean [^?]*\??/g, ' [Suggestion hidden]');
}

function isClientStatus(error: unknown): boolean {
  const status = error instanceof GraphQLError ? (error.extensions['http'] as { status?: unknown } | undefined)?.status : undefined;
  return typeof status === 'number' && status >= 400 && status < 500;
}

/** The domain error behind a GraphQL error, however deeply wrapped (resolver, subscription hooks). */
function domainErrorIn(error: unknown): DomainError | null {
  let e: unknown = error;
  for (let i = 0; i < 4 && e; i++) {
    if (e instanceof DomainError) return e;
    e = (e as { originalError?: unknown }).originalError;
  }
  return null;
}
