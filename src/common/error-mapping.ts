import { BadRequestException, HttpException, HttpStatus } from '@nestjs/common';
import { BadInputError, DomainError, ErrorKind, UnavailableError, UnsupportedMediaTypeError } from './errors';
import { charCount } from './text-length';

const statusByKind: Record<ErrorKind, number> = {
  bad_input: HttpStatus.BAD_REQUEST,
  unsupported_media_type: HttpStatus.UNSUPPORTED_MEDIA_TYPE,
  not_found: HttpStatus.NOT_FOUND,
  conflict: HttpStatus.CONFLICT,
  unauthenticated: HttpStatus.UNAUTHORIZED,
  forbidden: HttpStatus.FORBIDDEN,
  rate_limited: HttpStatus.TOO_MANY_REQUESTS,
  unavailable: HttpStatus.SERVICE_UNAVAILABLE,
};

/** GraphQL `extensions.code` for each kind, used by the GraphQL error formatter. */
export const graphqlCodeByKind: Record<ErrorKind, string> = {
  bad_input: 'BAD_USER_INPUT',
  unsupported_media_type: 'BAD_REQUEST',
  not_found: 'NOT_FOUND',
  conflict: 'CONFLICT',
  unauthenticated: 'UNAUTHENTICATED',
  forbidden: 'FORBIDDEN',
  rate_limited: 'RATE_LIMITED',
  unavailable: 'SERVICE_UNAVAILABLE',
};

/**
 * What the database answers when it is saturated, so that a burst of requests waits longer for a
 * connection or a transaction than the pool allows: Prisma's P2028 ("unable to start a
 * transaction in the given time") and pg's pool timeout. The request did nothing; a retry after a
 * moment succeeds, so the client is told that (503 with Retry-After), not that the server failed.
 */
export function databaseBusy(error: unknown): UnavailableError | null {
  let e: unknown = error;
  for (let i = 0; i < 5 && e !== null && typeof e === 'object'; i++) {
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (code === 'P2028' || (typeof message === 'string' && /timeout exceeded when trying to connect|Unable to start a transaction in the given time/i.test(message))) {
      return new UnavailableError('server/busy', 'The server is busy: nothing was done. Try again in a moment.', { retryAfterSeconds: 1 });
    }
    e = (e as { cause?: unknown }).cause ?? (e as { originalError?: unknown }).originalError;
  }
  return null;
}

/** An RFC 9457 problem document. */
export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: string;
  [extra: string]: unknown;
}

const titles: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  409: 'Conflict',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

/** The first `max` characters of `text` and an ellipsis. */
const cut = (text: string, max: number) => [...text].slice(0, max).join('') + '…';

/** Longest stretch of one word a message repeats: an id is far shorter, a pasted blob far longer. */
const MAX_ECHO = 64;
const MAX_MESSAGE = 400;

/**
 * A message as a client may read it. Messages repeat what the client sent (an id, a side, a
 * value graphql-js could not read), so a 5,000-character id came back in full: every word
 * longer than MAX_ECHO is cut with an ellipsis, and the whole message at MAX_MESSAGE.
 */
export function clientMessage(message: string): string {
  const clipped = message.replace(new RegExp(`\\S{${MAX_ECHO + 1},}`, 'gu'), (word) => cut(word, MAX_ECHO));
  return charCount(clipped) > MAX_MESSAGE ? cut(clipped, MAX_MESSAGE - 1) : clipped;
}

/** The details that repeat input (each violation's message, each field at fault and its problems): every string in them read as a message is. */
const ECHOING_DETAILS = ['violations', 'fields', 'field'];

/** Every string in `value` cut as a message is: for what repeats input outside an error too (a dry run's violations). */
export function clientEcho<T>(value: T): T {
  if (typeof value === 'string') return clientMessage(value) as T;
  if (Array.isArray(value)) return value.map(clientEcho) as T;
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, clientEcho(v)])) as T;
  return value;
}

/** A domain error's details as a client may read them: the same cut as its message, where they repeat input. */
export function clientDetails(details: Readonly<Record<string, unknown>>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(details).map(([k, v]) => [k, ECHOING_DETAILS.includes(k) ? clientEcho(v) : v]));
}

function problemType(code: string): string {
  return `https://fieldpost.dev/problems/${code.replace(/[^a-z0-9_/-]/gi, '-')}`;
}

function codeForStatus(status: number): string {
  if (status === 404) return 'http/not_found';
  if (status === 401) return 'auth/unauthenticated';
  if (status === 403) return 'auth/forbidden';
  if (status === 429) return 'http/rate_limited';
  if (status === 413) return 'http/payload_too_large';
  if (status >= 500) return 'server/internal';
  return 'http/bad_request';
}

/**
 * The single mapping from anything thrown to what a client may see. Unknown errors become a
 * bare 500 with no message or stack; client errors raised by the framework (bad JSON, unknown
 * route, too-large body) keep their status and message.
 */
export function toProblem(error: unknown, requested?: string): { problem: Problem; internal: boolean } {
  // The path is the client's input as much as a message is: a huge id in it is not sent back.
  const instance = requested !== undefined && charCount(requested) > MAX_MESSAGE ? cut(requested, MAX_MESSAGE - 1) : requested;
  const unread = bodyParserError(error) ?? undecodablePath(error) ?? databaseBusy(error);
  if (unread) return toProblem(unread, instance);
  if (error instanceof DomainError) {
    const status = statusByKind[error.kind];
    return {
      internal: false,
      problem: {
        ...clientDetails(error.details),
        type: problemType(error.code),
        title: titles[status] ?? 'Error',
        status,
        detail: clientMessage(error.message),
        code: error.code,
        ...(instance ? { instance } : {}),
      },
    };
  }
  if (error instanceof HttpException && error.getStatus() < 500) {
    const status = error.getStatus();
    const response = error.getResponse();
    const message =
      typeof response === 'string'
        ? response
        : Array.isArray((response as { message?: unknown }).message)
          ? ((response as { message: string[] }).message).join('; ')
          : String((response as { message?: unknown }).message ?? error.message);
    const code = (response as { code?: unknown })?.code;
    return {
      internal: false,
      problem: {
        type: problemType(typeof code === 'string' ? code : codeForStatus(status)),
        title: titles[status] ?? 'Error',
        status,
        detail: clientMessage(message),
        code: typeof code === 'string' ? code : codeForStatus(status),
        ...(instance ? { instance } : {}),
      },
    };
  }
  const status = bodyParserStatus(error);
  if (status) {
    return {
      internal: false,
      problem: {
        type: problemType(codeForStatus(status)),
        title: titles[status] ?? 'Error',
        status,
        detail: status === 413 ? 'The request body is too large.' : 'The request body could not be read.',
        code: status === 413 ? 'http/payload_too_large' : 'http/bad_request',
        ...(instance ? { instance } : {}),
      },
    };
  }
  return {
    internal: true,
    problem: {
      type: problemType('server/internal'),
      title: titles[500]!,
      status: 500,
      detail: 'An unexpected error occurred. It has been logged.',
      code: 'server/internal',
      ...(instance ? { instance } : {}),
    },
  };
}

/** Extensions of a domain error in a GraphQL answer: its kind's code, its own as `errorCode`, its details. */
export function domainExtensions(e: DomainError): Record<string, unknown> {
  return { ...clientDetails(e.details), code: graphqlCodeByKind[e.kind], errorCode: e.code };
}

/** Whether a request (its URL) is for GraphQL, whose errors are a list in the answer, not a problem document. */
export function isGraphqlUrl(url: string): boolean {
  return url.split('?')[0]!.replace(/\/+$/, '') === '/graphql';
}

export interface ErrorResponse {
  status: number;
  contentType: string;
  body: unknown;
  problem: Problem;
  internal: boolean;
}

/**
 * An error raised before GraphQL or a controller runs (the body parser, the API's checks at the
 * door), in the shape the client speaks: a GraphQL error list for /graphql, else a problem
 * document. `status` overrides the kind's (a too-large body is bad input, sent as 413).
 */
export function errorResponse(error: unknown, instance: string, status?: number): ErrorResponse {
  const { problem: mapped, internal } = toProblem(error, instance);
  const problem = status === undefined ? mapped : { ...mapped, status, title: titles[status] ?? mapped.title };
  if (!isGraphqlUrl(instance)) {
    const rest = restParams(problem);
    return { status: rest.status, contentType: 'application/problem+json', body: rest, problem: rest, internal };
  }
  const domain = bodyParserError(error) ?? databaseBusy(error) ?? (error instanceof DomainError ? error : null);
  const extensions = domain ? domainExtensions(domain) : { code: internal ? 'INTERNAL_SERVER_ERROR' : 'BAD_REQUEST', errorCode: problem.code };
  return { status: problem.status, contentType: 'application/json', body: { errors: [{ message: problem.detail, extensions }] }, problem, internal };
}

/**
 * The list services serve both APIs and name the paging arguments as GraphQL does (first,
 * after); a REST client sent limit and cursor, and the problem must name what it sent.
 */
const REST_PAGING: Record<string, Record<string, string>> = {
  'request/bad_page_size': { first: 'limit' },
  'request/bad_cursor': { after: 'cursor' },
};

function restParams(problem: Problem): Problem {
  const field = problem['field'];
  const renamed = typeof field === 'string' ? REST_PAGING[problem.code]?.[field] : undefined;
  return renamed ? { ...problem, field: renamed } : problem;
}

/** The `type` of the error the body parser's verify hook raises for bytes that are not UTF-8 (bootstrap.ts). */
export const NOT_UTF8 = 'fieldpost.body.not_utf8';

/**
 * What the JSON body parser refused (its errors carry a `type`), as a domain error. Its own
 * messages quote the body back, and Nest turns a parse failure into a bare 400 with that message
 * before any filter sees it, so the parser's wrapper (bootstrap.ts) passes on this instead.
 */
export function bodyParserError(error: unknown): DomainError | null {
  switch ((error as { type?: unknown } | null)?.type) {
    case 'entity.parse.failed':
      return new BadInputError('http/malformed_body', 'The request body is not valid JSON, or not a JSON object or list (a bare string, number or null is not accepted).', { field: 'body' });
    case NOT_UTF8:
      return new BadInputError('http/malformed_body', 'The request body is not valid UTF-8.', { field: 'body' });
    case 'charset.unsupported':
    case 'encoding.unsupported':
      return new UnsupportedMediaTypeError('The request body must be JSON in UTF-8 (Content-Type: application/json), sent as is or with a Content-Encoding of gzip, deflate or br.');
    default:
      return null;
  }
}

/**
 * The router's refusal of a path whose percent-escapes do not decode (not UTF-8, or a lone `%`).
 * The router throws a URIError marked 400, which Nest turns into a BadRequestException with the
 * router's message (routes-resolver's mapExternalException), so the message is all that tells
 * it: it would leave as a bare http/bad_request quoting the raw segment back.
 */
function undecodablePath(error: unknown): DomainError | null {
  const fromRouter = error instanceof BadRequestException || error instanceof URIError;
  if (!fromRouter || !error.message.startsWith('Failed to decode param ')) return null;
  return new BadInputError('http/bad_path', 'The request path holds a percent-escape that does not decode to UTF-8 text.', { field: 'path' });
}

/** Errors from the body parser carry a 4xx `status` and `expose: true`. */
function bodyParserStatus(error: unknown): number | undefined {
  const e = error as { status?: unknown; expose?: unknown; type?: unknown };
  if (typeof e?.status === 'number' && e.status >= 400 && e.status < 500 && e.expose === true) return e.status;
  return undefined;
}
