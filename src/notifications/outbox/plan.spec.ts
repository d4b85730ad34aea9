import type { EffectivePreferences } from '../preferences/preferences';
import { effectivePreferences } from '../preferences/preferences';
import { deliveryId } from './delivery-id';
import type { NotificationIntent } from '../notification-intent';
import { itemFromIntent, OutboxItem } from './outbox-item';
import { endpointsFor, planDeliveries, RecipientContext, RecipientEndpoint } from './plan';

const prefs = (p: Partial<EffectivePreferences> = {}): EffectivePreferences => ({ email: true, webhook: true, discord: true, quiet: null, reminderLeadMinutes: 720, digest: false, ...p });
const item = (o: Partial<OutboxItem> = {}): OutboxItem => ({
  id: 'g1:5:your_turn:p1', playerId: 'p1', gameId: 'g1', kind: 'your_turn', side: 'blue', gameVersion: 5, content: {}, deadlineAt: null, digestible: true, ...o,
});
const ctx = (p: Partial<EffectivePreferences> = {}, endpoints: RecipientContext['endpoints'] = []): RecipientContext => ({ timeZone: 'UTC', prefs: prefs(p), endpoints });
const ep = (id: string, kind: RecipientEndpoint['kind'], gameId: string | null = null, enabled = true): RecipientEndpoint => ({ id, kind, gameId, enabled });
const now = new Date('2026-12-01T23:00:00Z');
const options = { now, emailAvailable: true, digestHour: 18 };

describe('planning deliveries', () => {
  it('makes one delivery per enabled channel and endpoint, with stable ids', () => {
    const endpoints: RecipientContext['endpoints'] = [ep('w1', 'webhook'), ep('w2', 'webhook'), ep('d1', 'discord')];
    const { deliveries } = planDeliveries(item(), ctx({}, endpoints), options);
    expect(deliveries.map((d) => [d.channel, d.endpointId])).toEqual([['email', null], ['webhook', 'w1'], ['webhook', 'w2'], ['discord', 'd1']]);
    expect(deliveries[1]!.id).toBe(deliveryId('g1:5:your_turn:p1', 'webhook', 'w1'));
    expect(new Set(deliveries.map((d) => d.id)).size).toBe(4);
    expect(planDeliveries(item(), ctx({}, endpoints), options).deliveries.map((d) => d.id)).toEqual(deliveries.map((d) => d.id));
  });

  it('leaves out channels that are off, email without SMTP, and an excluded endpoint', () => {
    const endpoints: RecipientContext['endpoints'] = [ep('w1', 'webhook'), ep('d1', 'discord')];
    expect(planDeliveries(item(), ctx({ webhook: false }, endpoints), options).deliveries.map((d) => d.channel)).toEqual(['email', 'discord']);
    expect(planDeliveries(item(), ctx({}, endpoints), { ...options, emailAvailable: false }).deliveries.map((d) => d.channel)).toEqual(['webhook', 'discord']);
    expect(planDeliveries(item({ excludeEndpointId: 'd1' }), ctx({}, endpoints), options).deliveries.map((d) => d.channel)).toEqual(['email', 'webhook']);
  });

  it('holds mail and Discord (not webhooks) until quiet hours end, unless the deadline comes first', () => {
    const endpoints: RecipientContext['endpoints'] = [ep('w1', 'webhook'), ep('d1', 'discord')];
    const quiet = { start: 22 * 60, end: 7 * 60 };
    const held = planDeliveries(item(), ctx({ quiet }, endpoints), options).deliveries;
    expect(held.map((d) => [d.channel, d.notBefore.toISOString()])).toEqual([
      ['email', '2026-12-02T07:00:00.000Z'],
      ['webhook', now.toISOString()],
      ['discord', '2026-12-02T07:00:00.000Z'],
    ]);
    const urgent = planDeliveries(item({ deadlineAt: '2026-12-02T06:00:00Z' }), ctx({ quiet }, endpoints), options).deliveries;
    expect(urgent.every((d) => d.notBefore.getTime() === now.getTime())).toBe(true);
  });

  it('cuts quiet hours short only for the deadline of a side that acts: another side\'s deadline is not the recipient\'s', () => {
    const quiet = { start: 22 * 60, end: 7 * 60 };
    const intent = (yourTurn: boolean): NotificationIntent => ({
      id: `g1:5:deadline_missed:p1:${yourTurn}`, kind: 'deadline_missed', gameId: 'g1', playerId: 'p1', side: 'blue', gameVersion: 5,
      content: { gameTitle: 'G', scenarioName: 'S', turn: 2, phase: 'P2 Movement', whoseTurn: [], yourTurn, deadlineAt: '2026-12-02T06:00:00.000Z', happened: [], links: { game: 'g', act: 'a' } },
    });
    const at = (yourTurn: boolean) => planDeliveries(itemFromIntent(intent(yourTurn)), ctx({ quiet }), options).deliveries.map((d) => d.notBefore.toISOString());
    expect(at(true)).toEqual([now.toISOString()]);
    expect(at(false)).toEqual(['2026-12-02T07:00:00.000Z']);
  });

  it('puts turn mail into the daily digest, but never a reminder', () => {
    const { deliveries, digest } = planDeliveries(item(), ctx({ digest: true }), options);
    expect(digest).toMatchObject({ playerId: 'p1', day: '2026-12-02', at: new Date('2026-12-02T18:00:00Z'), notificationId: 'digest:p1:2026-12-02' });
    expect(deliveries).toEqual([expect.objectContaining({ channel: 'email', status: 'held', digestId: digest!.deliveryId })]);
    // A reaction window closing before the 18:00 digest: its mail goes now, not into a digest about a closed window.
    const soon = planDeliveries(item({ kind: 'reaction_requested', deadlineAt: '2026-12-02T15:00:00.000Z' }), ctx({ digest: true }), { ...options, now: new Date('2026-12-02T09:00:00Z') });
    expect(soon.digest).toBeNull();
    expect(soon.deliveries).toEqual([expect.objectContaining({ channel: 'email', status: 'pending', notBefore: new Date('2026-12-02T09:00:00Z') })]);
    const reminder = planDeliveries(item({ kind: 'deadline_reminder', digestible: false }), ctx({ digest: true }), options);
    expect(reminder.digest).toBeNull();
    expect(reminder.deliveries[0]).toMatchObject({ status: 'pending', digestId: null });
  });
});

describe('endpoints scoped to one game', () => {
  const all = [ep('w-all', 'webhook'), ep('w-all2', 'webhook'), ep('d-all', 'discord')];

  it('sends a game\'s notification to its own endpoints, which replace the all-games ones of the same kind only', () => {
    const endpoints = [...all, ep('w-g1', 'webhook', 'g1')];
    expect(endpointsFor('g1', endpoints).map((e) => e.id)).toEqual(['d-all', 'w-g1']);
    expect(endpointsFor('g2', endpoints).map((e) => e.id)).toEqual(['w-all', 'w-all2', 'd-all']);
    const both = [...endpoints, ep('d-g1', 'discord', 'g1'), ep('d-g2', 'discord', 'g2')];
    expect(endpointsFor('g1', both).map((e) => e.id)).toEqual(['w-g1', 'd-g1']);
    expect(endpointsFor('g2', both).map((e) => e.id)).toEqual(['w-all', 'w-all2', 'd-g2']);
  });

  it('keeps a disabled per-game endpoint in place of the all-games one, and never uses disabled endpoints', () => {
    const endpoints = [...all, ep('w-g1', 'webhook', 'g1', false), ep('d-all-off', 'discord', null, false)];
    expect(endpointsFor('g1', endpoints).map((e) => e.id)).toEqual(['d-all']);
    expect(endpointsFor('g2', endpoints).map((e) => e.id)).toEqual(['w-all', 'w-all2', 'd-all']);
  });

  it('sends a notice outside any game to the all-games endpoints only', () => {
    expect(endpointsFor(null, [...all, ep('w-g1', 'webhook', 'g1'), ep('d-g1', 'discord', 'g1')]).map((e) => e.id)).toEqual(['w-all', 'w-all2', 'd-all']);
  });

  it('plans deliveries to the chosen endpoints, with the game\'s channel settings', () => {
    const endpoints = [ep('w-all', 'webhook'), ep('d-all', 'discord'), ep('d-g1', 'discord', 'g1')];
    const planned = planDeliveries(item(), ctx({}, endpoints), options).deliveries;
    expect(planned.map((d) => [d.channel, d.endpointId])).toEqual([['email', null], ['webhook', 'w-all'], ['discord', 'd-g1']]);
    expect(planDeliveries(item(), ctx({ discord: false }, endpoints), options).deliveries.map((d) => d.endpointId)).toEqual([null, 'w-all']);
  });
});

describe('effective preferences', () => {
  const row = (r: object) => ({ emailEnabled: null, webhookEnabled: null, discordEnabled: null, quietHoursEnabled: null, quietStart: null, quietEnd: null, reminderLeadMinutes: null, digest: null, ...r });

  it('takes the game override, then the player default, then the server default', () => {
    expect(effectivePreferences(null, null, 600)).toEqual(prefs({ reminderLeadMinutes: 600 }));
    const player = row({ emailEnabled: false, reminderLeadMinutes: 60, quietHoursEnabled: true, quietStart: 1320, quietEnd: 420 });
    expect(effectivePreferences(player, null, 600)).toEqual(prefs({ email: false, reminderLeadMinutes: 60, quiet: { start: 1320, end: 420 } }));
    const game = row({ emailEnabled: true, quietHoursEnabled: false, digest: true });
    expect(effectivePreferences(player, game, 600)).toEqual(prefs({ email: true, reminderLeadMinutes: 60, quiet: null, digest: true }));
  });

  it('lets a game row override each field on its own, the rest coming from the player\'s row', () => {
    const player = row({ emailEnabled: true, webhookEnabled: true, discordEnabled: true, quietHoursEnabled: true, quietStart: 1320, quietEnd: 420, reminderLeadMinutes: 60, digest: false });
    const base = effectivePreferences(player, null, 600);
    const cases: Array<[object, Partial<EffectivePreferences>]> = [
      [{ emailEnabled: false }, { email: false }],
      [{ webhookEnabled: false }, { webhook: false }],
      [{ discordEnabled: false }, { discord: false }],
      [{ quietHoursEnabled: false }, { quiet: null }],
      [{ quietHoursEnabled: true, quietStart: 60, quietEnd: 120 }, { quiet: { start: 60, end: 120 } }],
      [{ reminderLeadMinutes: 0 }, { reminderLeadMinutes: 0 }],
      [{ digest: true }, { digest: true }],
    ];
    for (const [game, changed] of cases) expect([game, effectivePreferences(player, row(game), 600)]).toEqual([game, { ...base, ...changed }]);
    // And the other way round: a game turns on what the player's defaults leave off.
    const off = row({ emailEnabled: false, webhookEnabled: false, discordEnabled: false, quietHoursEnabled: false, digest: false });
    expect(effectivePreferences(off, row({ webhookEnabled: true, quietHoursEnabled: true, quietStart: 1380, quietEnd: 360, digest: true }), 600)).toEqual(
      prefs({ email: false, webhook: true, discord: false, quiet: { start: 1380, end: 360 }, digest: true, reminderLeadMinutes: 600 }),
    );
  });
});
