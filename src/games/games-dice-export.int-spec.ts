import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { DomainError } from '../common/errors';
import { gamesHarness, GamesHarness } from '../../test/support/games-harness';
import { play, setupA, setupB, startedGame } from '../../test/support/kernel-game';
import { uniqueId } from '../../test/support/database';
import { verifyDice } from './dice/verify-dice';

describe('verifiable dice and the game export', () => {
  let h: GamesHarness;
  let exported: Record<string, unknown> & { events: Array<{ version: number; type: string; data: Record<string, unknown> }> };
  let g: Awaited<ReturnType<typeof startedGame>>;

  beforeAll(async () => {
    h = await gamesHarness();
    g = await startedGame(h);
    await play(h, g.gameId, g.alice, setupA);
    await play(h, g.gameId, g.bob, setupB());
    await play(h, g.gameId, g.bob, { 'landing-fire': 'all' }, 'standing-orders');
    await play(h, g.gameId, g.alice, [{ kind: 'move', unit: 'a-ship', path: ['0204'] }, { kind: 'unload', unit: 'a-apc-1', hex: '0304' }]);
    await play(h, g.gameId, g.alice, []);
    await play(h, g.gameId, g.bob, []);
    await play(h, g.gameId, g.bob, []);
    await play(h, g.gameId, g.alice, [{ kind: 'move', unit: 'a-apc-1', path: ['0404'] }]);
    const err = (await h.queries.export(g.gameId, g.alice).catch((e: unknown) => e)) as DomainError;
    expect(err.code).toBe('game/not_finished');
    await h.actions.resign(g.gameId, await h.store.currentVersion(g.gameId), g.alice);
    exported = (await h.queries.export(g.gameId, g.bob)) as typeof exported;
  });
  afterAll(async () => {
    await h.close();
  });

  it('publishes the commitment at creation and reveals the matching seed at the end', async () => {
    const s = await h.queries.summary(g.gameId, g.alice);
    expect(s.status).toBe('finished');
    expect(s.seedCommitment).toBe(g.seedCommitment);
    expect(exported).toMatchObject({ format: 'fieldpost.game-export', formatVersion: 1, scenario: { id: 'kernel-test' }, dice: { seedCommitment: g.seedCommitment, seed: s.seed } });
    expect(exported.events[0]).toMatchObject({ version: 1, type: 'GameCreated' });
  });

  it('re-derives every roll of the finished game', () => {
    const report = verifyDice(exported);
    expect(report.problems).toEqual([]);
    expect(report.ok).toBe(true);
    expect(report.rolls).toBeGreaterThan(0);
  });

  it('reports a tampered roll, a missing roll and a swapped seed', () => {
    const tampered = structuredClone(exported);
    const roll = tampered.events.find((e) => e.type === 'DiceRolled')!;
    roll.data['value'] = ((roll.data['value'] as number) % (roll.data['sides'] as number)) + 1;
    const r1 = verifyDice(tampered);
    expect(r1.ok).toBe(false);
    expect(r1.problems.join('\n')).toMatch(new RegExp(`event ${roll.version}: roll ${roll.data['n']}`));

    // A roll taken out of the sequence: the next one no longer has the number the verifier expects.
    const renumbered = structuredClone(exported);
    const first = renumbered.events.find((e) => e.type === 'DiceRolled')!;
    first.data['n'] = (first.data['n'] as number) + 1;
    expect(verifyDice(renumbered).problems.join('\n')).toMatch(new RegExp(`roll number ${first.data['n']}, expected ${(first.data['n'] as number) - 1}`));

    const swapped = structuredClone(exported) as typeof exported & { dice: { seed: string } };
    swapped.dice.seed = 'ab'.repeat(32);
    expect(verifyDice(swapped).problems.join('\n')).toMatch(/commitment/);
  });

  it('ships a verifier command that exits 0 for the real export and 1 for a tampered one', () => {
    const dir = mkdtempSync(join(tmpdir(), 'fieldpost-dice-'));
    const good = join(dir, 'game.json');
    writeFileSync(good, JSON.stringify(exported));
    const bad = join(dir, 'tampered.json');
    const t = structuredClone(exported);
    const roll = t.events.find((e) => e.type === 'DiceRolled')!;
    roll.data['value'] = ((roll.data['value'] as number) % (roll.data['sides'] as number)) + 1;
    writeFileSync(bad, JSON.stringify(t));
    const cli = resolve(__dirname, '../../dist/scripts/verify-dice.js');
    const ok = spawnSync(process.execPath, [cli, good], { encoding: 'utf8' });
    expect(ok.status).toBe(0);
    expect(ok.stdout).toMatch(/^OK: all \d+ rolls/);
    const ko = spawnSync(process.execPath, [cli, bad], { encoding: 'utf8' });
    expect(ko.status).toBe(1);
    expect(ko.stdout).toContain('MISMATCH');
  });

  it('never re-rolls when a submission is replayed with its idempotency key', async () => {
    const g2 = await startedGame(h);
    await play(h, g2.gameId, g2.alice, setupA);
    await play(h, g2.gameId, g2.bob, setupB());
    await play(h, g2.gameId, g2.bob, { 'landing-fire': 'all' }, 'standing-orders');
    await play(h, g2.gameId, g2.alice, [{ kind: 'move', unit: 'a-ship', path: ['0204'] }, { kind: 'unload', unit: 'a-apc-1', hex: '0304' }]);
    await play(h, g2.gameId, g2.alice, []);
    await play(h, g2.gameId, g2.bob, []);
    await play(h, g2.gameId, g2.bob, []);
    const cmd = { gameId: g2.gameId, expectedVersion: await h.store.currentVersion(g2.gameId), submission: { kind: 'orders' as const, orders: [{ kind: 'move', unit: 'a-apc-1', path: ['0404'] }] }, idempotencyKey: uniqueId('k') };
    const first = await h.submit.execute(cmd, g2.alice);
    const rollsBefore = (await h.store.readStream(g2.gameId)).filter((e) => e.type === 'DiceRolled').length;
    const second = await h.submit.execute(cmd, g2.alice);
    expect(second).toEqual(first);
    expect((await h.store.readStream(g2.gameId)).filter((e) => e.type === 'DiceRolled')).toHaveLength(rollsBefore);
  });
});
