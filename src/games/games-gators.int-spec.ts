import { forcedDice, gamesHarness, GamesHarness } from '../../test/support/games-harness';
import { gatorsEntry, gatorsExample, gatorsSetup, gatorsTurn1, seatedGatorsGame } from '../../test/support/gators-game';
import { play } from '../../test/support/kernel-game';

describe('a Gators! game through the service layer (real Unnarstan scenario, real Postgres)', () => {
  let h: GamesHarness;
  beforeAll(async () => {
    h = await gamesHarness({ entries: [gatorsEntry()], dice: forcedDice([{ purpose: /breakdown/, value: 2 }]) });
  });
  afterAll(async () => {
    await h.close();
  });

  it('seals both setups, keeps the breakdown secret, places the ships and plays three turns', async () => {
    const g = await seatedGatorsGame(h);
    expect((await h.queries.summary(g.gameId, g.us)).acting).toEqual(['P1', 'P2']);

    await play(h, g.gameId, g.us, gatorsExample('setup-p1.json').orders);
    const p2 = await play(h, g.gameId, g.island, gatorsExample('setup-p2.json').orders);
    // The island player sees its secret roll; the US player sees only that a d6 was rolled in secret.
    expect(p2.events.find((e) => e.type === 'DiceRolled')!.data).toMatchObject({ value: 2, purpose: 'breakdown roll (GT-4.8)' });
    const usHistory = JSON.stringify(await h.queries.history(g.gameId, g.us));
    expect(usHistory).toContain('"purpose":"secret"');
    expect(usHistory).not.toMatch(/breakdown roll|p2-a4-1"[^}]*broken|"roll":2/);
    const usView = JSON.stringify(await h.queries.view(g.gameId, g.us));
    expect(usView).not.toMatch(/breakdown|"broken"/);
    expect(JSON.stringify(await h.queries.view(g.gameId, g.island))).toMatch(/breakdown/);

    const ships = await play(h, g.gameId, g.us, gatorsExample('ships.json').orders);
    expect(ships.phase).toMatchObject({ turn: 1, phase: 'p1-launch', acting: ['P1'] });

    for (let turn = 1; turn <= 3; turn++) {
      for (const s of gatorsTurn1().submissions) {
        const orders = turn === 1 ? s.orders : s.phase === 'p1-movement' ? [] : s.phase === 'p2-movement' ? [] : s.orders;
        await play(h, g.gameId, g.by(s.side), orders);
      }
      expect((await h.queries.summary(g.gameId, g.island)).turn).toBe(turn + 1);
    }
    const phases = (await h.queries.history(g.gameId, g.us, 1, 1000)).phases;
    expect(phases.filter((p) => p.phase === 'p2-movement')).toHaveLength(3);
  });

  it('gives the US player identical answers whatever the secret breakdown roll and camouflage', async () => {
    const run = async (roll: number, variant: 0 | 1 | 2 | 3 | 4) => {
      const hh = await gamesHarness({ entries: [gatorsEntry()], dice: forcedDice([{ purpose: /breakdown/, value: roll }]) });
      try {
        const g = await seatedGatorsGame(hh);
        const out: string[] = [];
        const norm = (x: unknown) => JSON.stringify(x).split(g.gameId).join('<game>').split(g.seedCommitment).join('<c>').split(g.us).join('<us>').split(g.island).join('<island>');
        const look = async () => out.push(norm(await hh.queries.summary(g.gameId, g.us)), norm(await hh.queries.view(g.gameId, g.us)), norm(await hh.queries.history(g.gameId, g.us, 1, 1000)));
        await gatorsSetup(hh, g, variant);
        await look();
        for (const s of gatorsTurn1().submissions) {
          // Before P1 moves: orders naming P2's units, broken down or camouflaged, must be refused alike (GT-4.9, GT-6C.5).
          if (s.phase === 'p1-movement')
            for (const unit of ['p2-a4-1', 'p2-a4-2', 'p2-hawk-1', 'p2-hawk-2', 'p2-m113-1', 'p2-how75-1'])
              out.push(norm(await play(hh, g.gameId, g.us, [{ kind: 'move', unit, path: ['2020'] }]).then(() => 'accepted', (e: Error & { details?: unknown }) => ({ message: e.message, details: e.details ?? null }))));
          const r = await play(hh, g.gameId, g.by(s.side), s.orders);
          if (s.side === 'P1') out.push(norm(r));
          await look();
        }
        const islandView = norm(await hh.queries.view(g.gameId, g.island));
        return { out, islandView };
      } finally {
        await hh.close();
      }
    };
    const base = await run(2, 0);
    // How many units one "?" hides is hidden too (one marker per hex in the view).
    const truckAt = [await run(2, 3), await run(2, 4)];
    expect(truckAt[1]!.islandView).not.toBe(truckAt[0]!.islandView);
    const at = truckAt[0]!.out.findIndex((r, i) => r !== truckAt[1]!.out[i]);
    expect(at === -1 ? 'identical' : `response ${at} differs with the truck under one "?" or the other`).toBe('identical');
    for (const [roll, variant] of [[6, 0], [2, 1], [2, 2]] as const) {
      const other = await run(roll, variant);
      // The secrets really differ (the island player's own view shows it)...
      expect(other.islandView).not.toBe(base.islandView);
      // ...and the US player cannot tell.
      const differing = base.out.findIndex((r, i) => r !== other.out[i]);
      expect(differing === -1 ? 'identical' : `response ${differing} differs for roll ${roll}, camouflage variant ${variant}`).toBe('identical');
    }
  });
});

describe('the notice of the sealed setups being applied (real Unnarstan scenario, real Postgres)', () => {
  it('lists for the US player its own loads, opened from its SecretOrdersApplied, and nothing the island hid', async () => {
    const hh = await gamesHarness({ entries: [gatorsEntry()], dice: forcedDice([{ purpose: /breakdown/, value: 2 }]), notifications: true });
    try {
      const g = await seatedGatorsGame(hh);
      await play(hh, g.gameId, g.us, gatorsExample('setup-p1.json').orders);
      const applied = await play(hh, g.gameId, g.island, gatorsExample('setup-p2.json').orders);
      const notice = await hh.prisma.notification.findFirst({ where: { playerId: g.us, gameId: g.gameId, gameVersion: applied.version } });
      const happened = (notice?.content as { happened?: string[] } | undefined)?.happened ?? [];
      expect(happened).toContain('Unit Loaded: unit p1-rp-lhd-1');
      const hidden = gatorsExample('setup-p2.json').orders.filter((o) => o['hidden']).map((o) => String(o['unit']));
      expect(hidden.length).toBeGreaterThan(0);
      expect(hidden.filter((unit) => happened.some((line) => line.split(/[ ,]+/).includes(unit)))).toEqual([]);
      expect(JSON.stringify(happened)).not.toMatch(/breakdown|Breakdown Chosen/);
    } finally {
      await hh.close();
    }
  });
});
