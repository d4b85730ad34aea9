/**
 * Domain errors. Domain code throws these and never an HTTP exception; the one mapping in
 * error-mapping.ts turns them into HTTP problems (and GraphQL error codes).
 * `code` is a namespaced machine code such as 'game/not_found'.
 */
export type ErrorKind = 'bad_input' | 'unsupported_media_type' | 'not_found' | 'conflict' | 'unauthenticated' | 'forbidden' | 'rate_limited' | 'unavailable';

export class DomainError extends Error {
  constructor(
    readonly kind: ErrorKind,
    readonly code: string,
    message: string,
    /** Extra machine-readable fields for the client (never internals or hidden information). */
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class BadInputError extends DomainError {
  constructor(code: string, message: string, details: Record<string, unknown> = {}) {
    super('bad_input', code, message, details);
  }
}

/** A request body the API does not read: not JSON, or JSON in a charset other than UTF-8. */
export class UnsupportedMediaTypeError extends DomainError {
  constructor(message: string) {
    super('unsupported_media_type', 'http/unsupported_media_type', message, { field: 'Content-Type' });
  }
}

export class NotFoundError extends DomainError {
  constructor(code: string, message: string) {
    super('not_found', code, message);
  }
}

export class UnauthenticatedError extends DomainError {
  constructor(message = 'A valid API token is required.') {
    super('unauthenticated', 'auth/unauthenticated', message);
  }
}

export class ForbiddenError extends DomainError {
  constructor(code: string, message: string) {
    super('forbidden', code, message);
  }
}

/** Too many requests; the client may try again after `retryAfterSeconds` (sent as Retry-After). */
export class RateLimitedError extends DomainError {
  constructor(retryAfterSeconds: number, message = `Too many requests; try again in ${retryAfterSeconds} s.`, code = 'http/rate_limited') {
    super('rate_limited', code, message, { retryAfterSeconds });
  }
}

export class ConflictError extends DomainError {
  constructor(code: string, message: string, details: Record<string, unknown> = {}) {
    super('conflict', code, message, details);
  }
}

/** The server cannot take the request now (its database is saturated, or it lacks what the game needs): nothing was done. */
export class UnavailableError extends DomainError {
  constructor(code: string, message: string, details: Record<string, unknown> = {}) {
    super('unavailable', code, message, details);
  }
}
