import { GameState, UnitState } from '../../../model/state';
import { boardOf } from '../../../engine/board';
import { table } from '../../../engine/combat/attack-checks';
import { AttackSetup, Modifier } from '../../../engine/combat/odds-step';
import { typeOf } from '../../../engine/queries';
import { GatorsFeature } from '../feature';
import { helpersNear } from '../ground';
import { groundData } from '../ground-data';
import { tagged } from '../queries';

/**
 * Bombardment (GT-7J, Q-GT-42). "Bombardment" is an attack by a unit of
 * range 2 or more.
 * - GT-7J.1: at range 2–3 attacker results are ignored — data
 *   (rules.json combat.odds.ignoreAttackerResults.fromRange), not here.
 * - GT-7J.2 (a): a unit of range ≥ 2 attacking an adjacent hex suffers an
 *   A R1/A R2 as A X; (b) so does every attacker when the defender is
 *   artillery (155mm, 75mm; not mortars, not the Hawk: tag `artillery`),
 *   whatever the attackers are. Per attacker, and only for
 *   attackers not already exempt (GT-7J.1, GT-7C.4, GT-7D.1: the kernel
 *   skips them before asking).
 * - GT-7J.3: +1 when some attacker fires from 2 hexes or more and a friendly
 *   Recon, Scout/Sniper, SEAL or Guerrilla unit (tag `spotter`) stands next to
 *   the target, not under a "?" (see ground.ts helpersNear).
 */
function asDestroyed(state: GameState, attack: AttackSetup, attacker: UnitState, result: string): string {
  const spec = table(state).results[result];
  if (spec?.side !== 'attacker' || spec.effect !== 'retreat') return result;
  const d = groundData(state.scenario).bombardment;
  if (tagged(state, attack.defender.unit, ...d.artilleryTags)) return 'A X';
  const a = attack.attackers.find((x) => x.unit.id === attacker.id);
  const board = boardOf(state.scenario);
  const ranged = a !== undefined && typeOf(state, a.unit).range >= d.rangedFrom && board.grid.distance(a.hex, attack.defender.hex) === 1;
  return ranged ? 'A X' : result;
}

function spotting(state: GameState, attack: AttackSetup): { shifts: Modifier[]; dieModifiers: Modifier[] } {
  const d = groundData(state.scenario).bombardment;
  const board = boardOf(state.scenario);
  const side = attack.attackers[0]?.unit.side;
  const far = attack.attackers.some((a) => board.grid.distance(a.hex, attack.defender.hex) >= d.rangedFrom);
  const spotted = side !== undefined && far && helpersNear(state, side, attack.defender.hex, d.spotterTags, 1).length > 0;
  return { shifts: [], dieModifiers: spotted ? [{ value: d.spotterModifier, ruleId: d.spotterRuleId }] : [] };
}

export const bombardment: GatorsFeature = {
  id: 'bombardment',
  rules: ['GT-7J.1', 'GT-7J.2', 'GT-7J.3', 'Q-GT-42', 'Q-GT-52'],
  odds: {
    attackerResult: (state, attack, attacker, result) => asDestroyed(state, attack, attacker, result),
    modifiers: spotting,
  },
};
