import { CreateGameHandler } from '../../../src/games/commands/create-game.handler';
import { InvitationsHandler } from '../../../src/games/commands/invitations.handler';
import { SubmitPhaseHandler } from '../../../src/games/commands/submit-phase.handler';
import { EventStore } from '../../../src/event-store/event-store.service';
import { uniqueId } from '../../support/database';
import type { ApiApp } from './api-app';

/**
 * A kernel-test game between two new players, started through the app's own services (for tests
 * that need a moment the API cannot reach: a commit between two reads, the deadline worker).
 */
export async function serviceGame(app: ApiApp, options: Record<string, unknown> = {}) {
  const nest = app.running.app;
  const players = { alice: await app.player('Alice'), bob: await app.player('Bob') };
  const [alice, bob] = [players.alice.id, players.bob.id];
  const { gameId } = await nest.get(CreateGameHandler).execute({ scenarioId: 'kernel-test', side: 'A', options }, alice);
  const invitations = nest.get(InvitationsHandler);
  await invitations.join({ token: (await invitations.invite(gameId, 'B', 'token', alice)).token! }, bob);
  const store = nest.get(EventStore);
  /** Submits orders as a player at the game's current version. */
  const submit = async (player: string, orders: unknown) =>
    nest.get(SubmitPhaseHandler).execute({ gameId, expectedVersion: await store.currentVersion(gameId), submission: { kind: 'orders', orders }, idempotencyKey: uniqueId('k') }, player);
  return { nest, gameId, alice, bob, players, store, submit };
}
