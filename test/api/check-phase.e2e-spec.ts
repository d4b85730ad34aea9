import { PrismaService } from '../../src/database/prisma.service';
import { uniqueId } from '../support/database';
import { apiApp, ApiApp, TestPlayer } from './support/api-app';
import { GameClient, GraphqlClient, RestClient } from './support/game-client';
import { gatorsScript as script } from './support/gators-script';
import { playScript } from './support/play-script';

/** Turn 1's P1 movement phase of the worked example: P1 is to act, P2 has hidden units on the board. */
const MOVEMENT_STEP = 5;
const legal = script.steps[MOVEMENT_STEP]!.orders;
// The second order breaks GT-6A.1 (the LHD has 2 MP); the first is legal, so the index matters.
const illegal = [{ kind: 'move', unit: 'p1-lsd', path: ['0811', '0911'] }, ...(script.illegal.orders as unknown[])];
const malformed = [{ kind: 'move', unit: 'p1-lhd', path: 'north' }, { kind: 'teleport', unit: 'p1-lsd' }];

describe('checkPhase: a dry run of a submission, over GraphQL and REST', () => {
  let app: ApiApp;
  let prisma: PrismaService;
  let p1: TestPlayer;
  let p2: TestPlayer;
  let stranger: TestPlayer;
  let gameId: string;
  let finished: string;
  const clients = (p: TestPlayer): Array<[string, GameClient]> => [
    ['GraphQL', new GraphqlClient(app, p)],
    ['REST', new RestClient(app, p)],
  ];
  const versionOf = async (g: string) => (await new GraphqlClient(app, p1).game(g)).version;

  beforeAll(async () => {
    app = await apiApp({}, { entries: [script.entry()] });
    prisma = app.running.app.get(PrismaService);
    p1 = await app.player('Uma');
    p2 = await app.player('Ivo');
    stranger = await app.player('Mallory');
    gameId = (await playScript(new GraphqlClient(app, p1), new GraphqlClient(app, p2), script, MOVEMENT_STEP)).gameId;
    finished = (await playScript(new GraphqlClient(app, p1), new GraphqlClient(app, p2), script, script.resign.afterStep)).gameId;
    const c = new GraphqlClient(app, p1);
    expect(await c.resign(finished, await versionOf(finished))).toMatchObject({ ok: true });
  });
  afterAll(async () => {
    await app.close();
  });

  /** Everything a submission writes for this game: its events, its keys, the notifications it plans. */
  async function written(g: string) {
    const [r] = await prisma.$queryRawUnsafe<Array<{ events: number; keys: number; notifications: number; deliveries: number; snapshots: number }>>(
      `SELECT (SELECT count(*) FROM events WHERE game_id = $1)::int AS events,
              (SELECT count(*) FROM idempotency_keys WHERE game_id = $1)::int AS keys,
              (SELECT count(*) FROM notifications WHERE game_id = $1)::int AS notifications,
              (SELECT count(*) FROM notification_deliveries d JOIN notifications n ON n.id = d.notification_id WHERE n.game_id = $1)::int AS deliveries,
              (SELECT count(*) FROM snapshots WHERE game_id = $1)::int AS snapshots`,
      g,
    );
    return { ...r!, version: await versionOf(g) };
  }

  it('answers illegal orders with the violations the submission is refused with, and changes nothing', async () => {
    const before = await written(gameId);
    const refused = await new GraphqlClient(app, p1).submit(gameId, before.version, 'orders', illegal, uniqueId('illegal'));
    expect(refused).toMatchObject({ ok: false, code: 'BAD_USER_INPUT', errorCode: 'orders/illegal' });
    if (refused.ok) throw new Error('unreachable');
    expect(refused.violations!.map((v) => [v.ruleId, v.orderIndex])).toContainEqual([script.illegal.ruleId, 1]);
    for (const [transport, c] of clients(p1)) {
      const checked = await c.check(gameId, before.version, 'orders', illegal);
      expect([transport, checked]).toEqual([transport, { ok: true, valid: false, version: before.version, violations: refused.violations }]);
    }
    expect(await written(gameId)).toEqual(before);
  });

  it('answers malformed orders with their input violations, as the submission is refused with', async () => {
    const { version } = await written(gameId);
    const refused = await new RestClient(app, p1).submit(gameId, version, 'orders', malformed, uniqueId('malformed'));
    expect(refused).toMatchObject({ ok: false, code: 'BAD_USER_INPUT', errorCode: 'orders/malformed' });
    if (refused.ok) throw new Error('unreachable');
    // A bad shape names the input rule; an order kind the phase does not have, the sequence of play.
    expect(refused.violations!.map((v) => [v.ruleId, v.code, v.orderIndex])).toEqual([
      ['input', 'input/malformed', 0],
      ['GT-5.2', 'input/unknown_order', 1],
    ]);
    for (const [transport, c] of clients(p1)) {
      const checked = await c.check(gameId, version, 'orders', malformed);
      expect([transport, checked]).toEqual([transport, { ok: true, valid: false, version, violations: refused.violations }]);
    }
  });

  it('names the counter a violation of the whole phase is about, in the refusal and the dry run alike', async () => {
    const setup = (await playScript(new GraphqlClient(app, p1), new GraphqlClient(app, p2), script, -1)).gameId;
    const orders = script.steps[1]!.orders as Array<{ kind: string; unit?: string }>;
    expect(orders[0]).toMatchObject({ kind: 'place', unit: 'p2-inf-1' });
    const { version } = await written(setup);
    for (const [transport, c] of clients(p2)) {
      const refused = await c.submit(setup, version, 'orders', orders.slice(1), uniqueId('unplaced'));
      if (refused.ok) throw new Error(`${transport}: a setup without p2-inf-1 was accepted`);
      expect([transport, refused.violations]).toEqual([transport, [{ ruleId: expect.any(String), code: 'setup/unplaced', message: expect.any(String), orderIndex: null, unit: 'p2-inf-1' }]]);
      expect([transport, await c.check(setup, version, 'orders', orders.slice(1))]).toEqual([transport, { ok: true, valid: false, version, violations: refused.violations }]);
    }
    expect((await written(setup)).version).toBe(version);
  });

  it('cuts a long word of the orders in the violations, as the refusal does (at most 64 characters of it)', async () => {
    const { version } = await written(gameId);
    const long = [{ kind: 'Q'.repeat(150), unit: 'p1-lsd' }];
    const refused = await new RestClient(app, p1).submit(gameId, version, 'orders', long, uniqueId('long'));
    if (refused.ok) throw new Error('a kind of 150 Qs was accepted');
    const messages = refused.violations!.map((v) => v.message).join(' ');
    expect(messages).toContain(`"${'Q'.repeat(63)}…`);
    expect(messages).not.toContain('Q'.repeat(64));
    for (const [transport, c] of clients(p1)) {
      const checked = await c.check(gameId, version, 'orders', long);
      expect([transport, checked]).toEqual([transport, { ok: true, valid: false, version, violations: refused.violations }]);
      expect(JSON.stringify(checked)).not.toContain('Q'.repeat(64));
    }
  });

  it("checks standing orders as their submission does, in the other side's turn too", async () => {
    const before = await written(gameId);
    const foreign = { 'anti-landing': { units: ['p2-inf-1', 'p1-aav-1'] } };
    const refused = await new GraphqlClient(app, p2).submit(gameId, before.version, 'standing-orders', foreign, uniqueId('standing'));
    expect(refused).toMatchObject({ ok: false, code: 'BAD_USER_INPUT', errorCode: 'orders/illegal' });
    if (refused.ok) throw new Error('unreachable');
    for (const [transport, c] of clients(p2)) {
      const checked = await c.check(gameId, before.version, 'standing-orders', foreign);
      expect([transport, checked]).toEqual([transport, { ok: true, valid: false, version: before.version, violations: refused.violations }]);
      const fine = await c.check(gameId, before.version, 'standing-orders', { 'anti-landing': 'none' });
      expect([transport, fine]).toEqual([transport, { ok: true, valid: true, version: before.version, violations: [] }]);
    }
    expect(await written(gameId)).toEqual(before);
  });

  it('refuses what a submission refuses, with the same error', async () => {
    const version = await versionOf(gameId);
    const cases: Array<[string, TestPlayer, string, number, 'orders' | 'reaction' | 'standing-orders', object]> = [
      ['a stale version', p1, gameId, version - 1, 'orders', { code: 'CONFLICT', errorCode: 'game/version_conflict', currentVersion: version }],
      ['a version the game has not reached', p1, gameId, version + 1, 'orders', { code: 'CONFLICT', errorCode: 'game/version_conflict', currentVersion: version }],
      ["the other side's turn", p2, gameId, version, 'orders', { code: 'CONFLICT', errorCode: 'game/not_your_turn' }],
      ['a reaction nobody asked for', p1, gameId, version, 'reaction', { code: 'CONFLICT', errorCode: 'game/no_reaction' }],
      ['a game without a seat', stranger, gameId, version, 'orders', { code: 'NOT_FOUND', errorCode: 'game/not_found' }],
      ['a finished game', p1, finished, await versionOf(finished), 'orders', { code: 'CONFLICT', errorCode: 'game/finished' }],
    ];
    for (const [name, player, g, v, kind, expected] of cases) {
      for (const [transport, c] of clients(player)) {
        const submitted = await c.submit(g, v, kind, legal, uniqueId('refused'));
        const checked = await c.check(g, v, kind, legal);
        expect([name, transport, submitted]).toEqual([name, transport, expect.objectContaining({ ok: false, ...expected })]);
        expect([name, transport, checked]).toEqual([name, transport, submitted]);
      }
    }
    expect(await versionOf(gameId)).toBe(version);
  });

  it('passes a legal phase without rolling, writing or notifying anything, and the same orders then submit', async () => {
    const before = await written(gameId);
    for (const [transport, c] of clients(p1)) {
      const checked = await c.check(gameId, before.version, 'orders', legal);
      expect([transport, checked]).toEqual([transport, { ok: true, valid: true, version: before.version, violations: [] }]);
    }
    expect(await written(gameId)).toEqual(before);
    const submitted = await new RestClient(app, p1).submit(gameId, before.version, 'orders', legal, uniqueId('legal'));
    expect(submitted).toMatchObject({ ok: true });
    const after = await written(gameId);
    expect(after.version).toBeGreaterThan(before.version);
    expect(after.keys).toBe(before.keys + 1);
  });
});
