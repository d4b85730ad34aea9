import { GameState } from '../../model/state';
import { RulesEvent } from '../types';

interface Placed {
  unit: string;
  hex?: string;
  hidden?: string;
}

/**
 * The placements of a sealed setup, put in an order that tells nothing hidden. Applied in the
 * order a side wrote them, a placement under a marker sat where its unit stands in that list,
 * which a client writes in the order of battle whatever it hides: the other side read from the
 * position of a "?" which unit it was. Placements onto the map touch only their own unit, so
 * they are given back in the same places of the log (the other events do not move) sorted by
 * what the other sides may read of them: side, those in sight (by hex, unit), then the concealed,
 * which they all read alike (MarkerPlaced names no hex).
 */
export function placementsInPublicOrder(state: GameState, events: RulesEvent[], from: number): void {
  const slots: number[] = [];
  for (let i = from; i < events.length; i++) {
    const e = events[i]!;
    if (e.type === 'UnitPlaced' && (e.data as Placed).hex !== undefined) slots.push(i);
  }
  const sides = Object.keys(state.sides);
  const key = (e: RulesEvent) => {
    const d = e.data as Placed;
    return [sides.indexOf(state.units[d.unit]?.side ?? ''), d.hidden === undefined ? 0 : 1, d.hex!, d.unit] as const;
  };
  const sorted = slots.map((i) => events[i]!).sort((a, b) => {
    const x = key(a);
    const y = key(b);
    return x[0] - y[0] || x[1] - y[1] || x[2].localeCompare(y[2]) || x[3].localeCompare(y[3]);
  });
  slots.forEach((i, k) => (events[i] = sorted[k]!));
}
