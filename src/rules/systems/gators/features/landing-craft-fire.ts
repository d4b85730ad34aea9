import { GameState, UnitState } from '../../../model/state';
import { patchUnit } from '../../../engine/evolve';
import { Violation } from '../../../engine/types';
import { violation } from '../../../engine/violation';
import { GatorsFeature } from '../feature';
import { groundData } from '../ground-data';
import { tagged } from '../queries';

/**
 * GT-6G.5: cargo fires from an LCU or an LCAC (the transports and the cargo
 * each may not carry into a fight are rules.json combat.cargoFire), from the
 * craft's hex as a unit standing there would: the kernel's attack checks and
 * odds take the craft as where it stands (OddsHooks.firesAboard). A craft
 * that is itself cargo (in a ship's well deck) is in no hex to fire from.
 * Cargo loaded this turn may not fire (GT-6G.1, the kernel's check); cargo
 * put back aboard by a failed unloading never loaded (Q-GT-49).
 * Firing shows the firing counter to all (`FiredFromAboard`, orders/attack.ts),
 * nothing else of what is aboard. The firer stays seen aboard its craft for the
 * rest of the turn: the event sets the per-turn flag FIRED_ABOARD, which
 * rules.json visibility.seenCargoWhen names (Q-GT-49).
 */
export const FIRED_ABOARD = 'firedAboard';

function firesAboard(state: GameState, u: UnitState, i: number | null): { from: UnitState } | Violation | undefined {
  if (u.loc.at !== 'carried') return undefined;
  const carrier = state.units[u.loc.by];
  if (carrier === undefined) return undefined;
  const d = groundData(state.scenario).cargoFire;
  const entry = d.carriers.find((k) => tagged(state, carrier, ...k.tags));
  if (entry === undefined) return undefined;
  if (carrier.loc.at !== 'hex') return violation(d.ruleId, 'combat/craft_aboard', `${u.id} is aboard ${carrier.id}, which is itself carried: it fires only from a craft standing in a hex`, i);
  if (tagged(state, u, ...entry.exceptTags)) return violation(d.ruleId, 'combat/may_not_fire_aboard', `${u.id} (${u.type}) may not fire from ${carrier.id} (${carrier.type})`, i);
  return { from: carrier };
}

export const landingCraftFire: GatorsFeature = {
  id: 'landing-craft-fire',
  rules: ['GT-6G.5', 'Q-GT-49'],
  odds: { firesAboard },
  events: {
    FiredFromAboard: (s, e) => patchUnit(s, (e.data as { unit: string }).unit, (u) => ({ ...u, flags: { ...u.flags, [FIRED_ABOARD]: true } })),
  },
};
