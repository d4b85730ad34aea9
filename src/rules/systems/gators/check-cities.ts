import { boardOf } from '../../engine/board';
import { Scenario } from '../../model/scenario';
import { Report } from '../../model/scenario-error';

/**
 * GT-3.16: all city hexes next to each other count as one city. Every rule that asks what "the
 * city" is reads one `map.json cities` entry (victory's `capital` and `city` areas), so each entry
 * must be one connected group of hexes and touch no other entry; otherwise a city would be split
 * in two, or two entries would be one city the rules read as two. The map generator checks this
 * for Unnarstan; a hand-made map is checked here at load.
 */
export function checkCities(s: Scenario, report: Report): void {
  const { grid } = boardOf(s);
  const cityOf = new Map<number, number>();
  s.map.cities.forEach((c, k) => c.hexes.forEach((h) => cityOf.set(grid.indexOf(h), k)));
  s.map.cities.forEach((c, k) => {
    const own = c.hexes.map((h) => grid.indexOf(h));
    const seen = new Set<number>(own.slice(0, 1));
    const todo = own.slice(0, 1);
    const touching = new Set<number>();
    while (todo.length > 0) {
      const i = todo.pop()!;
      for (let d = 0; d < 6; d++) {
        const n = grid.neighbour(i, d);
        const o = n < 0 ? undefined : cityOf.get(n);
        if (o === k && !seen.has(n)) {
          seen.add(n);
          todo.push(n);
        } else if (o !== undefined && o !== k) touching.add(o);
      }
    }
    if (seen.size < new Set(own).size) report('map.json', ['cities', k, 'hexes'], `city "${c.id}" is not one group of adjacent hexes: its parts are separate cities (GT-3.16)`);
    for (const o of touching)
      if (o > k) report('map.json', ['cities', k, 'hexes'], `cities "${c.id}" and "${s.map.cities[o]!.id}" touch: adjacent city hexes are one city (GT-3.16), make them one entry`);
  });
}
