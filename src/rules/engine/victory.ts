import { GameState, HexLabel, UnitState } from '../model/state';
import { boardOf, inArea } from './board';
import { hasTag, hexOf, typeOf, allUnits } from './queries';
import { assertNever } from './assert-never';

export interface Outcome {
  readonly winner: string | null;
  readonly reason: string;
  readonly ruleId: string;
}

/** Where a unit counts for an area; by default where it is, aboard a carrier included. */
export type PlaceOf = (state: GameState, u: UnitState) => HexLabel | null;

/** The data-driven victory conditions of victory.json, checked at the end of every turn. */
export function checkVictory(state: GameState, placeOf: PlaceOf = hexOf): Outcome | null {
  const s = state.scenario;
  const board = boardOf(s);
  for (const c of s.victory.conditions) {
    switch (c.kind) {
      case 'occupy': {
        const there = allUnits(state).filter((u) => {
          const h = u.side === c.side ? placeOf(state, u) : null;
          return h !== null && inArea(board, c.area, board.grid.indexOf(h));
        });
        const met = c.requires.every((r) => there.filter((u) => hasTag(typeOf(state, u), r.tags)).length >= r.count);
        if (!met) break;
        if (c.noEnemyWithin !== null) {
          const idx = Array.from({ length: board.grid.size }, (_, i) => i).filter((i) => inArea(board, c.area, i));
          const near = allUnits(state).some((u) => {
            if (u.side === c.side) return false;
            const h = hexOf(state, u);
            if (h === null) return false;
            const i = board.grid.indexOf(h);
            return idx.some((j) => board.grid.distance(i, j) <= c.noEnemyWithin!);
          });
          if (near) break;
        }
        return { winner: c.side, reason: `${c.id} achieved`, ruleId: c.ruleId };
      }
      case 'eliminate': {
        const left = allUnits(state).some((u) => u.side !== c.side && u.loc.at !== 'eliminated' && hasTag(typeOf(state, u), c.enemyTags));
        if (!left) return { winner: c.side, reason: `${c.id} achieved`, ruleId: c.ruleId };
        break;
      }
      default:
        assertNever(c, 'victory condition');
    }
  }
  return null;
}

export function turnLimitOutcome(state: GameState): Outcome {
  const t = state.scenario.victory.atTurnLimit;
  return { winner: t.winner, reason: t.reason, ruleId: t.ruleId };
}
