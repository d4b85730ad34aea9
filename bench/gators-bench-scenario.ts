import { join } from 'node:path';
import { boardOf, hasOverlay, terrainIdAt } from '../src/rules/engine/board';
import { parseScenario } from '../src/rules/model/parse-scenario';
import type { Scenario } from '../src/rules/model/scenario';
import { loadScenario } from '../src/scenarios/load-scenario';

/**
 * The Unnarstan scenario with a different starting position, made from the same data folder:
 * no setup phases, 30 US units ashore spread over the island with room to move, 10 AAVs each
 * next to an island militia or infantry platoon, everything else in reserve. A scenario is
 * data, so a benchmark position is just another order of battle. `base` is the Unnarstan
 * scenario (tests, which do not run from dist/, load it themselves).
 */
export function gatorsBenchScenario(
  base: Scenario = loadScenario(join(__dirname, '../../src/scenarios/gators-unnarstan')),
): { scenario: Scenario; movers: string[]; attacks: Array<{ attacker: string; target: string }> } {
  const board = boardOf(base);
  const grid = board.grid;
  const clear: number[] = [];
  const land = ['clear', 'jungle', 'hills', 'swamp'];
  for (let i = 0; i < grid.size; i++) {
    if (land.includes(terrainIdAt(board, i) ?? '') && !['city', 'airfield', 'bridge'].some((o) => hasOverlay(board, i, o))) clear.push(i);
  }
  const taken = new Set<number>();
  const far = (i: number, d: number) => [...taken].every((t) => grid.distance(t, i) >= d);
  const pick = (d: number) => {
    const i = clear.find((c) => !taken.has(c) && far(c, d));
    if (i === undefined) throw new Error('the island has no more room for the benchmark position');
    taken.add(i);
    return i;
  };

  const attacks: Array<{ attacker: string; target: string; at: string; hex: string }> = [];
  const p2Ids = [...Array.from({ length: 4 }, (_, k) => `p2-militia-${k + 1}`), ...Array.from({ length: 6 }, (_, k) => `p2-inf-${k + 1}`)];
  const freeNeighbour = (a: number) => [0, 1, 2, 3, 4, 5].map((d) => grid.neighbours[a * 6 + d]!).find((n) => n >= 0 && clear.includes(n) && !taken.has(n));
  for (let k = 0; k < 10; k++) {
    const a = clear.find((c) => !taken.has(c) && far(c, 3) && freeNeighbour(c) !== undefined);
    if (a === undefined) throw new Error('the island has no room for another attacker and target');
    taken.add(a);
    const b = freeNeighbour(a)!;
    taken.add(b);
    attacks.push({ attacker: `p1-aav-${k + 1}`, target: p2Ids[k]!, at: grid.label(a), hex: grid.label(b) });
  }
  const moverIds = [
    ...Array.from({ length: 3 }, (_, k) => `p1-rp-lhd-${k + 1}`),
    ...Array.from({ length: 3 }, (_, k) => `p1-rp-lpd-${k + 1}`),
    ...Array.from({ length: 3 }, (_, k) => `p1-rp-lsd-${k + 1}`),
    ...Array.from({ length: 4 }, (_, k) => `p1-hmmwv-auto-${k + 1}`),
    ...Array.from({ length: 4 }, (_, k) => `p1-hmmwv-tow-${k + 1}`),
    ...Array.from({ length: 3 }, (_, k) => `p1-hmmwv-stinger-${k + 1}`),
    ...Array.from({ length: 2 }, (_, k) => `p1-avenger-${k + 1}`),
    ...Array.from({ length: 8 }, (_, k) => `p1-truck-${k + 1}`),
  ];
  const moverAt = new Map(moverIds.map((id) => [id, grid.label(pick(2))]));

  const files = JSON.parse(JSON.stringify({
    'scenario.json': base.manifest, 'map.json': base.map, 'terrain.json': base.terrain, 'rules.json': base.rules, 'units.json': base.units,
    'oob.json': base.oob, 'setup.json': base.setup, 'turns.json': base.turns, 'victory.json': base.victory,
  })) as Record<string, Record<string, unknown>>;
  files['scenario.json']!['id'] = 'gators-bench';
  files['scenario.json']!['name'] = 'Gators! benchmark position';
  files['turns.json']!['setup'] = [];
  const placed = new Map<string, string>([...moverAt, ...attacks.map((x) => [x.attacker, x.at] as const), ...attacks.map((x) => [x.target, x.hex] as const)]);
  const ships: Record<string, string> = { 'p1-lhd': '0911', 'p1-lsd': '0712', 'p1-lpd': '2507' };
  const units: Array<Record<string, unknown>> = [];
  for (const entry of (files['oob.json']!['units'] as Array<Record<string, unknown>>)) {
    const ids = entry['count'] === undefined ? [entry['id'] as string] : Array.from({ length: entry['count'] as number }, (_, k) => `${entry['id']}-${k + 1}`);
    for (const id of ids) {
      const { count: _count, ...rest } = entry;
      void _count;
      // Aboard or in a box (the guerrilla pool) as in the scenario; anything else waits in reserve.
      const from = entry['at'] as { carrier?: string; box?: string };
      const at = ships[id] ? { hex: ships[id] } : placed.has(id) ? { hex: placed.get(id) } : from.carrier || from.box ? from : { box: 'reserve' };
      units.push({ ...rest, id, at });
    }
  }
  files['oob.json']!['units'] = units;
  return { scenario: parseScenario(files, 'gators-bench'), movers: moverIds, attacks: attacks.map(({ attacker, hex }) => ({ attacker, target: hex })) };
}
