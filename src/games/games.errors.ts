import type { Violation } from '../rules/engine/types';
import { BadInputError, ConflictError, ForbiddenError, NotFoundError, UnavailableError } from '../common/errors';

// An empty id named nothing but left its gap: "No game  that you can see."
export const gameNotFound = (gameId: string) => new NotFoundError('game/not_found', `No game ${gameId ? `${gameId} ` : ''}that you can see.`);
export const scenarioNotFound = (id: string) => new NotFoundError('scenario/not_found', `No scenario "${id}".`);
/**
 * A game of a system this server no longer plays (taken out of SYSTEMS): the game is intact, and
 * a server that has the system again plays it. No fault of the request, so no 4xx; no crash, so no 500.
 */
export const systemUnavailable = (systemId: string) =>
  new UnavailableError('game/system_unavailable', `This game is played with game system "${systemId}", which this server does not have now.`, { systemId });
export const notSeated = (gameId: string) => new ForbiddenError('game/not_seated', `You hold no seat in game ${gameId}.`);
export const gameFinished = (gameId: string) => new ConflictError('game/finished', `Game ${gameId} has ended.`);
export const gameNotStarted = (gameId: string) => new ConflictError('game/not_started', `Game ${gameId} is still waiting for players.`);
/**
 * A version the game has not reached. A history page may start at the next version (empty
 * until something happens: where a client polls from), no later; updates may follow the current
 * version (a subscription's `fromVersion` names the last version the client has), no later.
 */
export const noSuchVersion = (field: 'atVersion' | 'fromVersion', asked: number, current: number, after: 'page' | 'updates' | null = field === 'fromVersion' ? 'page' : null) =>
  new BadInputError(
    'game/no_such_version',
    `${field} ${asked} does not exist yet: the game is at version ${current}${after === 'page' ? `, so a page starts at ${current + 1} at most` : after === 'updates' ? `, so updates follow version ${current} at most` : ''}.`,
    { field, currentVersion: current },
  );
/**
 * The side's own deadline has passed and the worker has yet to apply the game's timeout policy:
 * acting now would cancel a miss already due (a vacation is refused the same way).
 */
export const deadlinePassed = (at: string, window: boolean) =>
  new ConflictError(
    'game/deadline_passed',
    window
      ? `Your side's reaction window closed at ${at}: your standing orders, or no reaction, apply; this answer is no longer taken.`
      : `Your side's deadline passed at ${at}: the game's timeout policy applies, and this is no longer taken.`,
    { deadlineAt: at },
  );
/** `ruleId`: the rule the engine names (the sequence of play). */
export const notYourTurn = (side: string, acting: string[], ruleId: string | undefined) =>
  new ConflictError('game/not_your_turn', `Side ${side} may not act now; waiting for ${acting.join(', ') || 'nobody'}.`, { acting, ...(ruleId === undefined ? {} : { ruleId }) });

/**
 * A reaction sent when none is being asked for: a conflict with the game's moment, like a turn
 * not yours. `ruleId` is the rule the engine names for it (a reaction may not be put off).
 */
export const noReactionPending = (side: string, acting: string[], ruleId: string | undefined) =>
  new ConflictError(
    'game/no_reaction',
    `No reaction is being asked for now; ${acting.length ? `waiting for ${acting.join(', ')}` : 'nobody is to act'}${acting.includes(side) ? ' (your side: send orders)' : ''}.`,
    { acting, ...(ruleId === undefined ? {} : { ruleId }) },
  );

/** Orders sent by the side asked for a reaction: it answers first (kind "reaction"). */
export const reactionPending = (side: string, ruleId: string | undefined) =>
  new ConflictError('game/reaction_pending', `Side ${side} is asked for a reaction: answer it (kind "reaction") before any orders.`, {
    ...(ruleId === undefined ? {} : { ruleId }),
  });

/** Orders the engine could not read (shape, unknown units, bad hex labels). */
export const malformedOrders = (violations: Violation[]) =>
  new BadInputError('orders/malformed', `The orders could not be read: ${summary(violations)}`, { violations });

/** Orders that break the rules; every violation carries its rule ID. */
export const illegalOrders = (violations: Violation[]) =>
  new BadInputError('orders/illegal', `The orders break ${violations.length} rule(s): ${summary(violations)}`, { violations });

/**
 * Options asked for a unit the side does not have. The engine says the same of the other side's
 * units, hidden or not, as of ids no unit has, so the answer tells nothing of the enemy.
 */
export const notYourUnit = (violations: Violation[]) =>
  new BadInputError('game/not_your_unit', `unitId names no unit of yours: ${summary(violations)}`, { field: 'unitId', violations });

function summary(violations: Violation[]): string {
  const first = violations.slice(0, 3).map((v) => `${v.ruleId}: ${v.message}`);
  return first.join('; ') + (violations.length > 3 ? `; and ${violations.length - 3} more` : '');
}
