import { GameState, HexLabel, UnitState } from '../model/state';
import { boardOf } from './board';
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
        const area = new Set<string>();
        const a = c.area;
        if ('hexes' in a) a.hexes.forEach((h) => area.add(h));
        else for (const city of s.map.cities) if (('city' in a && city.id === a.city) || ('capital' in a && city.capital)) city.hexes.forEach((h) => area.add(h));
        const inArea = allUnits(state).filter((u) => {
          const h = u.side === c.side ? placeOf(state, u) : null;
          return h !== null && area.has(h);
        });
        const met = c.requires.every((r) => inArea.filter((u) => hasTag(typeOf(state, u), r.tags)).length >= r.count);
        if (!met) break;
        if (c.noEnemyWithin !== null) {
          const idx = [...area].map((h) => board.grid.indexOf(h));
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
