import { patchUnit } from '../../../engine/evolve';
import { cargoOf, flag } from '../../../engine/queries';
import { violation } from '../../../engine/violation';
import { GatorsFeature } from '../feature';
import { GState } from '../ext';

/**
 * GT-6G.2, GT-6F.2: a helicopter loads from a ship and unloads onto one (the orders:
 * orders/ship-cargo.ts). Their events, and the side's own records among them (a load or unload
 * out of the others' sight, SystemSpec.records), change only the cargo, which nothing later in
 * the run touches: a unit loaded from a ship is not unloaded that turn (README Q-GT-16 part 1), and one unloaded
 * onto a ship is not taken out of it that turn (GT-6F.1), and then only by another record. So the helicopter carries no flag of the load
 * (the kernel's loadedCargo), which its public marks later in the run would reorder; that it may
 * not move on (GT-6G.1) is read from its cargo instead.
 */
export const SHIP_LOAD = 'UnitLoadedFromShip';
export const SHIP_UNLOAD = 'UnitUnloadedOntoShip';
/** The flag of a unit loaded from a ship this turn (movement.ts: it is not unloaded this turn). */
export const FROM_SHIP = 'loadedFromShip';

interface ShipCargoData {
  readonly unit: string;
  readonly carrier: string;
  readonly ship: string;
}

/** As the kernel's UnitLoaded for the cargo (it may not attack, GT-6G.1), marked as taken from a ship. */
export function loadedFromShip(state: GState, data: ShipCargoData): GState {
  return patchUnit(state, data.unit, (u) => ({ ...u, loc: { at: 'carried', by: data.carrier }, flags: { ...u.flags, loaded: true, [FROM_SHIP]: true } }));
}

/** Aboard the ship as if recovered there, unloaded this turn (GT-6F.1). The HERS is never unloaded (Q-GT-29), so none has a shore to forget. */
function unloadedOntoShip(state: GState, data: ShipCargoData): GState {
  return patchUnit(state, data.unit, (u) => ({ ...u, loc: { at: 'carried', by: data.ship }, flags: { ...u.flags, unloaded: true } }));
}

export const shipCargo: GatorsFeature = {
  id: 'ship-cargo',
  rules: ['GT-6G.2', 'GT-6F.2'],
  events: {
    [SHIP_LOAD]: (s, e) => loadedFromShip(s, e.data as ShipCargoData),
    [SHIP_UNLOAD]: (s, e) => unloadedOntoShip(s, e.data as ShipCargoData),
  },
  records: [SHIP_LOAD, SHIP_UNLOAD],
  move: {
    moveProblem: (state, u, i) =>
      cargoOf(state, u.id).some((c) => flag(c, FROM_SHIP)) ? violation('GT-6G.1', 'transport/loaded_may_not_move', `${u.id} has loaded cargo from a ship this turn and may not move`, i) : null,
  },
};
