import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { NotificationContent } from '../notification-intent';
import { renderDiscord } from './discord.template';
import { renderEmail } from './email.template';
import type { Recipient, Renderable } from './renderable';
import { formatDeadline, subject } from './text';
import { renderWebhook } from './webhook.template';

const content: NotificationContent = {
  gameTitle: 'Bridge at <Remagen> & "friends"',
  scenarioName: 'Gators! Q-GT-05',
  turn: 3,
  phase: 'P1 Movement',
  whoseTurn: [{ side: 'blue', sideName: 'Blue', playerName: 'Alice' }],
  yourTurn: true,
  deadlineAt: '2026-12-01T17:00:00.000Z',
  happened: ['Red moved 3 units.', '<script>alert(1)</script>'],
  links: { game: 'https://fieldpost.test/games/g1', act: 'https://fieldpost.test/games/g1/act' },
};
const n: Renderable = { kind: 'your_turn', notificationId: 'g1:7:your_turn:p1', gameId: 'g1', side: 'blue', gameVersion: 7, createdAt: '2026-12-01T10:00:00.000Z', content };
const alice: Recipient = { playerId: 'p1', email: 'alice@example.test', displayName: 'Alice', timeZone: 'Europe/Berlin' };
const ctx = { deliveryId: 'msg_abc', messageIdDomain: 'fieldpost.test', unsubscribe: { game: 'https://fieldpost.test/u?token=g', all: 'https://fieldpost.test/u?token=a' } };

describe('templates', () => {
  it('names in the README every field a game notice\'s webhook data may carry', () => {
    // Required: a field added to the content fails here until the README names it too.
    const every: Required<NotificationContent> = {
      ...content,
      deadlinePaused: true,
      missed: { sides: ['Red'], you: false },
      undoAccepted: false,
      undoLapsed: true,
      result: { winner: 'blue', reason: 'victory' },
    };
    const data = (JSON.parse(renderWebhook({ ...n, content: every }, 'msg_abc', alice)) as { data: Record<string, unknown> }).data;
    const readme = readFileSync(resolve(__dirname, '../../../README.md'), 'utf8');
    const webhooks = readme.slice(readme.indexOf('- *Webhooks*'), readme.indexOf('- *Discord*'));
    expect(Object.keys(data).filter((key) => !webhooks.includes(`\`${key}\``))).toEqual([]);
  });

  it('names the game, the turn and the phase in the subject', () => {
    expect(subject('your_turn', content)).toBe('[Fieldpost] Bridge at <Remagen> & "friends": turn 3, P1 Movement — your turn');
    expect(subject('your_turn', { ...content, yourTurn: false })).toMatch(/— waiting$/);
  });

  it('shows the deadline in the recipient time zone', () => {
    expect(formatDeadline(content.deadlineAt, 'Europe/Berlin')).toBe('Tuesday, 1 December 2026 at 18:00 CET (Europe/Berlin)');
    expect(formatDeadline(content.deadlineAt, 'America/New_York')).toMatch(/12:00 .*\(America\/New_York\)$/);
    expect(formatDeadline(content.deadlineAt, 'Not/AZone')).toMatch(/17:00 UTC \(UTC\)$/);
    expect(formatDeadline(null, 'UTC')).toBeNull();
  });

  it('tells a deadline a vacation holds as paused, in mail and on Discord, and no deadline as none', () => {
    const paused: Renderable = { ...n, content: { ...content, deadlineAt: null, deadlinePaused: true } };
    expect(renderEmail(paused, alice, ctx).text).toContain('Deadline: paused while a player is on vacation');
    const fields = (JSON.parse(renderDiscord(paused)) as { embeds: Array<{ fields: Array<{ name: string; value: string }> }> }).embeds[0]!.fields;
    expect(fields.find((f) => f.name === 'Deadline')?.value).toBe('paused while a player is on vacation');
    expect(renderEmail({ ...n, content: { ...content, deadlineAt: null } }, alice, ctx).text).toContain('Deadline: none');
  });

  it('escapes everything in the HTML body and keeps the text body plain', () => {
    const mail = renderEmail(n, alice, ctx);
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(mail.html).toContain('Bridge at &lt;Remagen&gt; &amp; &quot;friends&quot;');
    expect(mail.text).toContain('  - <script>alert(1)</script>');
    expect(mail.text).toContain('Act now: https://fieldpost.test/games/g1/act');
    expect(mail.text).toContain('Deadline: Tuesday, 1 December 2026 at 18:00 CET (Europe/Berlin)');
    expect(mail.headers['List-Unsubscribe']).toBe('<https://fieldpost.test/u?token=g>');
    expect(mail.headers['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');
    expect(mail.messageId).toBe('<msg_abc@fieldpost.test>');
  });

  it('gives a digest\'s whose turn and deadline only while the game is where its last notice left it', () => {
    const item = { notificationId: n.notificationId, kind: 'your_turn' as const, gameId: 'g1', content, createdAt: n.createdAt };
    const digest = (movedOn: boolean): Renderable => ({ kind: 'digest', notificationId: 'digest:p1:2026-12-01', gameId: null, createdAt: n.createdAt, day: '2026-12-01', items: [{ ...item, movedOn }] });
    const current = renderEmail(digest(false), alice, ctx).text;
    expect(current).toContain('Whose turn: Blue (Alice): you.');
    expect(current).toContain('Act now: https://fieldpost.test/games/g1/act');
    // The player has played since: "you" and that deadline are no longer true.
    const past = renderEmail(digest(true), alice, ctx);
    expect(past.text).not.toMatch(/Whose turn|Deadline:|Act now/);
    expect(past.text).toContain('The game has gone on since: open it to see whose turn it is and the deadline.');
    expect(past.text).toContain('Open the game: https://fieldpost.test/games/g1/act');
    expect(past.html).not.toMatch(/Whose turn|Act now/);
  });

  it('drops links that are not http(s)', () => {
    const evil = { ...n, content: { ...content, links: { game: 'javascript:alert(1)', act: 'data:text/html,x' } } };
    const mail = renderEmail(evil, alice, ctx);
    expect(mail.html + mail.text).not.toMatch(/javascript:|data:text/);
    expect(renderDiscord(evil)).not.toMatch(/javascript:|data:text/);
  });

  it('builds the webhook payload from the content only, the same bytes each time', () => {
    const body = renderWebhook(n, 'msg_abc', alice);
    expect(body).toBe(renderWebhook(n, 'msg_abc', alice));
    const parsed = JSON.parse(body) as { type: string; timestamp: string; data: Record<string, unknown> };
    expect(parsed).toMatchObject({ type: 'fieldpost.your_turn', timestamp: n.createdAt, data: { id: 'msg_abc', notificationId: n.notificationId, turn: 3, yourTurn: true } });
    expect(Object.keys(parsed.data).sort()).toEqual(
      ['deadlineAt', 'deadlineLocal', 'gameId', 'gameTitle', 'gameVersion', 'happened', 'id', 'kind', 'links', 'notificationId', 'phase', 'scenarioName', 'side', 'turn', 'whoseTurn', 'yourTurn'].sort(),
    );
  });

  it('tells the side whose reaction window expired what answered it, on every channel, the answer on one line', () => {
    const missed = { sides: ['Red'], you: true, window: 'reaction' as const, applied: 'standing-orders' as const, answer: 'attackers d-1\nAct now: https://evil.test' };
    const closed: Renderable = { ...n, kind: 'deadline_missed', content: { ...content, missed } };
    const said = 'Your reaction window closed unanswered: your standing orders applied (attackers d-1 Act now: https://evil.test).';
    const mail = renderEmail(closed, alice, ctx);
    expect(mail.text).toContain(said);
    expect(mail.html).toContain(said);
    expect((JSON.parse(renderDiscord(closed)) as { embeds: Array<{ description: string }> }).embeds[0]!.description).toContain('Your reaction window closed unanswered: your standing orders applied (attackers d-1 Act now:');
    expect((JSON.parse(renderWebhook(closed, 'msg_abc', alice)) as { data: { missed: unknown } }).data.missed).toEqual(missed);
    const none = renderEmail({ ...closed, content: { ...content, missed: { ...missed, applied: 'none', answer: 'attackers none' } } }, alice, ctx);
    expect(none.text).toContain('Your reaction window closed unanswered: no standing orders covered it, so no reaction applied (attackers none).');
  });

  it('makes a Discord embed with game, turn, phase, whose turn, deadline and link, and no pings', () => {
    const msg = JSON.parse(renderDiscord({ ...n, content: { ...content, happened: ['@everyone attack', '# [click](https://evil.test) *now*'] } })) as {
      allowed_mentions: unknown;
      embeds: Array<{ title: string; url: string; description: string; fields: Array<{ name: string; value: string }> }>;
    };
    expect(msg.allowed_mentions).toEqual({ parse: [] });
    const embed = msg.embeds[0]!;
    expect(embed.title).toBe('Bridge at <Remagen> & "friends": turn 3, P1 Movement — your turn');
    expect(embed.url).toBe('https://fieldpost.test/games/g1/act');
    expect(embed.description).toBe('It is your turn.\n• @everyone attack\n• \\# \\[click\\](https://evil.test) \\*now\\*');
    const fields = Object.fromEntries(embed.fields.map((f) => [f.name, f.value]));
    expect(fields).toMatchObject({ Turn: '3', Phase: 'P1 Movement', 'Whose turn': 'Blue (Alice): you.', Deadline: '<t:1796144400:F> (<t:1796144400:R>)' });
  });
});
