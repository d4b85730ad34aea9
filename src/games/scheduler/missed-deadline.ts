import type { Dice, GameSystem, PhaseInfo, RulesEvent, SideId, StandingAnswers } from '../../rules/engine/types';

/**
 * What the rules make of a side's missed deadline: an expired reaction window applies its
 * standing orders or no reaction; a missed phase is passed (no orders), or null when the rules
 * refuse a pass (a setup cannot be empty). The one decision, made by the deadline job and again
 * by the replay of an export (with the answers its log recorded).
 */
export function missedDeadlineEvents(system: GameSystem, rules: unknown, side: SideId, mode: PhaseInfo['mode'], dice: Dice, answers?: StandingAnswers): RulesEvent[] | null {
  if (mode === 'reaction') return system.expireReaction(rules, dice, answers);
  const pass = system.parse(rules, side, { kind: 'orders', orders: [] });
  if (!pass.ok || system.validate(rules, side, pass.value).length > 0) return null;
  return system.resolve(rules, side, pass.value, dice, answers);
}
