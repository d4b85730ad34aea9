import { gamesHarness, GamesHarness } from '../../test/support/games-harness';
import { DomainError } from '../common/errors';

/** Seats and invitations: who may claim which seat, once, and what is refused. */
describe('seats and invitations (service layer)', () => {
  let h: GamesHarness;
  beforeAll(async () => {
    h = await gamesHarness();
  });
  afterAll(async () => {
    await h.close();
  });

  const codeOf = (p: Promise<unknown>) => p.then(() => 'ok', (e: unknown) => (e instanceof DomainError ? (e as DomainError & { code: string }).code : `crash: ${String(e)}`));
  const seats = async (gameId: string) => (await h.loader.load(gameId)).state.seats;

  it('one player joining both sides at once with two invitations gets one seat', async () => {
    const org = await h.player('Org');
    const bob = await h.player('Bob');
    const { gameId } = await h.create.execute({ scenarioId: 'kernel-test' }, org);
    const a = await h.invitations.invite(gameId, 'A', 'token', org);
    const b = await h.invitations.invite(gameId, 'B', 'token', org);
    const got = await Promise.all([codeOf(h.invitations.join({ token: a.token! }, bob)), codeOf(h.invitations.join({ token: b.token! }, bob))]);
    expect(got.filter((c) => c === 'ok')).toHaveLength(1);
    expect(got.filter((c) => c.startsWith('crash'))).toEqual([]);
    expect(Object.values(await seats(gameId)).filter((p) => p === bob)).toHaveLength(1);
  });

  it('two players accepting one open challenge at once: one seat, one refusal', async () => {
    const alice = await h.player('Alice');
    const { gameId } = await h.create.execute({ scenarioId: 'kernel-test', side: 'A' }, alice);
    const inv = await h.invitations.invite(gameId, 'B', 'open', alice);
    const ps = [await h.player('P1'), await h.player('P2'), await h.player('P3')];
    const got = await Promise.all(ps.map((p) => codeOf(h.invitations.join({ invitationId: inv.invitationId }, p))));
    expect(got.filter((c) => c === 'ok')).toHaveLength(1);
    expect(got.filter((c) => c.startsWith('crash'))).toEqual([]);
  });

  it('a token works once; an expired one not at all', async () => {
    const alice = await h.player('Alice');
    const bob = await h.player('Bob');
    const carol = await h.player('Carol');
    const { gameId } = await h.create.execute({ scenarioId: 'kernel-test', side: 'A' }, alice);
    const inv = await h.invitations.invite(gameId, 'B', 'token', alice, 1);
    h.clock.advance(3_600_000);
    expect(await codeOf(h.invitations.join({ token: inv.token! }, bob))).toBe('invitation/expired');
    h.clock.advance(-3_600_000);
    const inv2 = await h.invitations.invite(gameId, 'B', 'token', alice);
    expect(await codeOf(h.invitations.join({ token: inv2.token! }, bob))).toBe('ok');
    expect(await codeOf(h.invitations.join({ token: inv2.token! }, carol))).toBe('invitation/used');
    expect(await codeOf(h.invitations.invite(gameId, 'B', 'token', alice))).toBe('invitation/seat_taken');
    expect(await codeOf(h.invitations.invite(gameId, 'C', 'token', alice))).toBe('game/unknown_side');
  });

  it('open challenges list only seats that can still be taken', async () => {
    const alice = await h.player('Alice');
    const bob = await h.player('Bob');
    const { gameId } = await h.create.execute({ scenarioId: 'kernel-test', side: 'A' }, alice);
    const open = await h.invitations.invite(gameId, 'B', 'open', alice);
    const tok = await h.invitations.invite(gameId, 'B', 'token', alice);
    await h.invitations.join({ token: tok.token! }, bob);
    const other = (await h.create.execute({ scenarioId: 'kernel-test', side: 'A' }, alice)).gameId;
    const fresh = await h.invitations.invite(other, 'B', 'open', alice);
    const listed = (await h.invitations.openChallenges(1000)).map((c) => c.invitationId);
    expect(listed).not.toContain(open.invitationId);
    expect(listed).toContain(fresh.invitationId);
    expect(await codeOf(h.invitations.join({ invitationId: open.invitationId }, bob))).toBe('invitation/seat_taken');
  });

  // Nobody may ever come to an open challenge: a seated player is not left holding a game that
  // can never start (before, a game still seating could not be resigned or ended at all).
  it('a seated player may withdraw a game still waiting for players: it ends with no winner, and nobody can join it', async () => {
    const alice = await h.player('Alice');
    const bob = await h.player('Bob');
    const { gameId } = await h.create.execute({ scenarioId: 'kernel-test', side: 'A' }, alice);
    const open = await h.invitations.invite(gameId, 'B', 'open', alice);
    const tok = await h.invitations.invite(gameId, 'B', 'token', alice);
    const before = await h.store.currentVersion(gameId);
    expect(await codeOf(h.actions.resign(gameId, before, bob))).toBe('game/not_found');
    const done = await h.actions.resign(gameId, before, alice);
    expect(done.events.map((e) => e.type)).toEqual(expect.arrayContaining(['Resigned', 'GameEnded']));
    const s = await h.queries.summary(gameId, alice);
    expect([s.status, s.phase, s.result]).toEqual(['finished', 'ended', { winner: null, reason: 'Side A withdrew before the game started.' }]);
    expect((await h.invitations.openChallenges(1000)).map((c) => c.invitationId)).not.toContain(open.invitationId);
    expect(await codeOf(h.invitations.join({ token: tok.token! }, bob))).toBe('game/finished');
    expect(await codeOf(h.invitations.join({ invitationId: open.invitationId }, bob))).toBe('game/finished');
    expect(await codeOf(h.actions.resign(gameId, await h.store.currentVersion(gameId), alice))).toBe('game/finished');
  });

  it('whoever organised a game without a seat may withdraw it too while it waits for players', async () => {
    const org = await h.player('Org');
    const bob = await h.player('Bob');
    const { gameId } = await h.create.execute({ scenarioId: 'kernel-test' }, org);
    const inv = await h.invitations.invite(gameId, 'A', 'token', org);
    await h.invitations.join({ token: inv.token! }, bob);
    await h.actions.resign(gameId, await h.store.currentVersion(gameId), org);
    const s = await h.queries.summary(gameId, org);
    expect([s.status, s.result]).toEqual(['finished', { winner: null, reason: 'The organiser withdrew the game before it started.' }]);
    // Once it has begun, the game is its players': the organiser holds no side to resign.
    const { gameId: begun } = await h.create.execute({ scenarioId: 'kernel-test' }, org);
    for (const side of ['A', 'B']) await h.invitations.join({ token: (await h.invitations.invite(begun, side, 'token', org)).token! }, await h.player(`P${side}`));
    expect(await codeOf(h.actions.resign(begun, await h.store.currentVersion(begun), org))).toBe('game/not_seated');
  });

  // expiresAt came from the clock, createdAt from the database a moment later: a 14-day
  // invitation was listed as lasting a few milliseconds less.
  it('takes an invitation\'s createdAt and expiresAt from one reading of the clock', async () => {
    const alice = await h.player('Alice');
    const { gameId } = await h.create.execute({ scenarioId: 'kernel-test', side: 'A' }, alice);
    const made = await h.invitations.invite(gameId, 'B', 'token', alice, 5);
    const [listed] = (await h.invitations.list(gameId, alice, 1)).items;
    expect(listed!.createdAt).toEqual(h.clock.now());
    expect(listed!.expiresAt!.getTime() - listed!.createdAt.getTime()).toBe(5 * 3_600_000);
    expect(listed!.expiresAt!.toISOString()).toBe(made.expiresAt);
  });

  // A token sent to the wrong person stayed good for its 14 days: nothing could list or end it.
  it('lists the invitations of a game to whoever may invite, and withdraws one at once', async () => {
    const alice = await h.player('Alice');
    const bob = await h.player('Bob');
    const eve = await h.player('Eve');
    const { gameId } = await h.create.execute({ scenarioId: 'kernel-test', side: 'A' }, alice);
    const wrong = await h.invitations.invite(gameId, 'B', 'token', alice);
    // Made at the clock's time: one made at the same time would be ordered by its random id.
    h.clock.advance(1);
    const open = await h.invitations.invite(gameId, 'B', 'open', alice);
    expect((await h.invitations.list(gameId, alice, 100)).items.map((i) => [i.invitationId, i.kind, i.status])).toEqual([
      [open.invitationId, 'open', 'open'],
      [wrong.invitationId, 'token', 'open'],
    ]);
    expect(JSON.stringify(await h.invitations.list(gameId, alice, 100))).not.toContain(wrong.token!);
    expect(await codeOf(h.invitations.list(gameId, eve, 100))).toBe('game/not_found');
    expect(await codeOf(h.invitations.withdraw(gameId, wrong.invitationId, eve))).toBe('game/not_found');
    expect((await h.invitations.withdraw(gameId, wrong.invitationId, alice)).status).toBe('ended');
    expect(await codeOf(h.invitations.join({ token: wrong.token! }, eve))).toBe('invitation/expired');
    expect((await h.invitations.withdraw(gameId, wrong.invitationId, alice)).status).toBe('ended');
    expect(await codeOf(h.invitations.withdraw(gameId, 'inv_nothing', alice))).toBe('invitation/not_found');
    await h.invitations.join({ invitationId: open.invitationId }, bob);
    expect(await codeOf(h.invitations.withdraw(gameId, open.invitationId, bob))).toBe('invitation/used');
    expect((await h.invitations.list(gameId, bob, 100)).items.map((i) => i.status)).toEqual(['used', 'ended']);
  });

  it('lists an invitation as ended once its seat is taken by another one: it can seat nobody', async () => {
    const alice = await h.player('Alice');
    const bob = await h.player('Bob');
    const { gameId } = await h.create.execute({ scenarioId: 'kernel-test', side: 'A' }, alice);
    const challenge = await h.invitations.invite(gameId, 'B', 'open', alice);
    h.clock.advance(1);
    const token = await h.invitations.invite(gameId, 'B', 'token', alice);
    await h.invitations.join({ token: token.token! }, bob);
    expect((await h.invitations.list(gameId, alice, 100)).items.map((i) => [i.invitationId, i.status])).toEqual([
      [token.invitationId, 'used'],
      [challenge.invitationId, 'ended'],
    ]);
    expect(await codeOf(h.invitations.join({ invitationId: challenge.invitationId }, await h.player('Carol')))).not.toBe('ok');
  });

  it('keeps at most 20 invitations of a game open at once', async () => {
    const alice = await h.player('Alice');
    const { gameId } = await h.create.execute({ scenarioId: 'kernel-test', side: 'A' }, alice);
    const made = [];
    for (let i = 0; i < 20; i++) made.push(await h.invitations.invite(gameId, 'B', i % 2 ? 'open' : 'token', alice));
    expect(await codeOf(h.invitations.invite(gameId, 'B', 'open', alice))).toBe('invitation/too_many');
    await h.invitations.withdraw(gameId, made[0]!.invitationId, alice);
    expect(await codeOf(h.invitations.invite(gameId, 'B', 'open', alice))).toBe('ok');
  });

  it('counts toward the cap of 20 only invitations that can still seat someone', async () => {
    const org = await h.player('Org');
    const { gameId } = await h.create.execute({ scenarioId: 'kernel-test' }, org);
    const forA = [];
    for (let i = 0; i < 19; i++) forA.push(await h.invitations.invite(gameId, 'A', 'token', org));
    await h.invitations.invite(gameId, 'B', 'open', org);
    expect(await codeOf(h.invitations.invite(gameId, 'B', 'token', org))).toBe('invitation/too_many');
    // A's seat is taken: its 18 other tokens are ended and hold no place under the cap.
    await h.invitations.join({ token: forA[0]!.token! }, await h.player('Ann'));
    for (let i = 0; i < 19; i++) expect(await codeOf(h.invitations.invite(gameId, 'B', 'token', org))).toBe('ok');
    expect(await codeOf(h.invitations.invite(gameId, 'B', 'token', org))).toBe('invitation/too_many');
  });

  it('an open challenge is for others: its creator may not accept it', async () => {
    const org = await h.player('Org');
    const { gameId } = await h.create.execute({ scenarioId: 'kernel-test' }, org);
    const inv = await h.invitations.invite(gameId, 'B', 'open', org);
    expect(await codeOf(h.invitations.join({ invitationId: inv.invitationId }, org))).toBe('invitation/own');
    expect((await seats(gameId))['B']).toBeFalsy();
    expect(await codeOf(h.invitations.join({ invitationId: inv.invitationId }, await h.player('Bob')))).toBe('ok');
  });
});
