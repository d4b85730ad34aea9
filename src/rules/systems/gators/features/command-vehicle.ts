import { GameState } from '../../../model/state';
import { AttackSetup, Modifier } from '../../../engine/combat/odds-step';
import { GatorsFeature } from '../feature';
import { helpersNear } from '../ground';
import { groundData } from '../ground-data';
import { tagged } from '../queries';

/**
 * The M113 as a command vehicle (GT-2.42, Q-GT-04): +1 to the die, once per
 * attack, when at least one attacker is an infantry or infantry-weapon unit
 * (not Guerrillas) in or next to the hex of a friendly M113. Attacks only,
 * not defence. A camouflaged M113 lends nothing (ground.ts helpersNear).
 */
function bonus(state: GameState, attack: AttackSetup): { shifts: Modifier[]; dieModifiers: Modifier[] } {
  const d = groundData(state.scenario).commandBonus;
  const helped = attack.attackers.some(
    (a) =>
      tagged(state, a.unit, ...d.unitTags) &&
      !(d.exceptTags.length > 0 && tagged(state, a.unit, ...d.exceptTags)) &&
      helpersNear(state, a.unit.side, a.hex, d.vehicleTags, 1).length > 0,
  );
  return { shifts: [], dieModifiers: helped ? [{ value: d.modifier, ruleId: d.ruleId }] : [] };
}

export const commandVehicle: GatorsFeature = {
  id: 'command-vehicle',
  rules: ['GT-2.42', 'Q-GT-04'],
  odds: { modifiers: bonus },
};
