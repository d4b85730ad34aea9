import { ownerChoiceReactions } from '../../../engine/combat/owner-choice';
import { GatorsFeature } from '../feature';
import { GatorsExt } from '../ext';

/**
 * Q-GT-35, Q-GT-44: the owner of an attacked stack chooses its retreat path
 * and, on a tie, its defending counter — reactions of the kernel's odds
 * attack (engine/combat/owner-choice.ts), asked only when the side's standing
 * orders say "ask". Ordinary attacks (bombardment included) and air strikes
 * ask: their orders can stop and resume there. Passenger fire, anti-landing
 * fire (itself a reaction) and the fixed-column attacks (HERS explosion,
 * booby traps, sabotage) keep the engine's choice, as do attacker retreats.
 */
export const ownerChoice: GatorsFeature = {
  id: 'owner-choice',
  rules: ['Q-GT-35', 'Q-GT-44'],
  reactions: ownerChoiceReactions<GatorsExt>(),
};
