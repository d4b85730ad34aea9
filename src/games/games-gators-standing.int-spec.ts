import { gamesHarness, GamesHarness } from '../../test/support/games-harness';
import { gatorsEntry, seatedGatorsGame } from '../../test/support/gators-game';
import { play } from '../../test/support/kernel-game';

type Refusal = Error & { code?: string; details?: { violations?: Array<{ ruleId: string; code: string; message: string }> } };

/**
 * The island player's standing anti-landing orders (Q-GT-45) through the service layer: refused
 * with the field at fault and nothing written, read by their side only, replaced and cleared.
 */
describe('Gators! standing reaction orders through the service layer (real Postgres)', () => {
  let h: GamesHarness;
  beforeAll(async () => {
    h = await gamesHarness({ entries: [gatorsEntry()] });
  });
  afterAll(async () => {
    await h.close();
  });

  const refusal = (p: Promise<unknown>) => p.then(() => null, (e: Refusal) => ({ code: e.code, violations: e.details?.violations ?? [] }));

  it("refuses units not the side's own, malformed lists and unknown kinds, naming the field, and writes nothing", async () => {
    const g = await seatedGatorsGame(h);
    const before = await h.store.currentVersion(g.gameId);
    const enemy = await refusal(play(h, g.gameId, g.island, { 'anti-landing': { units: ['p2-inf-1', 'p1-aav-1', 'no-such-unit'] } }, 'standing-orders'));
    expect(enemy).toMatchObject({ code: 'orders/illegal' });
    expect(enemy!.violations.map((v) => [v.code, v.message])).toEqual([
      ['input/not_your_unit', 'anti-landing.units.1: P2 has no unit "p1-aav-1"'],
      ['input/not_your_unit', 'anti-landing.units.2: P2 has no unit "no-such-unit"'],
    ]);
    const except = await refusal(play(h, g.gameId, g.island, { 'anti-landing': { allExcept: ['p1-aav-1'] } }, 'standing-orders'));
    expect(except!.violations[0]!.message).toMatch(/^anti-landing\.allExcept\.0: /);
    const shape = await refusal(play(h, g.gameId, g.island, { 'anti-landing': { units: ['p2-inf-1', 7] } }, 'standing-orders'));
    expect(shape).toMatchObject({ code: 'orders/malformed', violations: [{ code: 'input/malformed' }] });
    expect(shape!.violations[0]!.message).toContain('anti-landing.units.1');
    // An empty list is what "none" says: refused like an empty `hexes`, so one form means it.
    for (const empty of [{ 'anti-landing': { units: [] } }, { 'anti-landing': { hexes: [] } }, { 'camouflage-unmask': { units: [] } }]) {
      const r = await refusal(play(h, g.gameId, g.island, empty, 'standing-orders'));
      expect(r).toMatchObject({ code: 'orders/malformed', violations: [{ code: 'input/malformed' }] });
      expect(r!.violations[0]!.message).toMatch(/^standing orders (anti-landing|camouflage-unmask)\.(units|hexes): Too small/);
    }
    const kind = await refusal(play(h, g.gameId, g.island, { 'landing-fire': 'all' }, 'standing-orders'));
    expect(kind!.violations).toMatchObject([{ code: 'input/unknown_reaction', message: expect.stringContaining('"landing-fire"') }]);
    expect(await h.store.currentVersion(g.gameId)).toBe(before);
  });

  it('keeps them from the other side, replaces them whole and clears them', async () => {
    const g = await seatedGatorsGame(h);
    const mine = async () => ((await h.queries.view(g.gameId, g.island)).board as { own: { standingOrders: unknown } }).own.standingOrders;
    const usReads = async () => JSON.stringify([await h.queries.summary(g.gameId, g.us), await h.queries.view(g.gameId, g.us), await h.queries.history(g.gameId, g.us, 1, 1000)]);

    await play(h, g.gameId, g.island, { 'anti-landing': { allExcept: ['p2-inf-1'] }, retreat: 'ask' }, 'standing-orders');
    expect(await mine()).toEqual({ 'anti-landing': { allExcept: ['p2-inf-1'] }, retreat: 'ask' });
    expect(await usReads()).not.toMatch(/allExcept|"ask"/);

    await play(h, g.gameId, g.island, { 'anti-landing': 'none' }, 'standing-orders');
    expect(await mine()).toEqual({ 'anti-landing': 'none' });
    await play(h, g.gameId, g.island, {}, 'standing-orders');
    expect(await mine()).toEqual({});
    expect(await usReads()).not.toMatch(/allExcept|"ask"|"none"/);
  });
});
