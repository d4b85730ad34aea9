import { AppEvent, appDraft, Draft } from '../game-envelope';
import type { RecordedRoll } from '../dice/server-dice';

/**
 * One DiceRolled event per roll, for the verifier. A secret roll (the Gators! breakdown roll,
 * the pre-roll or its stand-in before an attack on a stack with a "?") is shown to the other
 * sides as a roll of that die with no value and no purpose: they learn that a secret roll was
 * made, which the rules make public anyway, and nothing else.
 */
export function diceDrafts(rolls: RecordedRoll[]): Draft[] {
  return rolls.map((r) =>
    appDraft(
      AppEvent.DiceRolled,
      { n: r.n, sides: r.sides, purpose: r.purpose, value: r.value },
      r.visibleTo ? { to: 'sides', sides: r.visibleTo, redacted: { type: AppEvent.DiceRolled, data: { n: r.n, sides: r.sides, purpose: 'secret' } } } : { to: 'all' },
    ),
  );
}
