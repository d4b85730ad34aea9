import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gatorsBenchScenario } from '../../bench/gators-bench-scenario';
import { DomainError } from '../common/errors';
import { boardOf, hasOverlay, terrainIdAt } from '../rules/engine/board';
import { parseScenario } from '../rules/model/parse-scenario';
import { gators } from '../rules/systems/gators';
import { loadScenario } from '../scenarios/load-scenario';
import { FakeClock, gamesHarness, GamesHarness, workerDatabase } from '../../test/support/games-harness';
import { play, setupA, setupB, startedGame } from '../../test/support/kernel-game';
import { uniqueId } from '../../test/support/database';
import { catalogEntry } from './catalog-builder';
import { rollFromSeed } from './dice/server-dice';
import { verifyDice } from './dice/verify-dice';
import { replayExport } from './replay/replay-export';
import { testSystem } from '../rules/testing/test-system';
import { SYSTEMS } from '../rules/systems';

/** A folder for the command line's files, removed once the file's tests are done. */
const folders: string[] = [];
function tempFolder(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  folders.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
});

describe('verifiable dice and the game export', () => {
  let h: GamesHarness;
  let exported: Record<string, unknown> & { events: Array<{ version: number; type: string; data: Record<string, unknown> }> };
  let g: Awaited<ReturnType<typeof startedGame>>;
  /** The PhaseSubmitted events each player read while the game ran. */
  let seenInPlay: Record<'alice' | 'bob', Array<Record<string, unknown>>>;

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
    const submitted = (events: Array<{ type: string; data: unknown }>) => events.filter((e) => e.type === 'PhaseSubmitted').map((e) => e.data as Record<string, unknown>);
    seenInPlay = { alice: submitted((await h.queries.history(g.gameId, g.alice)).events as never), bob: submitted((await h.queries.history(g.gameId, g.bob)).events as never) };
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

  it("logs each side's orders in its PhaseSubmitted, which the other side does not read while the game runs", () => {
    expect(seenInPlay.alice.filter((d) => d['side'] === 'A').at(-1)).toEqual({ side: 'A', kind: 'orders', orders: [{ kind: 'move', unit: 'a-apc-1', path: ['0404'] }] });
    expect(seenInPlay.bob.filter((d) => d['side'] === 'A').at(-1)).toEqual({ side: 'A', kind: 'orders' });
    expect(seenInPlay.alice.filter((d) => d['side'] === 'B')).toEqual([{ side: 'B', kind: 'orders' }, { side: 'B', kind: 'orders' }, { side: 'B', kind: 'orders' }]);
  });

  it('replays the rules: every decision of the finished game follows from its orders, the scenario and the rolls', () => {
    const report = replayExport(exported, [testSystem]);
    expect(report.mismatches).toEqual([]);
    expect(report.replayed).toBe(true);
    // The start, and each submission.
    expect(report.decisions).toBe(1 + exported.events.filter((e) => e.type === 'PhaseSubmitted').length);
    const answered = exported.events.find((e) => e.type === 'ReactionAnswered' && e.data['by'] === 'standing-orders')!;
    expect(report.trusted.join('\n')).toContain(`the answers standing orders gave at event(s) ${answered.version} `);
    // The verifier without the test system's rules says it replayed nothing, and why.
    expect(replayExport(exported, SYSTEMS)).toMatchObject({ replayed: false, decisions: 0, mismatches: [], trusted: ['nothing replayed: this verifier does not have the rules of game system "kernel-test"'] });
  });

  it('reports rules events that do not follow from their orders and rolls, each with its version, where the dice alone pass', () => {
    const t = structuredClone(exported);
    const attack = t.events.find((e) => e.type === 'AttackResolved')!;
    const column = attack.data['column'];
    attack.data['column'] = 'changed';
    const move = t.events.find((e) => e.type === 'UnitMoved')!;
    const path = move.data['path'] as string[];
    move.data['path'] = [path[0], '0205'];
    expect(verifyDice(t).problems).toEqual([]);
    const submittedAt = (v: number) => t.events.filter((e) => e.type === 'PhaseSubmitted' && e.version < v).at(-1)!.version;
    expect(replayExport(t, [testSystem]).mismatches).toEqual([
      `event ${move.version} (UnitMoved), of A's orders (event ${submittedAt(move.version)}): data.path[1]: logged "0205", the rules give "${path[1]}"`,
      `event ${attack.version} (AttackResolved), of A's orders (event ${submittedAt(attack.version)}): data.column: logged "changed", the rules give ${JSON.stringify(column)}`,
    ]);

    // A placement moved: reported where it was made, and where the orders that followed no longer fit the game the log gives.
    const t2 = structuredClone(exported);
    const placed = t2.events.find((e) => e.type === 'UnitPlaced' && e.data['unit'] === 'a-ship')!;
    const hex = placed.data['hex'];
    placed.data['hex'] = '0101';
    expect(verifyDice(t2).problems).toEqual([]);
    const moved = t2.events.find((e) => e.type === 'UnitMoved' && e.data['unit'] === 'a-ship')!;
    expect(replayExport(t2, [testSystem]).mismatches).toEqual([
      `event ${placed.version} (UnitPlaced), of B's orders (event ${submittedAt(placed.version)}): data.hex: logged "0101", the rules give ${JSON.stringify(hex)}`,
      expect.stringMatching(new RegExp(`^event ${submittedAt(moved.version)} \\(PhaseSubmitted\\), of A's orders: the service refuses it \\(orders/illegal\\)`)),
    ]);
  });

  it('replays a game with a phase taken back: the phase after the undo is decided on the game the undo restored', async () => {
    const g3 = await startedGame(h);
    await play(h, g3.gameId, g3.alice, setupA);
    await play(h, g3.gameId, g3.bob, setupB());
    const moved = await play(h, g3.gameId, g3.alice, [{ kind: 'move', unit: 'a-ship', path: ['0204'] }]);
    const proposal = await h.actions.proposeUndo(g3.gameId, moved.version, g3.alice);
    await h.actions.answerUndo(g3.gameId, proposal.version, g3.bob, true);
    const other = (await h.queries.options(g3.gameId, g3.alice, 'a-ship')).options.moves.find((m) => m.hex !== '0204' && m.path.length === 1)!;
    await play(h, g3.gameId, g3.alice, [{ kind: 'move', unit: 'a-ship', path: [other.hex] }]);
    await h.actions.resign(g3.gameId, await h.store.currentVersion(g3.gameId), g3.alice);
    const doc = (await h.queries.export(g3.gameId, g3.bob)) as typeof exported;
    expect(doc.events.some((e) => e.type === 'UndoAccepted')).toBe(true);
    expect(replayExport(doc, [testSystem]).mismatches).toEqual([]);
    // The move again, as if made from where the undone one ended: the rules give it from where the undo put the ship back.
    const redo = doc.events.filter((e) => e.type === 'UnitMoved').at(-1)!;
    const from = (redo.data['path'] as string[])[0];
    redo.data['path'] = ['0204', other.hex];
    expect(replayExport(doc, [testSystem]).mismatches).toEqual([expect.stringMatching(new RegExp(`^event ${redo.version} \\(UnitMoved\\), of A's orders \\(event \\d+\\): data.path\\[0\\]: logged "0204", the rules give "${from}"`))]);
  });

  it('takes as logged, and says so, the submissions of a log written before PhaseSubmitted kept the orders', () => {
    const old = structuredClone(exported);
    const submitted = old.events.filter((e) => e.type === 'PhaseSubmitted');
    for (const e of submitted) delete e.data['orders'];
    const report = replayExport(old, [testSystem]);
    expect(report.mismatches).toEqual([]);
    expect(report.trusted).toContain(`taken as logged, not replayed: the rules events of the submissions at event(s) ${submitted.map((e) => e.version).join(', ')}, whose PhaseSubmitted holds no orders (logged before orders were recorded)`);
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
    const dir = tempFolder('fieldpost-dice-');
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
    // Saved again by an editor that starts UTF-8 files with a byte-order mark: the same game.
    const marked = join(dir, 'game-bom.json');
    writeFileSync(marked, `\uFEFF${JSON.stringify(exported)}`);
    const again = spawnSync(process.execPath, [cli, marked], { encoding: 'utf8' });
    expect([again.status, again.stderr]).toEqual([0, '']);
    expect(again.stdout).toEqual(ok.stdout);
    // Several files: each is checked and named, and the worst outcome is the exit code.
    const both = spawnSync(process.execPath, [cli, good, bad, marked], { encoding: 'utf8' });
    expect(both.status).toBe(1);
    expect(both.stdout).toMatch(new RegExp(`^${good}: OK: all \\d+ rolls`, 'm'));
    expect(both.stdout).toMatch(new RegExp(`^${bad}: MISMATCH`, 'm'));
    expect(both.stdout).toMatch(new RegExp(`^${marked}: OK: all \\d+ rolls`, 'm'));
    const unreadable = spawnSync(process.execPath, [cli, bad, join(dir, 'missing.json'), good], { encoding: 'utf8' });
    expect(unreadable.status).toBe(2);
    expect(unreadable.stderr).toContain('cannot read');
    expect(unreadable.stdout).toMatch(new RegExp(`^${good}: OK`, 'm'));
  });

  it('reads a relative path from where `npm run verify-dice` was typed, not from the repository root', () => {
    const dir = tempFolder('fieldpost-dice-');
    writeFileSync(join(dir, 'game.json'), JSON.stringify(exported));
    const cli = resolve(__dirname, '../../dist/scripts/verify-dice.js');
    // npm runs a script in the package root and passes the caller's directory as INIT_CWD.
    const run = spawnSync(process.execPath, [cli, 'game.json'], { cwd: resolve(__dirname, '../..'), env: { ...process.env, INIT_CWD: dir }, encoding: 'utf8' });
    expect([run.status, run.stderr]).toEqual([0, '']);
    expect(run.stdout).toMatch(/^OK: all \d+ rolls/);
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

type ExportedEvent = { version: number; type: string; data: Record<string, unknown>; meta: Record<string, unknown> };
type Exported = { game: { version: number }; dice: { seed: string }; events: ExportedEvent[] };

/**
 * The verifier against a Gators! game that fought with the seed's dice: the benchmark position
 * (ten AAVs each next to an island unit), ten US attacks, the island's counterattacks, any
 * retreat its owner must choose left to the server's clock (the window expires and the
 * resolution goes on, rolling again), then a resignation. Then the log is tampered with in each way an audit found that the verifier let
 * through, and the command line is run on the files.
 */
describe('the dice verifier on a Gators! game that fought', () => {
  const HOUR = 3_600_000;
  let h: GamesHarness;
  let db: Awaited<ReturnType<typeof workerDatabase>>;
  let exported: Exported;

  beforeAll(async () => {
    const { scenario, attacks } = gatorsBenchScenario(loadScenario(join(__dirname, '../scenarios/gators-unnarstan')));
    db = await workerDatabase('dice-verify');
    h = await gamesHarness({ entries: [catalogEntry(scenario, gators)], clock: new FakeClock(), databaseUrl: db.url });
    const us = await h.player('Uma');
    const island = await h.player('Ivo');
    const { gameId } = await h.create.execute({ scenarioId: 'gators-bench', title: 'Verify', side: 'P1', options: { reactionHours: 6 } }, us);
    const inv = await h.invitations.invite(gameId, 'P2', 'token', us);
    await h.invitations.join({ token: inv.token! }, island);
    for (const _phase of ['launch', 'recovery', 'movement']) await play(h, gameId, us, []);
    // Any retreat whose path its owner must choose waits for an answer: the window is left to expire.
    const settle = async () => {
      for (let guard = 0; (await h.queries.summary(gameId, us)).mode === 'reaction'; guard++) {
        if (guard > 40) throw new Error('the reaction windows never closed');
        h.clock.advance(7 * HOUR);
        while ((await h.worker.tick()) > 0);
      }
    };
    await play(h, gameId, us, attacks.map((a) => ({ kind: 'attack', attackers: [{ unit: a.attacker }], target: a.target })));
    await settle();
    // The island hits back: each of its units still next to an AAV joins an attack on the first hex it can.
    for (const _phase of ['guerrillas', 'movement']) await play(h, gameId, island, []);
    const byTarget = new Map<string, Array<{ unit: string }>>();
    for (const unit of [...Array.from({ length: 4 }, (_, k) => `p2-militia-${k + 1}`), ...Array.from({ length: 6 }, (_, k) => `p2-inf-${k + 1}`)]) {
      // A unit eliminated by now is no longer the island's: refused as not_your_unit.
      const o = await h.queries.options(gameId, island, unit).catch((e: { code?: string }) => {
        if (e.code === 'game/not_your_unit') return null;
        throw e;
      });
      const target = o?.options.attacks[0]?.targetHex;
      if (target) byTarget.set(target, [...(byTarget.get(target) ?? []), { unit }]);
    }
    await play(h, gameId, island, [...byTarget].map(([target, attackers]) => ({ kind: 'attack', attackers, target })));
    await settle();
    await h.actions.resign(gameId, await h.store.currentVersion(gameId), us);
    exported = (await h.queries.export(gameId, us)) as unknown as Exported;
  });
  afterAll(async () => {
    await h.close();
    await db.drop();
  });

  const rolls = (doc: Exported) => doc.events.filter((e) => e.type === 'DiceRolled');
  /** Versions 1, 2, 3, ... again after an event was taken out or moved, as a careful forger would leave them. */
  const renumbered = (doc: Exported) => {
    doc.events.forEach((e, i) => (e.version = i + 1));
    doc.game.version = doc.events.length;
    return doc;
  };
  const problems = (doc: unknown) => {
    const report = verifyDice(doc);
    expect(report.ok).toBe(false);
    return report.problems.join('\n');
  };

  it('verifies the real finished game, every attack roll cross-checked', () => {
    const report = verifyDice(exported);
    expect(report.problems).toEqual([]);
    expect(report.ok).toBe(true);
    expect(report.rolls).toBeGreaterThanOrEqual(10);
    expect(exported.events.filter((e) => e.type === 'AttackResolved' && typeof e.data['roll'] === 'number').length).toBeGreaterThanOrEqual(10);
  });

  it('replays the rules of the game, its attacks and retreats among them', () => {
    const report = replayExport(exported, SYSTEMS);
    expect(report.mismatches).toEqual([]);
    expect(report.replayed).toBe(true);
    expect(report.decisions).toBe(1 + exported.events.filter((e) => e.type === 'PhaseSubmitted').length);
    expect(exported.events.some((e) => e.type === 'UnitRetreated')).toBe(true);
  });

  it('reports an attack result and a retreat that do not follow from their orders and rolls, which the dice checks pass', () => {
    const t = structuredClone(exported);
    const attack = t.events.find((e) => e.type === 'AttackResolved' && typeof e.data['roll'] === 'number')!;
    const result = attack.data['result'];
    attack.data['result'] = result === 'NE' ? 'DE' : 'NE';
    const retreat = t.events.find((e) => e.type === 'UnitRetreated')!;
    const path = retreat.data['path'] as string[];
    retreat.data['path'] = [...path.slice(0, -1), path[0] === '0101' ? '0102' : '0101'];
    expect(verifyDice(t).problems).toEqual([]);
    const text = replayExport(t, SYSTEMS).mismatches.join('\n');
    expect(text).toMatch(new RegExp(`^event ${attack.version} \\(AttackResolved\\), of P\\d's [a-z ]+ \\(event \\d+\\): data.result: logged "${attack.data['result']}", the rules give "${result}"`, 'm'));
    expect(text).toMatch(new RegExp(`^event ${retreat.version} \\(UnitRetreated\\), of P\\d's [a-z ]+ \\(event \\d+\\): data.path\\[${path.length - 1}\\]: logged "${(retreat.data['path'] as string[]).at(-1)}", the rules give "${path.at(-1)}"`, 'm'));
  });

  it('reports a die size changed together with its value', () => {
    const t = structuredClone(exported);
    const roll = rolls(t)[0]!;
    roll.data['sides'] = 5;
    roll.data['value'] = rollFromSeed(t.dice.seed, roll.data['n'] as number, 5);
    expect(problems(t)).toMatch(new RegExp(`event ${roll.version}: roll ${roll.data['n']} is a d5, but the scenario rolls only d6`));
  });

  it('reports the last roll deleted, with or without the versions renumbered, and its type renamed', () => {
    const last = rolls(exported).at(-1)!;
    const user = exported.events.find((e) => e.version > last.version && e.type === 'AttackResolved' && last.data['purpose'] === `attack on ${e.data['target']}`)!;
    const deleted = structuredClone(exported);
    deleted.events = deleted.events.filter((e) => e.version !== last.version);
    expect(problems(deleted)).toMatch(new RegExp(`event versions must run 1, 2, 3, ...: events\\[${last.version - 1}\\] is version ${last.version + 1}`));
    // Renumbered, the rules event that used it now records a roll the log no longer has.
    expect(problems(renumbered(deleted))).toMatch(new RegExp(`event ${user.version - 1} \\(AttackResolved\\) records a roll of ${user.data['roll']} for "attack on ${user.data['target']}", but no such roll`));
    const renamed = structuredClone(exported);
    renamed.events.find((e) => e.version === last.version)!.type = 'DiceNoted';
    expect(problems(renamed)).toMatch(new RegExp(`event ${user.version} \\(AttackResolved\\) records a roll of ${user.data['roll']}`));
  });

  it('reports a roll moved to after GameEnded', () => {
    const t = structuredClone(exported);
    const roll = rolls(t).at(-1)!;
    t.events = t.events.filter((e) => e !== roll);
    t.events.splice(t.events.length - 1, 0, roll);
    const text = problems(renumbered(t));
    expect(text).toMatch(new RegExp(`event ${roll.version}: a roll must come right after its PhaseSubmitted or another roll, not after GameEnded`));
    expect(text).toMatch(new RegExp(`event ${roll.version} \\(DiceRolled\\) comes after the game ended`));
  });

  it('reports a rules event whose recorded roll was changed with its result', () => {
    const t = structuredClone(exported);
    const attack = t.events.find((e) => e.type === 'AttackResolved' && typeof e.data['roll'] === 'number')!;
    const was = attack.data['roll'] as number;
    attack.data['roll'] = (was % 6) + 1;
    attack.data['result'] = 'D X';
    expect(problems(t)).toMatch(new RegExp(`event ${attack.version} \\(AttackResolved\\) records a roll of ${(was % 6) + 1} for "attack on ${attack.data['target']}", but roll \\d+ \\(event \\d+\\) is ${was}`));
  });

  it('lists malformed input as problems instead of throwing', () => {
    const zero = structuredClone(exported);
    const roll = rolls(zero)[0]!;
    roll.data['sides'] = 0;
    expect(problems(zero)).toMatch(new RegExp(`event ${roll.version}: a roll needs an integer n >= 1, an integer die size \\(sides\\) >= 2`));
    const missing = structuredClone(exported);
    delete rolls(missing)[0]!.data['n'];
    delete rolls(missing)[1]!.data['value'];
    rolls(missing)[2]!.data = null as unknown as Record<string, unknown>;
    expect(verifyDice(missing).problems.filter((p) => /a roll needs/.test(p))).toHaveLength(3);
    expect(problems({ ...exported, events: 'none' })).toBe('events is not a list');
    expect(problems({ ...exported, events: [null, 7, ...exported.events.slice(2)] })).toMatch(/events\[0\] is not an event/);
    expect(problems({ ...exported, game: null, dice: { seed: exported.dice.seed } })).toMatch(/commitment/);
    for (const junk of [null, 42, 'x', [], { format: 'fieldpost.game-export' }, { format: 'fieldpost.game-export', dice: { seed: exported.dice.seed } }]) {
      expect(verifyDice(junk).ok).toBe(false);
    }
  });

  it('refuses an export of another format version, naming the version', () => {
    for (const formatVersion of [2, '1', undefined]) {
      expect(problems({ ...exported, formatVersion })).toBe(`formatVersion is ${JSON.stringify(formatVersion) ?? 'missing'}: this verifier reads version 1 of the export format`);
    }
  });

  it('tells a malformed seed from a game that has not ended', () => {
    const upper = structuredClone(exported);
    upper.dice.seed = upper.dice.seed.toUpperCase();
    expect(problems(upper)).toMatch(/^dice\.seed is not a revealed seed \(64 lowercase hex digits\)/);
    expect(problems({ ...exported, dice: { ...exported.dice, seed: null } })).toBe('the export has no revealed seed (dice.seed): a game exported before its end has none');
  });

  it('goes on checking the rest of an export without its seed: every other problem is listed beside that one', () => {
    const unsealed = structuredClone(exported);
    (unsealed.dice as { seed: string | null }).seed = null;
    unsealed.events[0].type = 'GameMade';
    unsealed.game.version += 1;
    const report = verifyDice(unsealed);
    expect(report.ok).toBe(false);
    expect(report.problems).toEqual(
      expect.arrayContaining([
        'the export has no revealed seed (dice.seed): a game exported before its end has none',
        'the log must open with the one GameCreated event (version 1)',
        expect.stringMatching(/^the log ends at version \d+, but the game is at version \d+/),
      ]),
    );
    // No roll can be checked against a seed it lacks, so none is said to be wrong.
    expect(report.problems.filter((p) => /the seed gives/.test(p))).toEqual([]);
    expect(report.rolls).toBeGreaterThan(0);
  });

  it("reports a scenario that is not the game's: another id or version in the header, or scenario data that does not hash to its version", () => {
    const t = () => structuredClone(exported) as Exported & { scenario: Record<string, unknown> };
    const created = exported.events[0]!.data;
    const otherId = t();
    otherId.scenario['id'] = 'gators-unnarstan';
    expect(problems(otherId)).toMatch(new RegExp(`scenario\\.id is "gators-unnarstan", but the game \\(GameCreated\\) plays "${created['scenarioId']}"`));
    const otherVersion = t();
    otherVersion.scenario['version'] = '0123456789abcdef';
    expect(problems(otherVersion)).toMatch(new RegExp(`scenario\\.version is "0123456789abcdef", but the game \\(GameCreated\\) plays "${created['scenarioVersion']}"`));
    // The die sizes come from the scenario data: a forger who adds a d5 to it, rolls a d5 from the seed and claims it.
    const d5 = t();
    const first = d5.events.find((e) => e.meta['source'] === 'rules')!;
    ((first.data['scenario'] as Record<string, Record<string, unknown>>)['rules']!)['extra'] = { die: 5 };
    const roll = rolls(d5)[0]!;
    roll.data['sides'] = 5;
    roll.data['value'] = rollFromSeed(d5.dice.seed, roll.data['n'] as number, 5);
    const user = d5.events.find((e) => e.type === 'AttackResolved' && roll.data['purpose'] === `attack on ${e.data['target']}`)!;
    user.data['roll'] = roll.data['value'];
    expect(problems(d5)).toMatch(new RegExp(`event ${first.version} \\(${first.type}\\) carries scenario data that does not hash to the game's scenario version "${created['scenarioVersion']}"`));
  });

  // The export's header is what an auditor reads first; it said one thing and the log another,
  // and the verifier still said OK.
  it('reports a header that disagrees with its log: the game, its result, its seats and its scenario name', () => {
    type Doc = Exported & { game: Record<string, unknown> & { result: { winner: string | null } }; scenario: Record<string, unknown>; seats: Array<{ side: string; playerId: string | null }> };
    const t = () => structuredClone(exported) as Doc;
    const named = t();
    named.scenario['name'] = 'Totally Different Scenario';
    expect(problems(named)).toMatch(/scenario\.name is "Totally Different Scenario", but the scenario data of event \d+ names it "/);
    const other = t();
    other.game['id'] = 'game_other';
    expect(problems(other)).toMatch(/game\.id is "game_other", but the log \(GameCreated\) is of game "game_/);
    const winner = t();
    const real = winner.game.result.winner;
    winner.game.result.winner = real === 'P1' ? 'P2' : 'P1';
    expect(problems(winner)).toMatch(new RegExp(`game\\.result names winner "${winner.game.result.winner}", but the log's GameEnded names ${JSON.stringify(real)}`));
    const seats = t();
    const [a, b] = [seats.seats[0]!, seats.seats[1]!];
    [a.playerId, b.playerId] = [b.playerId, a.playerId];
    expect(problems(seats)).toMatch(new RegExp(`seats: side "${a.side}" is held by "${a.playerId}", but the log \\(SeatClaimed\\) gives it to "${b.playerId}"`));
    const twoEnds = t();
    const end = twoEnds.events.findIndex((e) => e.type === 'GameEnded');
    const forged = structuredClone(twoEnds.events[end]!);
    forged.data['winner'] = real === 'P1' ? 'P2' : 'P1';
    twoEnds.events.splice(end, 0, forged);
    expect(problems(renumbered(twoEnds))).toMatch(/the GameEnded events name different winners/);
    let deep: unknown = [];
    for (let k = 0; k < 10_000; k++) deep = [deep];
    const deepVersion = t();
    (deepVersion.game as Record<string, unknown>)['version'] = deep;
    expect(problems(deepVersion)).toMatch(/the log ends at version \d+, but game\.version is a list, not a version/);
  });

  it('lists problems in deeply nested, very long or very many values instead of giving up', () => {
    let deep: unknown = [];
    for (let k = 0; k < 100_000; k++) deep = [deep];
    const inTarget = structuredClone(exported);
    const attack = inTarget.events.find((e) => e.type === 'AttackResolved' && typeof e.data['roll'] === 'number')!;
    attack.data['target'] = deep;
    expect(problems(inTarget)).toMatch(new RegExp(`event ${attack.version} \\(AttackResolved\\) records a roll of \\d for "attack on a list"`));
    const inRoll = structuredClone(exported);
    inRoll.events.find((e) => e.version === attack.version)!.data['roll'] = deep;
    expect(problems(inRoll)).toMatch(new RegExp(`event ${attack.version} \\(AttackResolved\\) records a roll of a list`));
    const long = structuredClone(exported);
    long.events.find((e) => e.version === attack.version)!.data['roll'] = 'x'.repeat(1_000_000);
    expect(problems(long).length).toBeLessThan(1000);
    const inScenario = structuredClone(exported);
    const first = inScenario.events.find((e) => e.meta['source'] === 'rules')!;
    ((first.data['scenario'] as Record<string, Record<string, unknown>>)['rules']!)['deep'] = deep;
    expect(problems(inScenario)).toMatch(new RegExp(`event ${first.version} \\(${first.type}\\) carries scenario data nested too deep to check its version`));
    // A roll copied 200,000 times: each copy is a problem, and the list is not too long to return.
    const many = structuredClone(exported);
    const last = rolls(many).at(-1)!;
    const at = many.events.indexOf(last) + 1;
    many.events = [...many.events.slice(0, at), ...Array.from({ length: 200_000 }, () => structuredClone(last)), ...many.events.slice(at)];
    expect(verifyDice(renumbered(many)).problems.length).toBeGreaterThan(200_000);
  });

  it('has a command line that exits 0 for the game, 1 with the problems for a tampered or malformed file, 2 for an unreadable one', () => {
    const dir = tempFolder('fieldpost-verify-');
    const file = (name: string, content: string) => {
      writeFileSync(join(dir, name), content);
      return join(dir, name);
    };
    const cli = resolve(__dirname, '../../dist/scripts/verify-dice.js');
    const run = (path: string) => spawnSync(process.execPath, [cli, path], { encoding: 'utf8' });
    const ok = run(file('game.json', JSON.stringify(exported)));
    expect([ok.status, ok.stderr]).toEqual([0, '']);
    expect(ok.stdout).toMatch(/^OK: all \d+ rolls/);
    expect(ok.stdout).toMatch(/^REPLAY OK: the rules, run again on the game's \d+ decisions/m);
    // A result changed where the dice checks cannot see it: the replay can.
    const changed = structuredClone(exported);
    const resolved = changed.events.find((e) => e.type === 'AttackResolved' && typeof e.data['roll'] === 'number')!;
    resolved.data['result'] = resolved.data['result'] === 'NE' ? 'DE' : 'NE';
    const replayed = run(file('result.json', JSON.stringify(changed)));
    expect([replayed.status, replayed.stderr]).toEqual([1, '']);
    expect(replayed.stdout).toMatch(/^OK: all \d+ rolls/);
    expect(replayed.stdout).toMatch(new RegExp(`^REPLAY MISMATCH \\(1 place\\(s\\) in \\d+ decisions[^\\n]*\\n  - event ${resolved.version} \\(AttackResolved\\)`, 'm'));
    const t = structuredClone(exported);
    const attack = t.events.find((e) => e.type === 'AttackResolved' && typeof e.data['roll'] === 'number')!;
    attack.data['roll'] = ((attack.data['roll'] as number) % 6) + 1;
    const bad = run(file('tampered.json', JSON.stringify(t)));
    expect([bad.status, bad.stderr]).toEqual([1, '']);
    expect(bad.stdout).toMatch(new RegExp(`^MISMATCH[^]*event ${attack.version} \\(AttackResolved\\)`));
    const malformed = run(file('malformed.json', JSON.stringify({ ...exported, events: exported.events.map((e) => (e.type === 'DiceRolled' ? { ...e, data: { n: 1, sides: 0 } } : e)) })));
    expect([malformed.status, malformed.stderr]).toEqual([1, '']);
    expect(malformed.stdout).toMatch(/a roll needs an integer n/);
    const unreadable = run(file('broken.json', '{"format": "fieldpost.game-'));
    expect(unreadable.status).toBe(2);
    expect(unreadable.stderr).toMatch(/^cannot read .*broken\.json/);
    expect(run(join(dir, 'missing.json')).status).toBe(2);
  });
});

/**
 * The HERS blast next to a "?" rolls secret dice, stand-ins among them (Q-GT-29): the verifier
 * re-derives them from the seed and matches them with the blast's attack on the marker. The
 * benchmark position, with a CH-53E holding the HERS ashore on clear ground, two island platoons
 * next to it and a platoon with a Dragon team under a "?" on a third side: landed, the CH-53E is
 * destroyed by any roll of the two platoons' attack (4:1, two columns right, a retreat counts as
 * destroyed, Q-GT-41).
 */
describe('the dice verifier on a Gators! game where the HERS blew up next to a "?"', () => {
  let h: GamesHarness;
  let db: Awaited<ReturnType<typeof workerDatabase>>;
  let exported: Exported;

  function hersScenario() {
    const bench = gatorsBenchScenario(loadScenario(join(__dirname, '../scenarios/gators-unnarstan'))).scenario;
    const files = JSON.parse(JSON.stringify({
      'scenario.json': bench.manifest, 'map.json': bench.map, 'terrain.json': bench.terrain, 'rules.json': bench.rules, 'units.json': bench.units,
      'oob.json': bench.oob, 'setup.json': bench.setup, 'turns.json': bench.turns, 'victory.json': bench.victory,
    })) as Record<string, Record<string, unknown>>;
    files['scenario.json']!['id'] = 'gators-hers';
    const board = boardOf(bench);
    const grid = board.grid;
    const units = files['oob.json']!['units'] as Array<{ id: string; at: { hex?: string; carrier?: string }; hidden?: string }>;
    const used = units.flatMap((u) => (u.at.hex === undefined ? [] : [grid.indexOf(u.at.hex)]));
    const plain = (i: number) => i >= 0 && ['clear', 'jungle', 'hills', 'swamp'].includes(terrainIdAt(board, i) ?? '') && !['city', 'airfield', 'bridge'].some((o) => hasOverlay(board, i, o));
    const ring = (i: number) => [0, 1, 2, 3, 4, 5].map((d) => grid.neighbour(i, d));
    const centre = Array.from({ length: grid.size }, (_, i) => i).find((i) => terrainIdAt(board, i) === 'clear' && plain(i) && ring(i).every(plain) && used.every((u) => grid.distance(u, i) >= 3))!;
    const [n0, n1, n2] = ring(centre).map((i) => grid.label(i));
    const place: Record<string, Partial<(typeof units)[number]>> = {
      'p1-ch53-1': { at: { hex: grid.label(centre) } },
      'p1-hers': { at: { carrier: 'p1-ch53-1' } },
      'p2-inf-7': { at: { hex: n0! } },
      'p2-inf-8': { at: { hex: n1! } },
      'p2-inf-9': { at: { hex: n2! }, hidden: '?' },
      'p2-dragon-1': { at: { hex: n2! }, hidden: '?' },
    };
    files['oob.json']!['units'] = units.map((u) => ({ ...u, ...place[u.id] }));
    return { scenario: parseScenario(files, 'gators-hers'), target: grid.label(centre) };
  }

  beforeAll(async () => {
    const { scenario, target } = hersScenario();
    db = await workerDatabase('dice-hers');
    h = await gamesHarness({ entries: [catalogEntry(scenario, gators)], clock: new FakeClock(), databaseUrl: db.url });
    const us = await h.player('Uma');
    const island = await h.player('Ivo');
    const { gameId } = await h.create.execute({ scenarioId: 'gators-hers', title: 'HERS', side: 'P1' }, us);
    const inv = await h.invitations.invite(gameId, 'P2', 'token', us);
    await h.invitations.join({ token: inv.token! }, island);
    for (const _phase of ['launch', 'recovery', 'movement', 'combat']) await play(h, gameId, us, []);
    for (const _phase of ['guerrillas', 'movement']) await play(h, gameId, island, []);
    await play(h, gameId, island, [{ kind: 'attack', attackers: [{ unit: 'p2-inf-7' }, { unit: 'p2-inf-8' }], target }]);
    await h.actions.resign(gameId, await h.store.currentVersion(gameId), us);
    exported = (await h.queries.export(gameId, us)) as unknown as Exported;
  });
  afterAll(async () => {
    await h.close();
    await db.drop();
  });

  it('re-derives every roll, the secret ones and their stand-ins with them', () => {
    const blast = exported.events.find((e) => e.type === 'AttackResolved' && e.data['cause'] === 'hers-explosion' && Array.isArray(e.data['defenders']));
    expect(blast?.data).toMatchObject({ defenders: [{ unit: 'p2-dragon-1' }, { unit: 'p2-inf-9' }], standIns: [expect.any(Number)] });
    expect(exported.events.filter((e) => e.type === 'DiceRolled' && String(e.data['purpose']).includes('stand-in under the marker'))).toHaveLength(1);
    const report = verifyDice(exported);
    expect(report.problems).toEqual([]);
    expect(report.ok).toBe(true);
  });
});
