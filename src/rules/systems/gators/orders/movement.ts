import { moveOrder, MoveOrder } from '../../../engine/orders/move';
import { hitchDrivers, hitchOrder, HitchOrder, unhitchOrder } from '../../../engine/orders/tow-orders';
import { loadOrder, LoadOrder, unloadOrder, UnloadOrder } from '../../../engine/orders/transport-orders';
import { violation } from '../../../engine/violation';
import { Violation } from '../../../engine/types';
import { GameState, UnitState } from '../../../model/state';
import { unloadedMoveProblem } from '../../../engine/orders/common';
import { CombinedHooks, Handler } from '../feature';
import { GatorsExt } from '../ext';
import { flag } from '../../../engine/queries';
import { closedToPlacing, isShip } from '../queries';
import { FROM_SHIP } from '../features/ship-cargo';
import { staysProblem } from '../features/squads';
import { carrierUnloaded } from '../features/movement-rules';
import { withChecks } from './wrap';
import {
  aboardShip,
  loadsFromShip,
  projectShipLoad,
  projectShipUnload,
  resolveShipLoad,
  resolveShipUnload,
  shipLoadOptions,
  shipUnloadOptions,
  unloadsOntoShip,
  validateShipLoad,
  validateShipUnload,
  withShipForm,
} from './ship-cargo';

/**
 * A unit that may not move this turn (unloaded, GT-6F.1; merged or split, GT-6I.1, Q-GT-25) may still be
 * loaded where it stands, but not set down elsewhere that turn: the transport, which may not move after
 * loading (GT-6G.1), would move it by its unload.
 */
function mayNotBeMoved(state: GameState<GatorsExt>, u: UnitState, i: number): Violation | null {
  return unloadedMoveProblem(state, u, i) ?? staysProblem(state, u, i);
}

/**
 * The kernel's movement-phase orders with the Gators! hooks: move (GT-6A),
 * load (GT-6G), unload (GT-6F), hitch and unhitch (GT-6K). Ships take and
 * give units by launch and recovery (GT-5.3, GT-5.4, Q-GT-16), never by
 * loading or unloading themselves; only a helicopter next to a ship loads
 * from it and unloads onto it (GT-6G.2, GT-6F.2, ship-cargo.ts). A transport
 * that has unloaded may not move on (GT-6F.1); a unit that may not move is
 * not hitched to be towed (GT-4.9).
 */
export function movementOrders(h: CombinedHooks): Handler[] {
  const unitsProblem = (state: GameState<GatorsExt>, ids: readonly string[], i: number): Violation[] => {
    const out: Violation[] = [];
    for (const id of ids) {
      const u = state.units[id];
      const p = u === undefined ? null : h.moveProblem(state, u, i);
      if (p !== null) out.push(p);
    }
    return out;
  };
  const moves = { hooks: h.move, afterMove: h.afterMove, ...(h.stepReaction ? { stepReaction: h.stepReaction } : {}) };
  const move = withChecks<MoveOrder>(moveOrder<GatorsExt>(moves), (state, _side, o, i) =>
    unitsProblem(state, [o.unit, ...(o.with ?? [])], i),
  {
    optionsCheck: (state, _side, unitId) => {
      const u = state.units[unitId];
      return u !== undefined && h.moveProblem(state, u, 0) === null;
    },
    // The kernel projects the move itself; what the features do after it (a "?" freed, GT-6L.2) is theirs.
    project: (state, _side, o) => {
      const from = state.units[o.unit]?.loc;
      return from?.at === 'hex' ? h.projectMove(state, { unit: o.unit, with: o.with ?? [], path: [from.hex, ...o.path] }) : [];
    },
  });
  const fromShip = withShipForm<LoadOrder>(loadOrder<GatorsExt>(moves), loadsFromShip, {
    validate: (state, side, o, i) => validateShipLoad(state, side, o, i, moves),
    project: projectShipLoad,
    resolve: (ctx, o, i, resume) => resolveShipLoad(ctx, o, i, moves, resume),
    options: (state, side, unitId, accepts) => shipLoadOptions(state, side, unitId, accepts, moves),
    onlyShip: aboardShip,
  });
  const load = withChecks<LoadOrder>(fromShip, (state, _side, o, i) => {
    const carrier = state.units[o.carrier];
    if (carrier !== undefined && isShip(state, carrier))
      return [violation('Q-GT-16', 'transport/ship_recovery', `units go aboard ${o.carrier} only by recovery (GT-5.4), not by loading`, i)];
    // As for its unload below: a public load of a unit taken out of a ship in the run would be replayed before that record (README Q-GT-16 part 1).
    const u = state.units[o.unit];
    if (u !== undefined && flag(u, FROM_SHIP)) return [violation('Q-GT-16', 'transport/loaded_this_turn', `${o.unit} was taken out of a ship this turn: it is loaded into another transport in a later turn`, i)];
    return o.path === undefined ? [] : unitsProblem(state, [o.mover === 'carrier' ? o.carrier : o.unit], i);
  });
  const ontoShip = withShipForm<UnloadOrder>(unloadOrder<GatorsExt>({ afterUnload: h.afterUnload }), unloadsOntoShip, {
    validate: validateShipUnload,
    project: projectShipUnload,
    resolve: (ctx, o, i, resume) => resolveShipUnload(ctx, o, i, h.afterUnload, resume),
    options: shipUnloadOptions,
  });
  const unload = withChecks<UnloadOrder>(
    ontoShip,
    (state, _side, o, i) => {
      const u = state.units[o.unit];
      if (u === undefined || u.loc.at !== 'carried') return [];
      const carrier = state.units[u.loc.by];
      if (carrier === undefined) return [];
      if (isShip(state, carrier)) return [violation('Q-GT-16', 'transport/ship_launch', `${o.unit} leaves ${carrier.id} only by launch (GT-5.3) or aboard a launched transport`, i)];
      // Not GT-6F.1, which forbids no unload after a load (on land both are allowed in one turn): the load from a ship is the
      // side's own record, logged at the end of the run, so a public unload of the same unit in the run could not be replayed (README Q-GT-16 part 1).
      if (flag(u, FROM_SHIP)) return [violation('Q-GT-16', 'transport/loaded_this_turn', `${o.unit} was taken out of a ship this turn: ${carrier.id} unloads it in a later turn`, i)];
      if (carrier.loc.at !== 'hex') return [violation('GT-6F.1', 'transport/carrier_not_on_map', `${carrier.id} must be on the map (launched) to unload`, i)];
      const stays = mayNotBeMoved(state, u, i);
      if (stays !== null) return [stays];
      const closed = closedToPlacing(h.move, state, u, o.hex);
      return closed === null ? [] : [violation(closed.ruleId, closed.code, closed.message, i)];
    },
    {
      // GT-6F.1: unloading comes after the transport's move, which is then over.
      project: (state, _side, o) => {
        const u = state.units[o.unit];
        return u?.loc.at === 'carried' ? [carrierUnloaded(u.loc.by)] : [];
      },
    },
  );
  // A gun that may not move (broken down, GT-4.9) is not moved by towing either: P2 wrote its hex down.
  // Towers that drive to it (a path) move as any mover does.
  const hitch = withChecks<HitchOrder>(hitchOrder<GatorsExt>(moves), (state, _side, o, i) =>
    unitsProblem(state, [o.unit, ...(o.path === undefined ? [] : hitchDrivers(state, o).map((t) => t.id))], i),
  );
  return [move, load, unload, hitch, unhitchOrder<GatorsExt>()];
}
