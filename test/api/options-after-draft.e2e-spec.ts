import request from 'supertest';
import { gatorsExample } from '../support/gators-game';
import { ApiApp, TestPlayer } from './support/api-app';
import { gatorsApiGame } from './support/gators-api-game';
import { GraphqlClient } from './support/game-client';

type Other = Array<{ action: string; detail: Record<string, unknown> }>;

/**
 * A client writing a phase asks what a unit may do after the orders it has drafted (`after`):
 * GraphQL `options(unitId, after)` and REST `POST .../units/{unitId}/options`. The worked
 * example's airborne F-5A is offered its hex off the airfields only once its loadout is drafted
 * (GT-4.4, Q-GT-15); a draft that cannot be read or breaks a rule is refused with its violations,
 * as a submission would be, and nothing is written.
 */
describe('options after a drafted phase, over GraphQL and REST', () => {
  let app: ApiApp;
  let p1: TestPlayer;
  let p2: TestPlayer;
  let gameId: string;
  const setupP2 = gatorsExample('setup-p2.json').orders;
  const arm = setupP2.find((o) => o['kind'] === 'arm' && String(o['unit']).startsWith('p2-f5a'))!;
  const f5a = String(arm['unit']);
  const airborneHex = String(setupP2.find((o) => o['kind'] === 'place' && o['unit'] === f5a)!['hex']);

  const OPTIONS = 'query($g: ID!, $u: String!, $after: JSON) { game(id: $g) { version options(unitId: $u, after: $after) { unitId other } } }';
  const graphql = (player: TestPlayer, unit: string, after?: unknown) => app.gql(player.token, OPTIONS, { g: gameId, u: unit, ...(after === undefined ? {} : { after }) });
  const rest = (player: TestPlayer, unit: string, body: unknown) =>
    request(app.http).post(`/api/v1/games/${gameId}/units/${unit}/options`).set('Authorization', `Bearer ${player.token}`).send(body as object);
  /** The options of each aircraft the example arms, asked without a draft. */
  const alone: Record<string, Other | null> = {};
  const places = (other: Other | null | undefined) => (other ?? []).filter((x) => x.action === 'place').map((x) => String(x.detail['hex']));

  beforeAll(async () => {
    ({ app, p1, p2, gameId } = await gatorsApiGame());
    for (const o of setupP2.filter((x) => x['kind'] === 'arm')) alone[String(o['unit'])] = (await graphql(p2, String(o['unit']))).body.data!.game.options.other;
  });
  afterAll(async () => {
    await app.close();
  });

  it("offers the F-5A its example's airborne hex once its loadout is drafted, not before, the same over both transports", async () => {
    const alone = await graphql(p2, f5a);
    expect(alone.body.errors).toBeUndefined();
    expect(places(alone.body.data!.game.options.other)).not.toContain(airborneHex);

    const drafted = await graphql(p2, f5a, [arm]);
    expect(drafted.body.errors).toBeUndefined();
    const other = drafted.body.data!.game.options.other as Other;
    expect(places(other)).toContain(airborneHex);
    // The airfields stay offered: a loadout does not oblige the aircraft to fly.
    expect(places(other).length).toBeGreaterThan(places(alone.body.data!.game.options.other).length);

    const r = await rest(p2, f5a, { after: [arm] });
    expect(r.status).toBe(200);
    expect(r.body.other).toEqual(other);
    // The placement, sent after the draft, adds no violation to what the draft alone gets as a phase
    // (the units not yet placed are the whole setup's concern).
    const c2 = new GraphqlClient(app, p2);
    const { version } = await c2.game(gameId);
    const said = async (orders: unknown[]) => ((await c2.check(gameId, version, 'orders', orders)).violations ?? []).map((v) => `${v.ruleId} ${v.code} ${v.message}`);
    const draftAlone = new Set(await said([arm]));
    expect(draftAlone.size).toBeGreaterThan(0);
    expect((await said([arm, { kind: 'place', unit: f5a, hex: airborneHex }])).filter((v) => !draftAlone.has(v))).toEqual([]);
    // Without the loadout, the same placement is refused (Q-GT-15).
    expect((await said([{ kind: 'place', unit: f5a, hex: airborneHex }])).some((v) => v.startsWith('Q-GT-15'))).toBe(true);
  });

  it('refuses a draft that breaks a rule with every violation and its rule ID, and one that cannot be read, writing nothing', async () => {
    const c2 = new GraphqlClient(app, p2);
    const before = (await c2.game(gameId)).version;
    // The map's corner is open sea, no hex of an infantry platoon's setup zone (GT-4.2).
    const illegal = [{ kind: 'place', unit: 'p2-inf-1', hex: '0101' }];
    const g = await graphql(p2, f5a, illegal);
    expect(g.body.data?.game ?? null).toBeNull();
    const err = g.body.errors![0]!;
    expect(err.extensions?.['code']).toBe('BAD_USER_INPUT');
    expect(err.extensions?.['errorCode']).toBe('orders/illegal');
    const violations = err.extensions?.['violations'] as Array<{ ruleId: string; orderIndex: number | null }>;
    expect(violations.length).toBeGreaterThan(0);
    expect(violations.every((v) => /^(GT|Q-GT)-/.test(v.ruleId) && v.orderIndex === 0)).toBe(true);

    const r = await rest(p2, f5a, { after: illegal });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('orders/illegal');
    expect(r.body.violations.map((v: { ruleId: string }) => v.ruleId)).toEqual(violations.map((v) => v.ruleId));

    const junk = await rest(p2, f5a, { after: [{ kind: 'teleport', unit: f5a }] });
    expect(junk.status).toBe(400);
    expect(junk.body.code).toBe('orders/malformed');
    expect((await rest(p2, f5a, {})).status).toBe(400);
    expect((await c2.game(gameId)).version).toBe(before);
  });

  it("builds P2's whole setup as a bot would, each unit in the first hex offered after the orders chosen before it, and checkPhase accepts it", async () => {
    // The example's arm orders first (the airborne F-5As' loadouts), then each unit of the example
    // in turn: no unit needs to know the rules, and what the units before it took (room in a hex)
    // is already counted in its options. Asked without the draft, every unit's first hex is one
    // and the same, and the setup breaks the stacking limit (GT-6D.1).
    const draft: Array<Record<string, unknown>> = setupP2.filter((o) => o['kind'] === 'arm');
    let airborne = 0;
    for (const o of setupP2.filter((x) => x['kind'] === 'place')) {
      const unit = String(o['unit']);
      const r = await graphql(p2, unit, draft);
      expect(r.body.errors).toBeUndefined();
      const offered = places(r.body.data!.game.options.other);
      expect([unit, offered.length > 0]).toEqual([unit, true]);
      // An armed F-5A takes a hex off the airfields where one is offered: the case a lone option never offers.
      const armed = draft.some((d) => d['kind'] === 'arm' && d['unit'] === unit);
      const hex = (armed ? offered.find((h) => !places(alone[unit]).includes(h)) : undefined) ?? offered[0]!;
      if (armed && !places(alone[unit]).includes(hex)) airborne++;
      draft.push({ kind: 'place', unit, hex });
    }
    expect(airborne).toBeGreaterThan(0);
    const c2 = new GraphqlClient(app, p2);
    const { version } = await c2.game(gameId);
    expect(await c2.check(gameId, version, 'orders', draft)).toMatchObject({ ok: true, valid: true, violations: [] });
  });

  it("offers P2 its Debris hexes as side options, the same over both transports, and not a hex its draft has used", async () => {
    const SIDE = 'query($g: ID!, $after: JSON) { game(id: $g) { sideOptions(after: $after) { other } } }';
    const side = async (player: TestPlayer, after?: unknown) => {
      const r = await app.gql(player.token, SIDE, { g: gameId, ...(after === undefined ? {} : { after }) });
      expect(r.body.errors).toBeUndefined();
      return r.body.data!.game.sideOptions.other as Other;
    };
    const debris = (o: Other) => o.filter((x) => x.action === 'debris').map((x) => String(x.detail['hex']));
    const all = await side(p2);
    const hexes = debris(all);
    const example = setupP2.filter((o) => o['kind'] === 'debris').map((o) => String(o['hex']));
    expect(example.length).toBeGreaterThan(0);
    expect(hexes).toEqual(expect.arrayContaining(example));
    const get = await request(app.http).get(`/api/v1/games/${gameId}/options`).set('Authorization', `Bearer ${p2.token}`);
    expect(get.status).toBe(200);
    expect(get.body.other).toEqual(all);

    const draft = [{ kind: 'debris', hex: example[0] }];
    const after = await side(p2, draft);
    expect(debris(after)).not.toContain(example[0]);
    expect(debris(after).length).toBe(hexes.length - 1);
    const post = await request(app.http).post(`/api/v1/games/${gameId}/options`).set('Authorization', `Bearer ${p2.token}`).send({ after: draft });
    expect(post.status).toBe(200);
    expect(post.body.other).toEqual(after);
    // P1 places no Debris (GT-4.7), and its setup has no other order of no one unit.
    expect(await side(p1)).toEqual([]);
  });

  it("answers a draft naming the other side's unit as one naming no unit at all", async () => {
    const p2Unit = String(setupP2.find((o) => o['kind'] === 'place')!['unit']);
    const asked = async (unit: string) => {
      const r = await rest(p1, 'p1-lhd', { after: [{ kind: 'place', unit, hex: '0101' }] });
      return { status: r.status, body: JSON.stringify(r.body).split(unit).join('<unit>') };
    };
    const real = await asked(p2Unit);
    expect(real.status).toBe(400);
    expect(real).toEqual(await asked('p2-no-such-unit'));
  });
});
