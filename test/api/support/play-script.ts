import { uniqueId } from '../../support/database';
import type { GameClient, GameState } from './game-client';
import type { GameScript } from './game-script';

export interface PlayedGame {
  gameId: string;
  final: GameState;
  /** Every response the viewer of `script.secrets` got from step `secrets.fromStep` on, until the game ended. */
  viewerResponses: string[];
}

/**
 * Plays `script` to its end through two clients, checking along the way what the issue asks
 * of the API: whose turn it is, the outcome of each submission, a rules violation with its
 * rule ID, a stale version, an idempotent retry, the options of a unit, and the hidden
 * information of the other side.
 */
export async function playScript(creator: GameClient, joiner: GameClient, script: GameScript, stopAfter = script.steps.length, settings?: Record<string, unknown>): Promise<PlayedGame> {
  const bySide: Record<string, GameClient> = { [script.creatorSide]: creator, [script.joinerSide]: joiner };
  const created = await creator.createGame(script.scenarioId, script.creatorSide, settings);
  expect(created).toMatchObject({ status: 'seating', mySide: script.creatorSide, version: expect.any(Number) });
  expect(created.seedCommitment).toMatch(/^[0-9a-f]{64}$/);
  const gameId = created.id;
  const token = await creator.invite(gameId, script.joinerSide);
  expect(token).toMatch(/^inv_/);
  const joined = await joiner.join(token);
  expect(joined).toMatchObject({ gameId, side: script.joinerSide, started: true });

  const viewer = bySide[script.secrets.viewer]!;
  const viewerResponses: string[] = [];
  let conflictChecked = false;
  for (let i = 0; i <= stopAfter; i++) {
    if (script.illegal.afterStep === i) {
      const c = bySide[script.illegal.side]!;
      const before = await c.game(gameId);
      const bad = await c.submit(gameId, before.version, 'orders', script.illegal.orders, uniqueId('bad'));
      expect(bad).toMatchObject({ ok: false, code: 'BAD_USER_INPUT', errorCode: 'orders/illegal' });
      if (bad.ok) throw new Error('unreachable');
      expect(bad.violations?.map((v) => v.ruleId)).toContain(script.illegal.ruleId);
      expect(bad.violations?.every((v) => typeof v.message === 'string' && 'orderIndex' in v)).toBe(true);
      expect((await c.game(gameId)).version).toBe(before.version);
    }
    for (const probe of script.optionsProbe.filter((p) => p.afterStep === i)) {
      const o = await bySide[probe.side]!.options(gameId, probe.unitId, probe.targetHex);
      if (probe.expectMoves) expect(o.moves.length).toBeGreaterThan(0);
      if (probe.expectAttack) {
        expect(o.attacks.map((a) => a.targetHex)).toEqual([probe.targetHex]);
        expect(o.attacks[0]!.preview).toBeTruthy();
      }
    }
    // Until the game ends: then everything is revealed to everyone.
    const now = await viewer.game(gameId);
    if (i >= script.secrets.fromStep && now.status !== 'finished') {
      viewerResponses.push(JSON.stringify(await viewer.view(gameId)), JSON.stringify(now), JSON.stringify(await viewer.history(gameId)));
    }
    if (i === stopAfter) break;

    const step = script.steps[i]!;
    const client = bySide[step.side]!;
    const before = await client.game(gameId);
    expect(before.status).toBe('active');
    expect(before.acting).toContain(step.side);
    if (step.kind === 'reaction') expect(before.reaction).toMatchObject({ side: step.side });
    const key = uniqueId('step');
    if (!conflictChecked && i > 0) {
      const stale = await client.submit(gameId, before.version - 1, step.kind, step.orders, uniqueId('stale'));
      expect(stale).toMatchObject({ ok: false, code: 'CONFLICT', errorCode: 'game/version_conflict', currentVersion: before.version });
      conflictChecked = true;
    }
    const r = await client.submit(gameId, before.version, step.kind, step.orders, key);
    if (!r.ok) throw new Error(`step ${i + 1} (${step.note}) was refused: ${JSON.stringify(r)}`);
    expect(r.version).toBeGreaterThan(before.version);
    expect(r.events.length).toBeGreaterThan(0);
    if (i === 2) {
      const again = await client.submit(gameId, before.version, step.kind, step.orders, key);
      expect(again).toEqual(r);
    }
    if (step.side === script.secrets.viewer && i >= script.secrets.fromStep && i < script.steps.length - 1) viewerResponses.push(JSON.stringify(r));
    const after = await client.game(gameId);
    if (step.expect) expect(after).toMatchObject(step.expect);
  }
  return { gameId, final: await creator.game(gameId), viewerResponses };
}
