import { JsonObject } from '../../../model/json';
import { GameState, UnitState } from '../../../model/state';
import { Board } from '../../../engine/board';
import { Block } from '../../../engine/movement/context';
import { flag, typeOf } from '../../../engine/queries';
import { unitIndex } from '../../../engine/unit-index';
import { stackProblem, stackTypesAt } from '../../../engine/stacking';
import { violation } from '../../../engine/violation';
import { RulesEvent, Violation } from '../../../engine/types';
import { GatorsFeature } from '../feature';
import { GState } from '../ext';
import { crewed, isShip, tagged } from '../queries';

const UNLOADED_CARRIER = 'unloadedCargo';

/**
 * GT-6F.1: the public mark that a transport has unloaded this turn and its move is over. One mark for every
 * transport, on land, on water or in the air, and for an unload onto a ship (which is a record of its own, so
 * the mark is a separate public event): the unload's projection and its resolution (afterUnload) both write it.
 */
export function carrierUnloaded(carrier: string): RulesEvent {
  return { type: 'UnitMarked', data: { unit: carrier, flags: { [UNLOADED_CARRIER]: true } }, visibility: { to: 'all' } };
}

/**
 * Ordinary movement rules that the kernel does not know:
 * - GT-5.2 / Q-GT-17: in P1's movement phase the ships move first;
 * - Q-GT-10: a ground unit may not enter or pass a bridge hex holding a
 *   ground unit, unless stacking would let it join that unit (boats pass under);
 * - GT-2.20: a FAV without a small team aboard cannot move (or attack, or exert a ZOC: for the
 *   real move, and in the planning of the side it belongs to);
 * - GT-6F.1: a transport that has unloaded this turn may not move on.
 */
export const movementRules: GatorsFeature = {
  id: 'movement-rules',
  rules: ['GT-5.2', 'Q-GT-17', 'GT-3.14', 'Q-GT-10', 'GT-2.20', 'GT-6F.1'],
  phases: {
    movement: { validateSubmission: (before, _after, _side, orders) => shipsFirst(before, orders) },
  },
  move: {
    moveProblem: (state, u, i) => {
      if (!crewed(state, u)) return violation('GT-2.20', 'movement/no_crew', `${u.id} cannot move without a small team aboard`, i);
      if (flag(u, UNLOADED_CARRIER)) return violation('GT-6F.1', 'transport/unloaded_carrier', `${u.id} has unloaded this turn; its move is over`, i);
      return null;
    },
    // Whether a FAV has its crew aboard is hidden cargo (Q-GT-01): a mover that cannot see aboard
    // plans as if it had one, so that its options and refusals never tell it that the FAV is empty.
    zocVeto: (state, enemy, _t, _m, knownTo) => !crewed(state, enemy) && (knownTo === null || knownTo === enemy.side || state.scenario.rules.visibility.enemyCargo !== 'hidden'),
    blocked: (state, mover, board) => occupiedBridges(state, mover, board),
  },
  odds: {
    attackerProblem: (state, u, i) => (crewed(state, u) ? null : violation('GT-2.20', 'combat/no_crew', `${u.id} cannot attack without a small team aboard`, i)),
  },
  afterUnload: () => (ctx, info, resume) => {
    if (resume !== undefined) return;
    const carrier = ctx.state.units[info.carrier];
    if (carrier !== undefined && !flag(carrier, UNLOADED_CARRIER)) ctx.emit(carrierUnloaded(info.carrier));
  },
};

/** Movement-phase orders that move or place no counter, so GT-5.2's "then all other counters" does not reach them. */
const MOVES_NOTHING: ReadonlySet<unknown> = new Set(['arm', 'stack-order', 'refill']);

function shipsFirst(state: GState, orders: readonly JsonObject[]): Violation[] {
  const out: Violation[] = [];
  let others = false;
  orders.forEach((o, i) => {
    const id = typeof o['unit'] === 'string' ? o['unit'] : '';
    const u = state.units[id];
    const ship = o['kind'] === 'move' && u !== undefined && isShip(state, u);
    // Only a ship's move must come first: an order that moves nothing may come anywhere.
    if (ship && others) out.push(violation('GT-5.2', 'movement/ships_first', `ships move before all other units (${id} comes after another order)`, i));
    else if (!ship && !MOVES_NOTHING.has(o['kind'])) others = true;
  });
  return out;
}

/** Q-GT-10: bridge hexes a ground mover may not enter, with the reason. Enemy-held hexes are closed by the kernel already. */
function occupiedBridges(state: GameState, mover: UnitState, board: Board): ReadonlyMap<number, Block> {
  const out = new Map<number, Block>();
  if (board.bridges.size === 0 || !tagged(state, mover, 'ground')) return out;
  const x = unitIndex(state);
  for (const i of board.bridges.keys()) {
    if (i < 0) continue;
    const hex = board.grid.label(i);
    // Asked for every mover: most bridges stand empty, so nothing is made for them.
    const here = x.standing.get(hex);
    if (here === undefined || !here.some((u) => u.id !== mover.id && u.side === mover.side && tagged(state, u, 'ground'))) continue;
    const joined = [...stackTypesAt(state, mover.side, hex, new Set([mover.id])), typeOf(state, mover)];
    if (stackProblem(state, board, mover.side, i, joined) !== null)
      out.set(i, { ruleId: 'Q-GT-10', code: 'movement/bridge_occupied', message: `a unit stopped on the bridge at ${hex} cannot be bypassed (GT-3.14)` });
  }
  return out;
}
