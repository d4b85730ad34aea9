import { BadInputError, ConflictError } from '../common/errors';

/** The game moved on since the caller read it: re-read and decide again. */
export class VersionConflictError extends ConflictError {
  constructor(
    readonly gameId: string,
    readonly expectedVersion: number,
    readonly currentVersion: number,
  ) {
    super(
      'game/version_conflict',
      `Game ${gameId} is at version ${currentVersion}, not the expected ${expectedVersion}. Reload and resubmit.`,
      { currentVersion, expectedVersion },
    );
  }
}

/** The same idempotency key was used for a different request. */
export class IdempotencyKeyReusedError extends BadInputError {
  constructor(readonly key: string) {
    super('request/idempotency_key_reused', `Idempotency key "${key}" was already used for a different request.`);
  }
}
