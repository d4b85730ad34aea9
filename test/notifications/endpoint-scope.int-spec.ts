import { BadInputError } from '../../src/common/errors';
import type { PrismaService } from '../../src/database/prisma.service';
import { IsolatedDatabase } from '../support/isolated-database';
import { intent, player, uid } from './support/fixtures';
import { Harness, notificationsConfig } from './support/harness';
import { receiverSuite } from './support/receiver-suite';
import { HttpReceiver, Reply, ReceivedRequest, SmtpReceiver } from './support/receivers';
import { verifyStandardWebhook } from './support/verify-signature';

interface Payload {
  type: string;
  data: { kind: string; gameId?: string; game?: { id: string; title: string | null } };
}

/**
 * Webhook and Discord endpoints for one game beside the player's all-games ones, delivered by
 * the worker to real HTTP receivers on loopback: a game's notifications go to its own
 * endpoints, which replace the all-games endpoints of their kind for that game only.
 */
describe('endpoints scoped to one game (real HTTP receivers on loopback)', () => {
  const suite = receiverSuite('endpoint_scope');
  let db: IsolatedDatabase;
  let prisma: PrismaService;
  let smtp: SmtpReceiver;
  let h: Harness;
  beforeAll(() => ({ db, prisma, smtp, h } = suite));
  /** Discord posts carry no webhook-id: dedupe on the notification id in the embed's footer. */
  const footer = (_h: unknown, body: string) => (JSON.parse(body) as { embeds: Array<{ footer?: { text: string } }> }).embeds[0]?.footer?.text ?? body;
  const receiver = (reply?: (req: ReceivedRequest, seen: number) => Reply, discord = false) => suite.receiver(reply, discord ? footer : undefined);
  const discordUrl = (r: HttpReceiver, n: number) => r.url.replace('/hook', `/api/webhooks/${n}/token-${n}`);
  const payloads = (r: HttpReceiver) => r.requests.map((q) => JSON.parse(q.body) as Payload);
  /** Which game each webhook request was about, in order. */
  const games = (r: HttpReceiver) => payloads(r).map((p) => p.data.gameId);
  /** Which game each Discord post links to. */
  const discordGames = (r: HttpReceiver) => r.requests.map((q) => /\/games\/([^/]+)\/act/.exec((JSON.parse(q.body) as { embeds: Array<{ url: string }> }).embeds[0]!.url)?.[1]);

  it('sends a game\'s notifications to its own webhook only, and every other game\'s to the all-games webhook', async () => {
    const everywhere = await receiver();
    const campaign = await receiver();
    const email = `${uid('scoped')}@players.test`;
    const p = await player(prisma, { email });
    const all = await h.endpoints.addWebhook(p, everywhere.url);
    const one = await h.endpoints.addWebhook(p, campaign.url, 'g-camp-1');
    expect([all.endpoint.gameId, one.endpoint.gameId]).toEqual([null, 'g-camp-1']);
    expect((await h.endpoints.listEndpoints(p)).map((e) => [e.id, e.gameId])).toEqual([[all.endpoint.id, null], [one.endpoint.id, 'g-camp-1']]);

    await h.enqueue([
      intent({ playerId: p, gameId: 'g-camp-1', version: 1 }),
      intent({ playerId: p, gameId: 'g-camp-2', version: 1 }),
      intent({ playerId: p, gameId: 'g-camp-1', version: 2 }),
    ]);
    await h.worker.drain();

    expect(games(campaign)).toEqual(['g-camp-1', 'g-camp-1']);
    expect(games(everywhere)).toEqual(['g-camp-2']);
    // Each endpoint signs with its own secret.
    for (const q of campaign.requests) expect([verifyStandardWebhook(one.secret, q.headers, q.body), verifyStandardWebhook(all.secret, q.headers, q.body)]).toEqual([true, false]);
    for (const q of everywhere.requests) expect([verifyStandardWebhook(all.secret, q.headers, q.body), verifyStandardWebhook(one.secret, q.headers, q.body)]).toEqual([true, false]);
    // Mail is not an endpoint: it still comes for every game.
    expect(smtp.mails.filter((m) => m.envelopeTo.includes(email))).toHaveLength(3);

    // Removing the game's webhook sends that game to the all-games one again.
    await h.endpoints.removeEndpoint(p, one.endpoint.id);
    await h.enqueue([intent({ playerId: p, gameId: 'g-camp-1', version: 3 })]);
    await h.worker.drain();
    expect(games(everywhere)).toEqual(['g-camp-2', 'g-camp-1']);
    expect(campaign.requests).toHaveLength(2);
  });

  it('sends a game\'s Discord messages to its own Discord webhook, replacing only the Discord one', async () => {
    const general = await receiver(undefined, true);
    const campaign = await receiver(undefined, true);
    const hook = await receiver();
    const p = await player(prisma);
    await h.endpoints.addWebhook(p, hook.url);
    const all = await h.endpoints.setDiscordWebhook(p, discordUrl(general, 1));
    const one = await h.endpoints.setDiscordWebhook(p, discordUrl(campaign, 2), 'g-disc-1');
    expect([all?.gameId, one?.gameId]).toEqual([null, 'g-disc-1']);

    await h.enqueue([intent({ playerId: p, gameId: 'g-disc-1', version: 1 }), intent({ playerId: p, gameId: 'g-disc-2', version: 1 })]);
    await h.worker.drain();
    expect(discordGames(campaign)).toEqual(['g-disc-1']);
    expect(discordGames(general)).toEqual(['g-disc-2']);
    // The game has no webhook of its own, so its webhook notifications go to the all-games one.
    expect(games(hook).sort()).toEqual(['g-disc-1', 'g-disc-2']);

    // Setting the all-games Discord webhook again leaves the game's own alone; clearing the
    // game's own sends that game to the all-games one.
    const replaced = await h.endpoints.setDiscordWebhook(p, discordUrl(general, 3));
    expect((await h.endpoints.listEndpoints(p)).filter((e) => e.kind === 'discord').map((e) => [e.id, e.gameId])).toEqual([[one!.id, 'g-disc-1'], [replaced!.id, null]]);
    expect(await h.endpoints.setDiscordWebhook(p, null, 'g-disc-1')).toBeNull();
    await h.enqueue([intent({ playerId: p, gameId: 'g-disc-1', version: 2 })]);
    await h.worker.drain();
    expect(discordGames(general)).toEqual(['g-disc-2', 'g-disc-1']);
    expect(campaign.requests).toHaveLength(1);
  });

  it('disables a game\'s webhook on 410 by itself: that game does not fall back to the all-games one, and the notice names the game', async () => {
    let gone = true;
    const campaign = await receiver(() => (gone ? { status: 410 } : { status: 204 }));
    const everywhere = await receiver();
    const email = `${uid('gone')}@players.test`;
    const p = await player(prisma, { email });
    const all = await h.endpoints.addWebhook(p, everywhere.url);
    const one = await h.endpoints.addWebhook(p, campaign.url, 'g-gone');
    await h.enqueue([intent({ playerId: p, gameId: 'g-gone', version: 1 })]);
    await h.worker.drain();

    const endpoints = await h.endpoints.listEndpoints(p);
    expect(endpoints.map((e) => [e.id, e.enabled, e.disabledReason])).toEqual([[all.endpoint.id, true, null], [one.endpoint.id, false, 'HTTP 410']]);
    // The notice goes to the player's all-games channels, saying which game's webhook it was.
    expect(payloads(everywhere)).toEqual([{ type: 'fieldpost.channel_disabled', timestamp: expect.any(String), data: expect.objectContaining({ channel: 'webhook', reason: 'HTTP 410', game: { id: 'g-gone', title: 'Gators at the Bridge' } }) }]);
    const notice = smtp.mails.find((m) => m.envelopeTo.includes(email) && m.mail.subject === '[Fieldpost] Your webhook notifications were turned off');
    expect(notice?.mail.text).toMatch(/stopped sending your webhook notifications for Gators at the Bridge to http:\/\/127\.0\.0\.1:\d+\/…: HTTP 410\./);

    // While it is off, that game's webhook notifications go nowhere; other games' go on as before.
    await h.enqueue([intent({ playerId: p, gameId: 'g-gone', version: 2 }), intent({ playerId: p, gameId: 'g-still', version: 1 })]);
    await h.worker.drain();
    expect(campaign.requests).toHaveLength(1);
    expect(payloads(everywhere).map((x) => [x.type, x.data.gameId])).toEqual([['fieldpost.channel_disabled', undefined], ['fieldpost.your_turn', 'g-still']]);

    // Turned back on, it gets its game again, signed with its own secret.
    gone = false;
    await h.endpoints.enableEndpoint(p, one.endpoint.id);
    await h.enqueue([intent({ playerId: p, gameId: 'g-gone', version: 3 })]);
    await h.worker.drain();
    expect(campaign.requests).toHaveLength(2);
    expect(verifyStandardWebhook(one.secret, campaign.requests[1]!.headers, campaign.requests[1]!.body)).toBe(true);
    expect(everywhere.requests).toHaveLength(2);
  });

  it.each([404, 401])('disables a game\'s Discord webhook that answers %i, leaving the all-games one in use', async (status) => {
    const general = await receiver(undefined, true);
    const campaign = await receiver(() => ({ status, body: '{"message": "Unknown Webhook", "code": 10015}' }), true);
    const p = await player(prisma);
    const all = await h.endpoints.setDiscordWebhook(p, discordUrl(general, 1));
    const one = await h.endpoints.setDiscordWebhook(p, discordUrl(campaign, 2), `g-d${status}`);
    await h.enqueue([intent({ playerId: p, gameId: `g-d${status}`, version: 1 }), intent({ playerId: p, gameId: 'g-other', version: 1 })]);
    await h.worker.drain();

    expect((await h.endpoints.listEndpoints(p)).map((e) => [e.id, e.enabled, e.disabledReason])).toEqual([[all!.id, true, null], [one!.id, false, `HTTP ${status}`]]);
    expect(campaign.requests).toHaveLength(1);
    // The all-games channel gets the other game and the notice about the game's channel.
    const posts = general.requests.map((q) => (JSON.parse(q.body) as { embeds: Array<{ title: string; description: string }> }).embeds[0]!);
    expect(posts.map((e) => e.title).sort()).toEqual(['Gators at the Bridge: turn 2, P1 Movement — your turn', 'Your discord notifications were turned off']);
    expect(posts.find((e) => e.title.startsWith('Your'))!.description).toContain('your discord notifications for Gators at the Bridge');
  });

  it('rotates a game\'s webhook secret on its own', async () => {
    const campaign = await receiver();
    const everywhere = await receiver();
    const p = await player(prisma);
    const all = await h.endpoints.addWebhook(p, everywhere.url);
    const first = await h.endpoints.addWebhook(p, campaign.url, 'g-rot');
    const second = await h.endpoints.rotateWebhookSecret(p, first.endpoint.id);
    expect(second.endpoint).toMatchObject({ id: first.endpoint.id, gameId: 'g-rot', previousSecretValidUntil: expect.any(Date) });
    expect((await h.endpoints.listEndpoints(p)).find((e) => e.id === all.endpoint.id)?.previousSecretValidUntil).toBeNull();

    await h.enqueue([intent({ playerId: p, gameId: 'g-rot', version: 1 }), intent({ playerId: p, gameId: 'g-plain', version: 1 })]);
    await h.worker.drain();
    const scoped = campaign.requests[0]!;
    expect(String(scoped.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect([verifyStandardWebhook(first.secret, scoped.headers, scoped.body), verifyStandardWebhook(second.secret, scoped.headers, scoped.body)]).toEqual([true, true]);
    const plain = everywhere.requests[0]!;
    expect(String(plain.headers['webhook-signature']).split(' ')).toHaveLength(1);
    expect(verifyStandardWebhook(all.secret, plain.headers, plain.body)).toBe(true);
  });

  it('checks scoped URLs like any other, refuses a bad game id, and caps webhooks per scope', async () => {
    const strict = suite.other(notificationsConfig(db.url, { NOTIFY_ALLOW_PRIVATE_TARGETS: 'false' }));
    const p = await player(prisma);
    const code = (e: unknown) => (e instanceof BadInputError ? e.code : e);
    await expect(strict.endpoints.addWebhook(p, 'http://127.0.0.1:9/hook', 'g-1').catch(code)).resolves.toBe('notifications/private_target');
    await expect(strict.endpoints.addWebhook(p, 'http://169.254.169.254/latest', 'g-1').catch(code)).resolves.toBe('notifications/private_target');
    await expect(strict.endpoints.setDiscordWebhook(p, 'https://example.com/api/webhooks/1/x', 'g-1').catch(code)).resolves.toBe('notifications/invalid_discord_url');
    await expect(h.endpoints.addWebhook(p, 'ftp://127.0.0.1/x', 'g-1').catch(code)).resolves.toBe('notifications/invalid_url');
    for (const bad of ['', 'g'.repeat(101)]) {
      await expect(h.endpoints.addWebhook(p, 'http://127.0.0.1:9/hook', bad).catch(code)).resolves.toBe('notifications/invalid_game');
      await expect(h.endpoints.setDiscordWebhook(p, 'http://127.0.0.1:9/api/webhooks/1/x', bad).catch(code)).resolves.toBe('notifications/invalid_game');
    }
    expect(await h.endpoints.listEndpoints(p)).toEqual([]);

    for (let i = 0; i < 5; i++) await h.endpoints.addWebhook(p, `http://127.0.0.1:9/hook/${i}`, 'g-cap');
    await expect(h.endpoints.addWebhook(p, 'http://127.0.0.1:9/hook/5', 'g-cap').catch(code)).resolves.toBe('notifications/too_many_webhooks');
    await h.endpoints.addWebhook(p, 'http://127.0.0.1:9/hook/all');
    await h.endpoints.addWebhook(p, 'http://127.0.0.1:9/hook/other', 'g-cap-2');
    expect((await h.endpoints.listEndpoints(p)).map((e) => e.gameId)).toEqual(['g-cap', 'g-cap', 'g-cap', 'g-cap', 'g-cap', null, 'g-cap-2']);

    // At most 100 endpoints in all, however they are scoped.
    await prisma.notificationEndpoint.createMany({ data: Array.from({ length: 93 }, (_, i) => ({ id: uid('ep'), playerId: p, kind: 'discord', url: 'http://127.0.0.1:9/api/webhooks/1/x', gameId: `g-many-${i}` })) });
    await expect(h.endpoints.addWebhook(p, 'http://127.0.0.1:9/hook/101', 'g-new').catch(code)).resolves.toBe('notifications/too_many_endpoints');
    await expect(h.endpoints.setDiscordWebhook(p, 'http://127.0.0.1:9/api/webhooks/2/y', 'g-new').catch(code)).resolves.toBe('notifications/too_many_endpoints');
    // Replacing a scope's Discord webhook adds nothing, so it is still allowed.
    expect(await h.endpoints.setDiscordWebhook(p, 'http://127.0.0.1:9/api/webhooks/2/y', 'g-many-0')).toMatchObject({ gameId: 'g-many-0' });
  });
});
