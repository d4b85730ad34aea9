import { DomainError } from '../common/errors';
import { IdempotencyKeyReusedError, VersionConflictError } from '../event-store/event-store.errors';
import { gamesHarness, GamesHarness } from '../../test/support/games-harness';
import { play, setupA, setupB, startedGame } from '../../test/support/kernel-game';
import { uniqueId } from '../../test/support/database';

describe('submitting a phase: errors write nothing, retries replay, races have one winner', () => {
  let h: GamesHarness;
  let g: Awaited<ReturnType<typeof startedGame>>;
  beforeAll(async () => {
    h = await gamesHarness();
    g = await startedGame(h);
    await play(h, g.gameId, g.alice, setupA);
    await play(h, g.gameId, g.bob, setupB());
  });
  afterAll(async () => {
    await h.close();
  });

  async function rejected(p: Promise<unknown>): Promise<DomainError> {
    const version = await h.store.currentVersion(g.gameId);
    const err = await p.then(
      () => {
        throw new Error('expected a rejection');
      },
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(DomainError);
    expect(await h.store.currentVersion(g.gameId)).toBe(version);
    return err as DomainError;
  }
  const submit = async (playerId: string, orders: unknown, over: Partial<{ expectedVersion: number; kind: string; key: string }> = {}) =>
    h.submit.execute(
      {
        gameId: g.gameId,
        expectedVersion: over.expectedVersion ?? (await h.store.currentVersion(g.gameId)),
        submission: { kind: (over.kind ?? 'orders') as 'orders', orders },
        idempotencyKey: over.key ?? uniqueId('k'),
      },
      playerId,
    );

  it('refuses the wrong side', async () => {
    const err = await rejected(submit(g.bob, []));
    expect(err.code).toBe('game/not_your_turn');
    expect(err.details['acting']).toEqual(['A']);
    // The rule the engine names for it: the phase's own place in the sequence of play.
    expect(err.details['ruleId']).toBe('GT-5.2');
  });

  it('refuses a player without a seat, without even confirming that the game exists', async () => {
    const stranger = await h.player('Mallory');
    const err = await rejected(submit(stranger, []));
    expect(err.code).toBe('game/not_found');
    expect(err.message).toBe(`No game ${g.gameId} that you can see.`);
  });

  it('refuses a stale version with the current one', async () => {
    const current = await h.store.currentVersion(g.gameId);
    const err = await rejected(submit(g.alice, [], { expectedVersion: current - 1 }));
    expect(err).toBeInstanceOf(VersionConflictError);
    expect((err as VersionConflictError).currentVersion).toBe(current);
  });

  it('refuses malformed orders and unknown units with every violation', async () => {
    const shape = await rejected(submit(g.alice, 'move everything'));
    expect(shape.code).toBe('orders/malformed');
    const several = await rejected(submit(g.alice, [{ kind: 'move', unit: 'a-ship', path: ['zz'] }, { kind: 'fly', unit: 'a-ship' }]));
    expect(several.code).toBe('orders/malformed');
    expect((several.details['violations'] as Array<{ orderIndex: number }>).map((v) => v.orderIndex)).toEqual([0, 1]);
    const unknown = await rejected(submit(g.alice, [{ kind: 'move', unit: 'a-nonexistent', path: ['0204'] }]));
    expect(unknown.message).toContain('a-nonexistent');
    const kind = await rejected(submit(g.alice, [], { kind: 'telepathy' }));
    expect(kind.code).toBe('orders/malformed');
  });

  it('refuses illegal orders with their rule IDs', async () => {
    const err = await rejected(submit(g.alice, [{ kind: 'move', unit: 'a-ship', path: ['0204', '0304', '0404'] }]));
    expect(err.code).toBe('orders/illegal');
    const violations = err.details['violations'] as Array<{ ruleId: string; code: string; orderIndex: number }>;
    expect(violations.length).toBeGreaterThan(0);
    for (const v of violations) expect(v.ruleId).toMatch(/^GT-\d/);
    expect(violations[0]!.orderIndex).toBe(0);
  });

  it('replays a repeated idempotency key with the same response and no new write', async () => {
    const key = uniqueId('k');
    const version = await h.store.currentVersion(g.gameId);
    const orders = [{ kind: 'move', unit: 'a-ship', path: ['0204'] }];
    const first = await submit(g.alice, orders, { key, expectedVersion: version });
    const after = await h.store.currentVersion(g.gameId);
    const again = await submit(g.alice, orders, { key, expectedVersion: version });
    expect(JSON.stringify(again)).toBe(JSON.stringify(first));
    expect(await h.store.currentVersion(g.gameId)).toBe(after);
    const reused = await rejected(submit(g.alice, [], { key, expectedVersion: after }));
    expect(reused).toBeInstanceOf(IdempotencyKeyReusedError);
    // With orders the rules refuse, and the game held by this process: still the key's answer.
    const reusedBadly = await rejected(submit(g.alice, [{ kind: 'no-such-order' }], { key, expectedVersion: after }));
    expect(reusedBadly).toBeInstanceOf(IdempotencyKeyReusedError);
    expect(await rejected(submit(g.alice, [{ kind: 'no-such-order' }], { key: uniqueId('k'), expectedVersion: after }))).toMatchObject({ code: 'orders/malformed' });
  });

  it('replays a retry whose orders list their keys in another order, and still tells orders apart by their order in a list', async () => {
    // A game of its own, at its first movement phase: the one above has moved on.
    const own = await startedGame(h);
    await play(h, own.gameId, own.alice, setupA);
    await play(h, own.gameId, own.bob, setupB());
    const key = uniqueId('k');
    const version = await h.store.currentVersion(own.gameId);
    const send = (orders: unknown) => h.submit.execute({ gameId: own.gameId, expectedVersion: version, submission: { kind: 'orders', orders }, idempotencyKey: key }, own.alice);
    const first = await send([{ kind: 'move', unit: 'a-ship', path: ['0204'] }, { kind: 'unload', unit: 'a-apc-1', hex: '0304' }]);
    const after = await h.store.currentVersion(own.gameId);
    // A client that rebuilds its orders for the retry (or passes them through a map) may write the keys in another order.
    const again = await send([{ path: ['0204'], unit: 'a-ship', kind: 'move' }, { hex: '0304', kind: 'unload', unit: 'a-apc-1' }]);
    expect(JSON.stringify(again)).toBe(JSON.stringify(first));
    expect(await h.store.currentVersion(own.gameId)).toBe(after);
    await expect(send([{ kind: 'unload', unit: 'a-apc-1', hex: '0304' }, { kind: 'move', unit: 'a-ship', path: ['0204'] }])).rejects.toBeInstanceOf(IdempotencyKeyReusedError);
    expect(await h.store.currentVersion(own.gameId)).toBe(after);
  });

  it('gives one winner and one conflict to concurrent submissions', async () => {
    const version = await h.store.currentVersion(g.gameId);
    const results = await Promise.allSettled([submit(g.alice, [], { expectedVersion: version }), submit(g.alice, [], { expectedVersion: version })]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const lost = results.find((r): r is PromiseRejectedResult => r.status === 'rejected')!;
    expect(lost.reason).toBeInstanceOf(VersionConflictError);
  });

  it('answers a retry sent to another server that still holds the older game with the first answer, and a stale submission there with a conflict', async () => {
    const other = await gamesHarness(); // a second instance: its own loader, the same database
    try {
      const version = await h.store.currentVersion(g.gameId);
      const held = await other.loader.load(g.gameId); // it now holds the game at `version` and reads nothing for it
      expect(other.loader.held(g.gameId, version)).toBeDefined();
      const acting = held.system.phase(held.state.rules).acting[0] === 'A' ? g.alice : g.bob;
      const key = uniqueId('k');
      const orders: unknown[] = [];
      const first = await submit(acting, orders, { key, expectedVersion: version });
      const after = await h.store.currentVersion(g.gameId);
      const retry = await other.submit.execute({ gameId: g.gameId, expectedVersion: version, submission: { kind: 'orders', orders }, idempotencyKey: key }, acting);
      expect(JSON.stringify(retry)).toBe(JSON.stringify(first));
      const stale = await other.submit
        .execute({ gameId: g.gameId, expectedVersion: version, submission: { kind: 'orders', orders }, idempotencyKey: uniqueId('k') }, acting)
        .catch((e: unknown) => e);
      expect(stale).toBeInstanceOf(VersionConflictError);
      expect((stale as VersionConflictError).currentVersion).toBe(after);
      expect(await h.store.currentVersion(g.gameId)).toBe(after);
    } finally {
      await other.close();
    }
  });

  it('answers a dry run sent to another server that still holds the older game with the conflict the submission would meet', async () => {
    const other = await gamesHarness();
    try {
      const version = await h.store.currentVersion(g.gameId);
      const held = await other.loader.load(g.gameId);
      const acting = held.system.phase(held.state.rules).acting[0] === 'A' ? g.alice : g.bob;
      const dryRun = (expectedVersion: number) =>
        other.check.execute({ gameId: g.gameId, expectedVersion, submission: { kind: 'orders', orders: [] } }, acting);
      expect(await dryRun(version)).toEqual({ valid: true, version, violations: [] });
      await submit(acting, [], { expectedVersion: version });
      const after = await h.store.currentVersion(g.gameId);
      expect(other.loader.held(g.gameId, version)).toBeDefined(); // the other server still holds the old game
      const stale = await dryRun(version).catch((e: unknown) => e);
      expect(stale).toBeInstanceOf(VersionConflictError);
      expect((stale as VersionConflictError).currentVersion).toBe(after);
      const next = held.system.phase((await other.loader.load(g.gameId)).state.rules).acting[0] === 'A' ? g.alice : g.bob;
      const current = await other.check.execute({ gameId: g.gameId, expectedVersion: after, submission: { kind: 'orders', orders: [] } }, next);
      expect(current.version).toBe(after);
    } finally {
      await other.close();
    }
  });

  it('refuses everything once the game has ended', async () => {
    const version = await h.store.currentVersion(g.gameId);
    await h.actions.resign(g.gameId, version, g.bob);
    const err = await rejected(submit(g.alice, []));
    expect(err.code).toBe('game/finished');
  });
});
