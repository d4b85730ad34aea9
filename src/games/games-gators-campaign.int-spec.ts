import { campaign } from '../rules/systems/gators/examples';
import type { DiceSourceFactory } from './dice/dice-source';
import { verifyDice } from './dice/verify-dice';
import { replayExport } from './replay/replay-export';
import { SYSTEMS } from '../rules/systems';
import { FakeClock, gamesHarness, GamesHarness, workerDatabase } from '../../test/support/games-harness';
import { gatorsEntry, seatedGatorsGame } from '../../test/support/gators-game';
import { uniqueId } from '../../test/support/database';
import type { Outcome } from './outcome';

/**
 * The scripted Gators! campaign (src/rules/systems/gators/examples/campaign.json), played by two
 * players through the service layer over eight turns: sealed setups, a landing whose
 * anti-landing window the island player answers, one that expires on the server's clock, one
 * decided by standing orders with no pause, bombardment, air strikes, guerrillas, an airfield,
 * and P1's victory. Each step's dice are handed out in order, as the engine's replay does.
 */
describe('the Gators! campaign through the service layer (real Postgres)', () => {
  const queue: number[] = [];
  const scriptedDice: DiceSourceFactory = () => () => {
    const next = queue.shift();
    if (next === undefined) throw new Error('the step rolled more dice than the script gives it');
    return next;
  };
  let h: GamesHarness;
  let db: Awaited<ReturnType<typeof workerDatabase>>;
  const clock = new FakeClock('2027-01-04T08:00:00.000Z');
  beforeAll(async () => {
    db = await workerDatabase('campaign');
    h = await gamesHarness({ entries: [gatorsEntry()], dice: scriptedDice, clock, databaseUrl: db.url, notifications: true });
  });
  afterAll(async () => {
    await h.close();
    await db.drop();
  });

  it('plays all eight turns to P1 victory, with each kind of reaction window', async () => {
    const g = await seatedGatorsGame(h, { reactionHours: 6 });
    const seen: Record<string, Outcome | null> = {};
    const usLog: string[] = [];
    const steps = campaign().steps;
    for (const [i, step] of steps.entries()) {
      queue.length = 0;
      queue.push(...step.dice);
      const before = await h.store.currentVersion(g.gameId);
      if (step.expire) {
        const s = await h.queries.summary(g.gameId, g.by(step.side));
        expect([i, s.mode, s.acting]).toEqual([i, 'reaction', [step.side]]);
        clock.advance(7 * 3_600_000);
        while ((await h.worker.tick()) > 0);
        expect(await h.store.currentVersion(g.gameId)).toBeGreaterThan(before);
      } else {
        const out = await h.submit.execute(
          { gameId: g.gameId, expectedVersion: before, submission: step.submission, idempotencyKey: uniqueId('step') },
          g.by(step.side),
        );
        if (step.side === 'P1') usLog.push(JSON.stringify(out));
        for (const label of step.labels) seen[label] = out;
      }
      expect([i, queue.length]).toEqual([i, 0]);
      clock.advance(60_000);
    }

    // The landing at step 12 paused P1's move and asked the island player; its answer resumed it.
    const answered = seen['landing-answered']!;
    expect(answered.phase.mode).toBe('reaction');
    // P1 reads the question in public terms, as its history's ReactionRequested tells it.
    expect(answered.phase.reaction).toMatchObject({ side: 'P2', kind: 'anti-landing' });
    expect(answered.events).toContainEqual(expect.objectContaining({ type: 'ReactionRequested', data: answered.phase.reaction }));
    // The landing of turn 3 waited for an answer that never came: the window expired.
    expect(seen['landing-expired']!.phase).toMatchObject({ mode: 'reaction', acting: ['P2'] });
    // Standing orders fired at the landing of turn 4 without a pause: the mover saw the fire at once.
    const standing = seen['landing-standing']!;
    expect(standing.phase.mode).not.toBe('reaction');
    expect(standing.events.map((e) => e.type)).toEqual(expect.arrayContaining(['ReactionAnswered', 'DiceRolled']));
    const history = await h.queries.history(g.gameId, g.us, 1, 5000);
    const types = history.events.map((e) => e.type);
    expect(types.filter((t) => t === 'ReactionRequested').length).toBeGreaterThanOrEqual(2);
    expect(types).toContain('DeadlineMissed');
    const end = await h.queries.summary(g.gameId, g.island);
    expect(end).toMatchObject({ status: 'finished', result: { winner: 'P1' } });
    expect(end.seed).toMatch(/^[0-9a-f]{64}$/);
    // Each player hears of the end once, and reads it once: the rules' GameEnded and the game's own say the same.
    const ended = await h.prisma.pool.query<{ side: string; content: { happened: string[] } }>(
      "SELECT side, content FROM notifications WHERE game_id = $1 AND kind = 'game_ended' ORDER BY side",
      [g.gameId],
    );
    expect(ended.rows.map((r) => [r.side, r.content.happened.filter((line) => line.startsWith('Game Ended'))])).toEqual([
      ['P1', ['Game Ended: reason take-the-capital achieved, winner P1']],
      ['P2', ['Game Ended: reason take-the-capital achieved, winner P1']],
    ]);
    // While the game ran, the US player was never told what hid under the camouflage.
    for (const line of usLog) expect(line).not.toMatch(/"roll":2|breakdown roll \(GT-4\.8\)/);
    // The dice verifier on its export: the script forced the dice, so the seed gives other values,
    // but the log, the die sizes and every roll the rules events record must check out.
    const exported = await h.queries.export(g.gameId, g.us);
    const report = verifyDice(exported);
    expect(report.rolls).toBe(steps.reduce((n, s) => n + s.dice.length, 0));
    expect(report.problems.filter((p) => !/the seed gives/.test(p))).toEqual([]);
    // The rules, given the log's rolls (forced or not), decide every step as the log has it.
    const replay = replayExport(exported, SYSTEMS);
    expect(replay.mismatches).toEqual([]);
    // P2 filed its standing orders halfway: the decisions before follow without them, which the report names.
    expect(replay.trusted.join('\n')).toMatch(/the decision\(s\) at event\(s\) \d+ \(P2\)(, \d+ \(P2\))* follow from the log without those sides' last ones/);
  });
});
