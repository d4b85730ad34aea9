import { BadInputError } from '../../src/common/errors';
import type { PrismaService } from '../../src/database/prisma.service';
import { IsolatedDatabase, isolatedDatabase } from '../support/isolated-database';
import { discordEndpoint, intent, player, statuses, webhookEndpoint } from './support/fixtures';
import { harness, Harness, notificationsConfig } from './support/harness';
import { eventually, httpReceiver, HttpReceiver, Reply, ReceivedRequest, smtpReceiver, SmtpReceiver } from './support/receivers';

interface Embed {
  title: string;
  url: string;
  description: string;
  fields: Array<{ name: string; value: string }>;
}

describe('Discord (a loopback receiver standing in for discord.com)', () => {
  let db: IsolatedDatabase;
  let prisma: PrismaService;
  let smtp: SmtpReceiver;
  let h: Harness;
  const receivers: HttpReceiver[] = [];
  /** Discord posts carry no webhook-id: this receiver dedupes on the notification id in the footer. */
  const footer = (_h: unknown, body: string) => (JSON.parse(body) as { embeds: Array<{ footer?: { text: string } }> }).embeds[0]?.footer?.text ?? body;
  const receiver = async (reply?: (req: ReceivedRequest, seen: number) => Reply, discord = true) => {
    const r = await httpReceiver(reply, discord ? footer : undefined);
    receivers.push(r);
    return r;
  };

  beforeAll(async () => {
    db = await isolatedDatabase('discord');
    prisma = db.prisma();
    smtp = await smtpReceiver();
    h = harness(prisma, notificationsConfig(db.url, { SMTP_HOST: '127.0.0.1', SMTP_PORT: String(smtp.port) }));
  });
  afterEach(async () => {
    await h.worker.stop();
  });
  afterAll(async () => {
    await h?.close();
    for (const r of receivers) await r.close();
    await smtp?.close();
    await db?.drop();
  });

  it('posts one embed with the game, turn, phase, whose turn, the deadline and a link', async () => {
    const r = await receiver();
    const p = await player(prisma);
    await discordEndpoint(prisma, p, r.url);
    await h.enqueue([intent({ playerId: p, gameId: 'g-disc', content: { yourTurn: false, whoseTurn: [{ side: 'red', sideName: 'Red', playerName: 'Bob' }] } })]);
    await h.worker.drain();

    expect(r.requests).toHaveLength(1);
    const msg = JSON.parse(r.requests[0]!.body) as { username: string; allowed_mentions: unknown; embeds: Embed[] };
    expect(msg.username).toBe('Fieldpost');
    expect(msg.allowed_mentions).toEqual({ parse: [] });
    expect(msg.embeds).toHaveLength(1);
    const e = msg.embeds[0]!;
    expect(e.title).toBe('Gators at the Bridge: turn 2, P1 Movement — waiting');
    expect(e.url).toBe('https://fieldpost.test/games/g-disc/act');
    expect(e.description).toBe("It is Bob's turn.\n• Red moved 2 units.\n• Red attacked 0507: D1.");
    expect(Object.fromEntries(e.fields.map((f) => [f.name, f.value]))).toEqual({
      Game: 'Gators at the Bridge (Gators! Q-GT-05)',
      Turn: '2',
      Phase: 'P1 Movement',
      'Whose turn': 'Red (Bob)',
      Deadline: '<t:1796403600:F> (<t:1796403600:R>)',
      Link: 'https://fieldpost.test/games/g-disc/act',
    });
  });

  it('honours 429 Retry-After (header or JSON body) and still posts each message once', async () => {
    const r = await receiver((req, seen): Reply => {
      if (seen > 0) return { status: 204 };
      return req.body.includes('turn 1,')
        ? { status: 429, headers: { 'Retry-After': '1' } }
        : { status: 429, headers: { 'content-type': 'application/json' }, body: '{"message":"You are being rate limited.","retry_after":0.6,"global":false}' };
    });
    const p = await player(prisma);
    await discordEndpoint(prisma, p, r.url);
    await h.enqueue([intent({ playerId: p, gameId: 'g-rl', version: 1, content: { turn: 1 } })]);
    h.worker.start();
    await eventually(async () => (await statuses(prisma, p, 'discord')).delivered === 1, 10_000, 'the Discord post');
    expect(r.requests).toHaveLength(2);
    expect(r.requests[1]!.at - r.requests[0]!.at).toBeGreaterThanOrEqual(950);
    await h.worker.stop();

    const before = r.requests.length;
    await h.enqueue([intent({ playerId: p, gameId: 'g-rl', version: 2, content: { turn: 2 } })]);
    h.worker.start();
    await eventually(async () => (await statuses(prisma, p, 'discord')).delivered === 2, 10_000, 'the second post');
    const mine = r.requests.slice(before);
    expect(mine).toHaveLength(2);
    expect(mine[1]!.at - mine[0]!.at).toBeGreaterThanOrEqual(550);
    expect(r.distinct().size).toBe(2);
  });

  it.each([404, 401])('stops using a Discord webhook that answers %i and tells its owner by mail and webhook', async (status) => {
    const discord = await receiver(() => ({ status, body: '{"message": "Unknown Webhook", "code": 10015}' }));
    const hook = await receiver(undefined, false);
    const email = `discord-${status}@players.test`;
    const p = await player(prisma, { email });
    const id = await discordEndpoint(prisma, p, discord.url.replace('/hook', '/api/webhooks/123/secret-token'));
    await webhookEndpoint(prisma, p, hook.url);
    await h.enqueue([intent({ playerId: p, gameId: `g-d${status}`, version: 1 })]);
    await h.worker.drain();

    expect(await prisma.notificationEndpoint.findUniqueOrThrow({ where: { id } })).toMatchObject({ enabled: false, disabledReason: `HTTP ${status}` });
    const notice = smtp.mails.find((m) => m.envelopeTo.includes(email) && m.mail.subject === '[Fieldpost] Your discord notifications were turned off');
    expect(notice).toBeDefined();
    // The notice names the target without the webhook token.
    expect(notice!.mail.text).toMatch(/to http:\/\/127\.0\.0\.1:\d+\/api\/webhooks\/123\/…: HTTP \d+\./);
    expect(notice!.mail.text).not.toContain('secret-token');
    expect(hook.requests.map((q) => JSON.parse(q.body).type).sort()).toEqual(['fieldpost.channel_disabled', 'fieldpost.your_turn']);

    await h.enqueue([intent({ playerId: p, gameId: `g-d${status}`, version: 2 })]);
    await h.worker.drain();
    expect(discord.requests).toHaveLength(1);
  });

  it('takes only discord.com webhook URLs unless private targets are allowed', async () => {
    const strict = harness(prisma, notificationsConfig(db.url, { NOTIFY_ALLOW_PRIVATE_TARGETS: 'false' }));
    const p = await player(prisma);
    await expect(strict.endpoints.setDiscordWebhook(p, 'https://example.com/api/webhooks/1/x')).rejects.toBeInstanceOf(BadInputError);
    await expect(strict.endpoints.setDiscordWebhook(p, 'http://127.0.0.1:9/api/webhooks/1/x')).rejects.toBeInstanceOf(BadInputError);
    const set = await h.endpoints.setDiscordWebhook(p, 'http://127.0.0.1:9/api/webhooks/1/x');
    expect(set).toMatchObject({ kind: 'discord', enabled: true });
    const replaced = await h.endpoints.setDiscordWebhook(p, 'http://127.0.0.1:9/api/webhooks/2/y');
    expect((await h.endpoints.listEndpoints(p)).map((e) => e.id)).toEqual([replaced!.id]);
    expect(await h.endpoints.setDiscordWebhook(p, null)).toBeNull();
    expect(await h.endpoints.listEndpoints(p)).toEqual([]);
    await strict.close();
  });
});
