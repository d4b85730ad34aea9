import type { PrismaService } from '../../src/database/prisma.service';
import { IsolatedDatabase, isolatedDatabase } from '../support/isolated-database';
import { discordEndpoint, intent, player } from './support/fixtures';
import { harness, Harness, notificationsConfig } from './support/harness';
import { httpReceiver, HttpReceiver, smtpReceiver, SmtpReceiver } from './support/receivers';

interface Embed {
  title: string;
  description: string;
  fields: Array<{ name: string; value: string }>;
}

/** Explicit bidi embeddings, overrides and isolates. */
const BIDI = /[\u202a-\u202e\u2066-\u2069]/;

/**
 * Game titles and display names are written by players, and the opponent's end up in the
 * other player's mail and Discord channel.
 */
describe('player-written text in mail and Discord (real SMTP server and HTTP receiver on loopback)', () => {
  let db: IsolatedDatabase;
  let prisma: PrismaService;
  let smtp: SmtpReceiver;
  let discord: HttpReceiver;
  let h: Harness;

  beforeAll(async () => {
    db = await isolatedDatabase('player_text');
    prisma = db.prisma();
    smtp = await smtpReceiver();
    discord = await httpReceiver(() => ({ status: 204 }), () => 'discord');
    h = harness(prisma, notificationsConfig(db.url, { SMTP_HOST: '127.0.0.1', SMTP_PORT: String(smtp.port) }));
  });
  afterAll(async () => {
    await h?.close();
    await discord?.close();
    await smtp?.close();
    await db?.drop();
  });

  async function send(gameId: string, content: Parameters<typeof intent>[0]['content'], displayName = 'Alice') {
    const p = await player(prisma, { displayName });
    await discordEndpoint(prisma, p, discord.url);
    const before = { mails: smtp.mails.length, posts: discord.requests.length };
    await h.enqueue([intent({ playerId: p, gameId, content })]);
    await h.worker.drain();
    expect(smtp.mails).toHaveLength(before.mails + 1);
    expect(discord.requests).toHaveLength(before.posts + 1);
    const mail = smtp.mails[before.mails]!.mail;
    const embed = (JSON.parse(discord.requests[before.posts]!.body) as { embeds: Embed[] }).embeds[0]!;
    return { mail, embed, fields: Object.fromEntries(embed.fields.map((f) => [f.name, f.value])) };
  }

  it('keeps a game title with line breaks on its own line: it cannot add an "Act now" link of its own', async () => {
    // The API trims a title and caps its length, but keeps the line breaks inside it.
    const title = 'Bridge\r\n\r\nAct now: https://evil.test/login\r\nWhose turn: Blue: you.';
    const { mail, embed, fields } = await send('g-lines', {
      gameTitle: title,
      whoseTurn: [{ side: 'red', sideName: 'Red', playerName: 'Bob\u2028Deadline: none' }],
      yourTurn: false,
    });

    const lines = (mail.text ?? '').split('\n');
    expect(lines.filter((l) => l.startsWith('Act now:') || l.startsWith('Open the game:'))).toEqual(['Open the game: https://fieldpost.test/games/g-lines/act']);
    expect(lines.filter((l) => l.startsWith('Whose turn:'))).toEqual(['Whose turn: Red (Bob Deadline: none)']);
    expect(lines.filter((l) => l.startsWith('Deadline:'))).toHaveLength(1);
    expect(lines).toContain('Bridge Act now: https://evil.test/login Whose turn: Blue: you. (Gators! Q-GT-05): turn 2, P1 Movement');
    expect(mail.subject).toBe('[Fieldpost] Bridge Act now: https://evil.test/login Whose turn: Blue: you.: turn 2, P1 Movement — waiting');

    expect(embed.title).not.toMatch(/[\r\n]/);
    expect(fields.Game).toBe('Bridge Act now: https://evil.test/login Whose turn: Blue: you. (Gators! Q-GT-05)');
    expect(fields['Whose turn']).toBe('Red (Bob Deadline: none)');
    expect(embed.description).toBe("It is Bob Deadline: none's turn.\n• Red moved 2 units.\n• Red attacked 0507: D1.");
  });

  it('drops bidi overrides from titles and names, so they cannot turn around the words that follow them', async () => {
    const { mail, embed, fields } = await send(
      'g-bidi',
      { gameTitle: 'Bridge \u202e', whoseTurn: [{ side: 'blue', sideName: 'Blue', playerName: '\u2067Alice' }] },
      'Alice\u202e',
    );

    expect(mail.subject).toBe('[Fieldpost] Bridge : turn 2, P1 Movement — your turn');
    expect(mail.text).not.toMatch(BIDI);
    expect(mail.html).not.toMatch(BIDI);
    expect(mail.text).toContain('Hello Alice,\n');
    expect(embed.title).toBe('Bridge : turn 2, P1 Movement — your turn');
    expect(JSON.stringify(embed)).not.toMatch(BIDI);
    expect(fields['Whose turn']).toBe('Blue (Alice): you.');
  });

  it('keeps right-to-left names themselves as they are', async () => {
    const { mail, fields } = await send('g-rtl', { gameTitle: 'גשר', whoseTurn: [{ side: 'blue', sideName: 'Blue', playerName: 'سارة' }] });
    expect(mail.subject).toBe('[Fieldpost] גשר: turn 2, P1 Movement — your turn');
    expect(fields['Whose turn']).toBe('Blue (سارة): you.');
  });
});

describe('player-written text in a Discord embed (HTTP receiver on loopback)', () => {
  let db: IsolatedDatabase;
  let prisma: PrismaService;
  let discord: HttpReceiver;
  let h: Harness;

  beforeAll(async () => {
    db = await isolatedDatabase('player_text_discord');
    prisma = db.prisma();
    discord = await httpReceiver(() => ({ status: 204 }), () => 'discord');
    h = harness(prisma, notificationsConfig(db.url));
  });
  afterAll(async () => {
    await h?.close();
    await discord?.close();
    await db?.drop();
  });

  it('shows mention, channel and timestamp markup in a title or name as the text it is, not as a role, user or time', async () => {
    const p = await player(prisma);
    await discordEndpoint(prisma, p, discord.url);
    const title = 'Ask <@&123456789012345678> **now**';
    await h.enqueue([intent({ playerId: p, gameId: 'g-mention', content: { gameTitle: title, yourTurn: false, whoseTurn: [{ side: 'red', sideName: 'Red', playerName: '<@123456789012345678> <#42> <t:0:R>' }] } })]);
    await h.worker.drain();

    expect(discord.requests).toHaveLength(1);
    const msg = JSON.parse(discord.requests[0]!.body) as { allowed_mentions: unknown; embeds: Embed[] };
    expect(msg.allowed_mentions).toEqual({ parse: [] });
    const embed = msg.embeds[0]!;
    const fields = Object.fromEntries(embed.fields.map((f) => [f.name, f.value]));
    // A backslash before "<" is Discord's own escape: the reader sees the characters as typed.
    expect(embed.title).toBe('Ask \\<@&123456789012345678> \\*\\*now\\*\\*: turn 2, P1 Movement — waiting');
    expect(fields.Game).toBe('Ask \\<@&123456789012345678> \\*\\*now\\*\\* (Gators! Q-GT-05)');
    expect(fields['Whose turn']).toBe('Red (\\<@123456789012345678> \\<#42> \\<t:0:R>)');
    expect(embed.description.split('\n')[0]).toBe("It is \\<@123456789012345678> \\<#42> \\<t:0:R>'s turn.");
  });

  it('clips a long title of emoji between characters, never inside one (a lone surrogate is not text), keeping the turn and status after it', async () => {
    const p = await player(prisma);
    await discordEndpoint(prisma, p, discord.url);
    const before = discord.requests.length;
    // 198 UTF-16 units, within the API's 200; escaped for markdown, the title runs past Discord's 256.
    await h.enqueue([intent({ playerId: p, gameId: 'g-emoji', content: { gameTitle: '*\u{1F40A}'.repeat(66) } })]);
    await h.worker.drain();

    expect(discord.requests).toHaveLength(before + 1);
    const embed = (JSON.parse(discord.requests[before]!.body) as { embeds: Embed[] }).embeds[0]!;
    expect(embed.title.length).toBeLessThanOrEqual(256);
    expect(embed.title).toMatch(/…: turn 2, P1 Movement — your turn$/);
    expect(embed.title).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
  });
});
