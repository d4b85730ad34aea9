import { Json } from '../../model/json';
import { OrderHandler } from '../kit/types';

/**
 * The pluggable combat step. A game system picks (or writes) one per kind of
 * fire and lists it among a phase's orders like any other order handler:
 *
 * - `oddsAttack` (odds-step.ts): Gators! — several attackers, strength vs
 *   defense, column shifts and die modifiers from data, a results table.
 * - a Grav Armor step would be another handler ("fire": one firer, one target,
 *   hit value = ECM + attack − …, 2d6 against a hit table, detection along a
 *   path with hex/paths.boundedMinSum), usually resolved from a reaction
 *   during the moving player's move.
 * - a World at War step would roll a dice pool (dice/rollPool, hits) against
 *   a to-hit number and then a morale check on 2d6.
 *
 * All of them share the kernel's parts: range and effects from data
 * (effects.ts), retreat and elimination (apply.ts, retreat.ts), visibility
 * of the participants (visibility.ts). Its `options` contributes the unit's
 * attackable targets with a preview (odds column or hit chance).
 */
export type CombatStep<X extends Json, O> = OrderHandler<X, O>;
