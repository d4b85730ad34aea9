import type { GamesHarness } from './games-harness';
import { uniqueId } from './database';

/** A started kernel-test game between two fresh players: A (blue) and B (red). */
export async function startedGame(h: GamesHarness, options: Record<string, unknown> = {}) {
  const alice = await h.player('Alice');
  const bob = await h.player('Bob', 'America/New_York');
  const created = await h.create.execute({ scenarioId: 'kernel-test', title: 'Test match', side: 'A', options }, alice);
  const inv = await h.invitations.invite(created.gameId, 'B', 'token', alice);
  const joined = await h.invitations.join({ token: inv.token! }, bob);
  return { gameId: created.gameId, alice, bob, version: joined.version, seedCommitment: created.seedCommitment };
}

export const setupA = [{ kind: 'place', unit: 'a-ship', hex: '0105' }];

/**
 * B's setup; `variant` changes only what A may not see (which unit hides under which "?"), and
 * `moved` puts some units in other hexes (a position a test needs).
 */
export function setupB(variant: 0 | 1 = 0, moved: Record<string, string> = {}) {
  const hidden = variant === 0 ? ['b-inf-1', 'b-inf-2'] : ['b-inf-2', 'b-inf-1'];
  const orders = [
    { kind: 'place', unit: hidden[0]!, hex: '0706', hidden: true },
    { kind: 'place', unit: hidden[1]!, hex: '1007', hidden: true },
    { kind: 'place', unit: 'b-inf-3', hex: '1004' },
    { kind: 'place', unit: 'b-aa', hex: '1105' },
    { kind: 'place', unit: 'b-m48', hex: '0504' },
    { kind: 'place', unit: 'b-boat', hex: '0306' },
  ];
  return orders.map((o) => (moved[o.unit] ? { ...o, hex: moved[o.unit] } : o));
}

/** Submits orders as a player at the game's current version. */
export async function play(h: GamesHarness, gameId: string, playerId: string, orders: unknown, kind: 'orders' | 'reaction' | 'standing-orders' = 'orders') {
  const version = await h.store.currentVersion(gameId);
  return h.submit.execute({ gameId, expectedVersion: version, submission: { kind, orders }, idempotencyKey: uniqueId('k') }, playerId);
}

type Game = { gameId: string; alice: string; bob: string };

/** Both setups, then A's ship brings its APC next to the beach and the turn goes round to A's move. */
export async function toLandingTurn(h: GamesHarness, g: Game) {
  await play(h, g.gameId, g.alice, setupA);
  await play(h, g.gameId, g.bob, setupB());
  await play(h, g.gameId, g.alice, [{ kind: 'move', unit: 'a-ship', path: ['0204'] }, { kind: 'unload', unit: 'a-apc-1', hex: '0304' }]);
  await play(h, g.gameId, g.alice, []);
  await play(h, g.gameId, g.bob, []);
  await play(h, g.gameId, g.bob, []);
}

/** A's APC lands next to B's tank: B's anti-landing fire window opens (unless standing orders answer it). */
export function land(h: GamesHarness, g: Pick<Game, 'gameId' | 'alice'>) {
  return play(h, g.gameId, g.alice, [{ kind: 'move', unit: 'a-apc-1', path: ['0404'] }]);
}
