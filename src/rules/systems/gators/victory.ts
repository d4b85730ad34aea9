import { GameState } from '../../model/state';
import { boardOf } from '../../engine/board';
import { allUnits, hasTag, hexOf, typeOf } from '../../engine/queries';
import { Outcome } from '../../engine/victory';
import { assertNever } from '../../engine/assert-never';

/**
 * GT-8.1 with Q-GT-46, checked at the end of every turn (the kernel calls it
 * after the last phase): victory.json's conditions, but only units standing
 * in the area count — a ground unit still aboard a helicopter has not taken
 * the capital, and the UH-1Ns must have landed there. No enemy unit may be in
 * the area or within `noEnemyWithin` of it (hidden and broken units count:
 * this is the real state).
 */
export function gatorsVictory(state: GameState): Outcome | null {
  const s = state.scenario;
  const board = boardOf(s);
  for (const c of s.victory.conditions) {
    switch (c.kind) {
      case 'occupy': {
        const area = new Set<string>();
        const a = c.area;
        if ('hexes' in a) a.hexes.forEach((h) => area.add(h));
        else for (const city of s.map.cities) if (('city' in a && city.id === a.city) || ('capital' in a && city.capital)) city.hexes.forEach((h) => area.add(h));
        const inArea = allUnits(state).filter((u) => u.side === c.side && u.loc.at === 'hex' && area.has(u.loc.hex));
        if (!c.requires.every((r) => inArea.filter((u) => hasTag(typeOf(state, u), r.tags)).length >= r.count)) break;
        if (c.noEnemyWithin !== null) {
          const idx = [...area].map((h) => board.grid.indexOf(h));
          const near = allUnits(state).some((u) => {
            const h = u.side === c.side ? null : hexOf(state, u);
            return h !== null && idx.some((j) => board.grid.distance(board.grid.indexOf(h), j) <= c.noEnemyWithin!);
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
