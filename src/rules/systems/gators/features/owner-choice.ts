import { ownerChoiceReactions } from '../../../engine/combat/owner-choice';
import { GatorsFeature } from '../feature';
import { GatorsExt } from '../ext';

/**
 * Q-GT-35, Q-GT-44: the owner of an attacked stack chooses its retreat path
 * and, on a tie, its defending counter — reactions of the kernel's odds
 * attack (engine/combat/owner-choice.ts), asked only when the side's standing
 * orders say "ask". Every attack whose order can stop and resume there asks:
 * ordinary attacks (bombardment included), air strikes, passenger fire,
 * sabotage, booby traps, and the HERS explosion one of them sets off.
 * Anti-landing fire (itself a reaction) keeps the engine's choice; attackers
 * choose their retreats in their orders (attacker-retreat.ts).
 */
export const ownerChoice: GatorsFeature = {
  id: 'owner-choice',
  rules: ['Q-GT-35', 'Q-GT-44'],
  reactions: ownerChoiceReactions<GatorsExt>(),
};
