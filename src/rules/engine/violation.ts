import { Violation } from './types';

/**
 * Rule ID for input that is malformed rather than against a rule (not JSON of
 * the right shape, an unknown unit, a bad label). Not a rule of any game.
 */
export const INPUT_RULE = 'input';

export function violation(ruleId: string, code: string, message: string, orderIndex: number | null = null): Violation {
  return { ruleId, code, message, orderIndex, unit: null };
}

/** A violation of the whole submission about one counter, named apart from the message. */
export function unitViolation(ruleId: string, code: string, message: string, unit: string): Violation {
  return { ruleId, code, message, orderIndex: null, unit };
}
