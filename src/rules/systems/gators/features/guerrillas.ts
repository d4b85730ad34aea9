import { z } from 'zod';
import { GameState, UnitState } from '../../../model/state';
import { boardOf, isOnMap } from '../../../engine/board';
import { OrderHandler } from '../../../engine/kit/types';
import { hexOptions, labelSchema } from '../../../engine/orders/common';
import { allUnits, mediumAt, typeOf } from '../../../engine/queries';
import { canStandIn } from '../../../engine/transport';
import { violation } from '../../../engine/violation';
import { SideId, Violation } from '../../../engine/types';
import { moduleOn } from '../data';
import { CoreHooks, GatorsFeature } from '../feature';
import { AIRFIELDS_MODULE, stopped } from './airfields';
import { GatorsExt, GState } from '../ext';
import { enemyWithin } from '../ground';
import { groundData } from '../ground-data';
import { closedToPlacing, idOrder, privateTo, publicOf, tagged } from '../queries';
import { cancel } from '../orders/wrap';

/** The scenario.json module that switches GT-6M.3 (the water purifier) on. */
export const ROWPU_MODULE = 'rowpu';

/**
 * Guerrillas (GT-6M, GT-7L.1, Q-GT-28) and the ROWPU (GT-2.28, GT-6M.3).
 * The guerrilla phase is P2's submission: an empty one raises nothing; one
 * `raise-guerrillas` order names the hex P2 wants (any empty land hex not next
 * to a P1 unit) and asks for the roll, which the engine makes when the order
 * resolves, with the game's verifiable dice — P2 chooses before it knows the
 * roll, P1 never rolls for P2, and the roll is public. It needs 4+ (6 while a
 * P1 ROWPU stands in or next to a city hex; nothing moves between the start
 * of this phase and its resolution, so "at the start of the phase" is the
 * same). Only after P2's first loss, and only while a Guerrilla counter is
 * unused: 4 in all, a destroyed one may be raised again (GT-7L.1). A failed
 * roll tells P1 only the roll, not the hex P2 had chosen. Attacking
 * Guerrillas needs a 5–6 first (GT-6M.4): units.json `guerrillas.effects`.
 */
export const raiseSchema = z.strictObject({ kind: z.literal('raise-guerrillas'), hex: labelSchema });
export type RaiseOrder = z.infer<typeof raiseSchema>;

/** The counter a raise uses: one never raised first (the pool), then a destroyed one. */
export function nextGuerrilla(state: GameState, side: SideId): UnitState | undefined {
  const d = groundData(state.scenario).guerrillas;
  const mine = allUnits(state).filter((u) => u.side === side && tagged(state, u, ...d.tags));
  const by = (a: UnitState, b: UnitState) => idOrder(a.id, b.id);
  return mine.filter((u) => u.loc.at === 'box' && u.loc.box === d.pool).sort(by)[0] ?? mine.filter((u) => u.loc.at === 'eliminated').sort(by)[0];
}

/** GT-6M.3, Q-GT-28: an enemy water purifier stands in or next to a city hex. */
export function waterSupplied(state: GameState, side: SideId): boolean {
  const board = boardOf(state.scenario);
  const d = groundData(state.scenario).guerrillas;
  return allUnits(state).some((u) => {
    if (u.side === side || u.loc.at !== 'hex' || !tagged(state, u, ...d.waterTags)) return false;
    const i = board.grid.indexOf(u.loc.hex);
    return board.cityOf[i]! >= 0 || board.grid.neighbours.slice(i * 6, i * 6 + 6).some((n) => n >= 0 && board.cityOf[n]! >= 0);
  });
}

function checkRaise(state: GameState, h: CoreHooks, side: SideId, o: RaiseOrder, i: number): Violation[] {
  if (!allUnits(state).some((u) => u.side === side && u.loc.at === 'eliminated'))
    return [violation('GT-6M.1', 'guerrillas/no_losses', 'guerrillas rise only after the first losses', i)];
  const g = nextGuerrilla(state, side);
  if (g === undefined) return [violation('Q-GT-28', 'guerrillas/none_left', 'every Guerrilla counter is on the map', i)];
  const board = boardOf(state.scenario);
  const at = board.grid.indexOf(o.hex);
  if (!isOnMap(board, at) || mediumAt(board, at) !== 'land' || !canStandIn(board, typeOf(state, g), at))
    return [violation('Q-GT-28', 'guerrillas/not_land', `Guerrillas are placed on a land hex, not ${o.hex}`, i)];
  if (allUnits(state).some((u) => u.loc.at === 'hex' && u.loc.hex === o.hex)) return [violation('Q-GT-28', 'guerrillas/occupied', `${o.hex} is not empty`, i)];
  if (enemyWithin(state, side, at, 1)) return [violation('GT-6M.2', 'guerrillas/enemy_adjacent', `${o.hex} is next to an enemy unit`, i)];
  // An empty land hex may still be closed to a ground unit: a bridge Debris destroyed (GT-6Q.8, Q-GT-22).
  const closed = closedToPlacing(h.move, state, g, o.hex);
  return closed === null ? [] : [violation(closed.ruleId, closed.code, closed.message, i)];
}

function raiseOrder(h: CoreHooks): OrderHandler<GatorsExt, RaiseOrder> {
  return {
    kind: 'raise-guerrillas',
    schema: raiseSchema,
    validate: (state, side, o, i) => checkRaise(state, h, side, o, i),
    // Every hex a raise may name now (the roll decides the rest).
    sideOptions: {
      list: (state, side) => hexOptions(state, 'raise-guerrillas', (hex) => checkRaise(state, h, side, { kind: 'raise-guerrillas', hex }, 0).length === 0),
      order: (x) => ({ kind: 'raise-guerrillas', hex: (x.detail as { hex: string }).hex }),
    },
    // The roll decides; later orders of the phase may not count on it.
    project: () => [],
    resolve: (ctx, o, i) => {
      const v = checkRaise(ctx.state, h, ctx.side, o, i);
      if (v.length > 0) return cancel(ctx, i, 'raise-guerrillas', v[0]!);
      const d = groundData(ctx.state.scenario).guerrillas;
      const need = moduleOn(ctx.state.scenario, ROWPU_MODULE) && waterSupplied(ctx.state, ctx.side) ? d.needWithWater : d.need;
      const roll = ctx.dice.roll(d.die, `guerrillas (${d.ruleId})`);
      if (roll < need) {
        ctx.emit(privateTo(ctx.side, 'GuerrillasNotRaised', { side: ctx.side, hex: o.hex, roll, need }, { type: 'GuerrillasNotRaised', data: { side: ctx.side, roll, need } }));
        return;
      }
      const unit = nextGuerrilla(ctx.state, ctx.side)!.id;
      ctx.emit(publicOf('GuerrillasRaised', { side: ctx.side, unit, hex: o.hex, roll, need }));
      // The counter now occupies the hex (GT-6P.3): on an airfield P1 holds, that takes it back.
      if (moduleOn(ctx.state.scenario, AIRFIELDS_MODULE)) stopped(ctx, ctx.state.units[unit]!);
    },
  };
}

function raised(state: GState, data: unknown): GState {
  const d = data as { unit: string; hex: string };
  const { hidden: _h, ...u } = state.units[d.unit]!;
  return { ...state, units: { ...state.units, [d.unit]: { ...u, loc: { at: 'hex', hex: d.hex }, flags: {}, attrs: {} } } };
}

export const guerrillas: GatorsFeature = {
  id: 'guerrillas',
  rules: ['GT-6M.1', 'GT-6M.2', 'GT-6M.3', 'GT-6M.4', 'GT-6M.5', 'GT-7L.1', 'Q-GT-28', 'GT-2.28'],
  phases: {
    guerrillas: {
      orders: (h) => [raiseOrder(h)],
      validateSubmission: (_b, _a, _side, orders) =>
        orders.length > 1 ? [violation('Q-GT-28', 'guerrillas/one_roll', 'one roll per guerrilla phase', 1)] : [],
    },
  },
  events: {
    GuerrillasRaised: (s, e) => raised(s, e.data),
    GuerrillasNotRaised: (s) => s,
  },
};
