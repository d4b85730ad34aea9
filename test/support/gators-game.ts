import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CatalogEntry } from '../../src/games/game-catalog';
import { catalogEntry } from '../../src/games/catalog-builder';
import { gators } from '../../src/rules/systems/gators';
import { loadScenario } from '../../src/scenarios/load-scenario';
import type { GamesHarness } from './games-harness';
import { play } from './kernel-game';

const examples = join(__dirname, '../../src/rules/systems/gators/examples');
export const gatorsExample = (name: string) => JSON.parse(readFileSync(join(examples, name), 'utf8')) as { side: string; phase: string; orders: Array<Record<string, unknown>> };
export const gatorsTurn1 = () => JSON.parse(readFileSync(join(examples, 'turn-1.json'), 'utf8')) as { submissions: Array<{ side: string; phase: string; orders: unknown[] }> };

let entry: CatalogEntry | undefined;
/** The real Unnarstan scenario folder, as the server loads it. */
export function gatorsEntry(): CatalogEntry {
  entry ??= catalogEntry(loadScenario(join(__dirname, '../../src/scenarios/gators-unnarstan')), gators);
  return entry;
}

export interface GatorsGame {
  gameId: string;
  us: string;
  island: string;
  seedCommitment: string;
  by(side: string): string;
}

/** A seated Gators! game: the US player holds P1, the island's player P2. */
export async function seatedGatorsGame(h: GamesHarness, options: Record<string, unknown> = {}): Promise<GatorsGame> {
  const us = await h.player('Uma (USMC)', 'America/New_York');
  const island = await h.player('Ivo (Unnarstan)', 'Europe/Berlin');
  const created = await h.create.execute({ scenarioId: 'gators-unnarstan', title: 'Operation Gator', side: 'P1', options }, us);
  const inv = await h.invitations.invite(created.gameId, 'P2', 'open', us);
  await h.invitations.join({ invitationId: inv.invitationId }, island);
  return { gameId: created.gameId, us, island, seedCommitment: created.seedCommitment, by: (side) => (side === 'P1' ? us : island) };
}

/**
 * P2's example setup, or the same with two camouflaged units of different types swapped between
 * their hexes: 1 keeps each hex's order where it was, 2 keeps each unit's (the example lists the
 * units in the order of battle, as a client would whatever it hides). 3 and 4 hide a truck under
 * the "?" of one 75mm howitzer or of another: the same markers on the same hexes.
 */
export function p2SetupVariant(variant: 0 | 1 | 2 | 3 | 4) {
  const setup = gatorsExample('setup-p2.json');
  if (variant === 0) return setup.orders;
  if (variant >= 3) {
    const gun = setup.orders.find((o) => o['unit'] === (variant === 3 ? 'p2-how75-1' : 'p2-how75-2'))!;
    return setup.orders.map((o) => (o['unit'] === 'p2-truck-1' ? { ...o, hex: gun['hex'], hidden: true } : o));
  }
  const a = setup.orders.find((o) => o['kind'] === 'place' && o['hidden'] && String(o['unit']).startsWith('p2-m113'));
  const b = setup.orders.find((o) => o['kind'] === 'place' && o['hidden'] && String(o['unit']).startsWith('p2-how75'));
  if (!a || !b) throw new Error('the example setup needs a camouflaged M113 and a camouflaged 75mm howitzer');
  if (variant === 1) return setup.orders.map((o) => (o === a ? { ...o, unit: b['unit'] } : o === b ? { ...o, unit: a['unit'] } : o));
  return setup.orders.map((o) => (o === a ? { ...o, hex: b['hex'] } : o === b ? { ...o, hex: a['hex'] } : o));
}

/** Both setups and the ship placement, through the service. */
export async function gatorsSetup(h: GamesHarness, g: GatorsGame, p2Variant: 0 | 1 | 2 | 3 | 4 = 0): Promise<void> {
  await play(h, g.gameId, g.us, gatorsExample('setup-p1.json').orders);
  await play(h, g.gameId, g.island, p2SetupVariant(p2Variant));
  await play(h, g.gameId, g.us, gatorsExample('ships.json').orders);
}
