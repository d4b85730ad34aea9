import { gatorsExample } from '../support/gators-game';
import { ApiApp, TestPlayer } from './support/api-app';
import { gatorsApiGame } from './support/gators-api-game';
import { GraphqlClient, RestClient } from './support/game-client';

type Other = Array<{ action: string; detail: Record<string, unknown> }>;

/**
 * A client can set a side up from the units' options alone: each unit waiting to be set up is
 * offered the places its placement is accepted in (`place` `{hex}` or `{carrier}`), over GraphQL
 * and REST alike, and only to its own side.
 */
describe('setup placements as unit options, over GraphQL and REST', () => {
  let app: ApiApp;
  let p1: TestPlayer;
  let p2: TestPlayer;
  let gameId: string;
  const setupP2 = gatorsExample('setup-p2.json').orders.filter((o) => o['kind'] === 'place');
  // GT-4.4: an airborne F-5A is placed off an airfield together with its loadout (an arm order),
  // so no placement of it alone is accepted there: its options are the airfields.
  const airborne = new Set(gatorsExample('setup-p2.json').orders.filter((o) => o['kind'] === 'arm' && String(o['unit']).startsWith('p2-f5a')).map((o) => String(o['unit'])));

  const OPTIONS = 'query($g: ID!, $u: String!) { game(id: $g) { options(unitId: $u) { unitId other } } }';
  const graphqlOther = async (player: TestPlayer, unit: string) => {
    const r = await app.gql(player.token, OPTIONS, { g: gameId, u: unit });
    expect(r.body.errors).toBeUndefined();
    return r.body.data!.game.options as { other: Other | null };
  };

  beforeAll(async () => {
    ({ app, p1, p2, gameId } = await gatorsApiGame());
  });
  afterAll(async () => {
    await app.close();
  });

  it("offers every placement of the worked example's P2 setup, the same over both transports", async () => {
    const rest = new RestClient(app, p2);
    let hexes = 0;
    for (const o of setupP2) {
      const unit = String(o['unit']);
      const g = await graphqlOther(p2, unit);
      const r = (await rest.options(gameId, unit)) as { other?: Other };
      expect(r.other ?? null).toEqual(g.other);
      const offered = (g.other ?? []).filter((x) => x.action === 'place').map((x) => x.detail['hex']);
      expect(offered.length).toBeGreaterThan(0);
      hexes += offered.length;
      if (airborne.has(unit)) expect([unit, offered.includes(o['hex'])]).toEqual([unit, false]);
      else expect([unit, offered.includes(o['hex'])]).toEqual([unit, true]);
    }
    expect(airborne.size).toBe(2);
    expect(hexes).toBeGreaterThan(setupP2.length * 3);
  });

  it('passes checkPhase with a setup built from the options alone, as a bot would: each unit in an offered hex no other unit took, where one is left', async () => {
    const c2 = new GraphqlClient(app, p2);
    const places: Array<[string, string[]]> = [];
    for (const o of setupP2) {
      const unit = String(o['unit']);
      places.push([unit, ((await graphqlOther(p2, unit)).other ?? []).filter((x) => x.action === 'place').map((x) => String(x.detail['hex']))]);
    }
    // The units with the fewest places choose first (the aircraft take the airfields, where
    // aircraft stack without limit and a ground unit would not leave them room, GT-6D.1).
    places.sort((a, b) => a[1].length - b[1].length);
    const taken = new Set<string>();
    const orders = places.map(([unit, offered]) => {
      const hex = offered.find((h) => !taken.has(h)) ?? offered[0]!;
      taken.add(hex);
      return { kind: 'place', unit, hex };
    });
    const { version } = await c2.game(gameId);
    expect(await c2.check(gameId, version, 'orders', orders)).toMatchObject({ ok: true, valid: true, violations: [] });
  });

  it("never shows one side the other side's units waiting to be set up", async () => {
    const asked = await app.gql(p1.token, OPTIONS, { g: gameId, u: String(setupP2[0]!['unit']) });
    expect(asked.body.data?.game.options ?? null).toBeNull();
    expect(asked.body.errors?.map((e) => e.extensions?.['errorCode'])).toEqual(['game/not_your_unit']);
    const ownShip = await graphqlOther(p1, 'p1-lhd');
    // P1's ships wait for setup too, but are placed after P2 has set up (GT-4.14): nothing now.
    expect(ownShip.other).toBeNull();
  });
});
