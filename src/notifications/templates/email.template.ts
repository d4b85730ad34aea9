import type { NotificationContent, NotificationKind } from '../notification-intent';
import type { EmailMessage } from '../channels/channel';
import type { ChannelDisabledContent, DigestItem, Recipient, Renderable } from './renderable';
import { disabledChannel, escapeHtml as h, forReaders, deadlineText, formatDeadline, headline, inline, safeLink, subject, whoseTurnLine } from './text';

export interface EmailContext {
  deliveryId: string;
  /** Right-hand side of the Message-ID: the public host. */
  messageIdDomain: string;
  /** One-click unsubscribe URLs: from this game's mail (null outside a game) and from all mail. */
  unsubscribe: { game: string | null; all: string };
}

interface Body {
  subject: string;
  text: string[];
  html: string[];
}

/** Plain text and HTML from the same lines; every value from content is escaped in the HTML. */
export function renderEmail(notification: Renderable, recipient: Recipient, ctx: EmailContext): EmailMessage {
  const n = forReaders(notification);
  const to = { ...recipient, displayName: inline(recipient.displayName) };
  const body = bodyFor(n, to);
  const unsubscribe = ctx.unsubscribe.game ?? ctx.unsubscribe.all;
  const footerText = [
    '-- ',
    'You get this mail because you play on Fieldpost.',
    ...(ctx.unsubscribe.game ? [`Stop mail about this game: ${ctx.unsubscribe.game}`] : []),
    `Stop all mail from Fieldpost: ${ctx.unsubscribe.all}`,
  ];
  const footerHtml = [
    '<hr><p style="color:#666;font-size:12px">You get this mail because you play on Fieldpost.',
    ...(ctx.unsubscribe.game ? [`<a href="${h(ctx.unsubscribe.game)}">Stop mail about this game</a> ·`] : []),
    `<a href="${h(ctx.unsubscribe.all)}">Stop all mail from Fieldpost</a></p>`,
  ];
  return {
    to: to.email,
    subject: body.subject,
    text: [`Hello ${to.displayName},`, '', ...body.text, '', ...footerText].join('\n') + '\n',
    html: [
      '<!doctype html><html><body style="font-family:sans-serif;line-height:1.4">',
      `<p>Hello ${h(to.displayName)},</p>`,
      ...body.html,
      ...footerHtml,
      '</body></html>',
    ].join('\n'),
    messageId: `<${ctx.deliveryId}@${ctx.messageIdDomain}>`,
    headers: {
      'List-Unsubscribe': `<${unsubscribe}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
      'Auto-Submitted': 'auto-generated',
      'X-Fieldpost-Notification-Id': n.notificationId,
      ...(n.gameId ? { 'X-Fieldpost-Game-Id': n.gameId } : {}),
    },
  };
}

function bodyFor(n: Renderable, to: Recipient): Body {
  switch (n.kind) {
    case 'channel_disabled':
      return disabledBody(n.content, to);
    case 'digest':
      return digestBody(n.day, n.items, to);
    default:
      return turnBody(n.kind, n.content, to);
  }
}

function turnBody(kind: NotificationKind, c: NotificationContent, to: Recipient): Body {
  const deadline = deadlineText(c, to.timeZone);
  const act = safeLink(c.links.act);
  const game = safeLink(c.links.game);
  const text = [
    headline(kind, c),
    '',
    `${c.gameTitle} (${c.scenarioName}): turn ${c.turn}, ${c.phase}`,
    '',
    ...(c.happened.length > 0 ? ['What happened:', ...c.happened.map((l) => `  - ${l}`)] : ['Nothing new that your side can see.']),
    '',
    `Whose turn: ${whoseTurnLine(c)}`,
    `Deadline: ${deadline}`,
    ...(c.result ? [`Result: ${c.result.winner ?? 'draw'} (${c.result.reason})`] : []),
    '',
    ...(act ? [`${c.yourTurn ? 'Act now' : 'Open the game'}: ${act}`] : []),
    ...(game ? [`The game: ${game}`] : []),
  ];
  const html = [
    `<p><strong>${h(headline(kind, c))}</strong></p>`,
    `<p>${h(c.gameTitle)} (${h(c.scenarioName)}): turn ${c.turn}, ${h(c.phase)}</p>`,
    c.happened.length > 0
      ? `<p>What happened:</p><ul>${c.happened.map((l) => `<li>${h(l)}</li>`).join('')}</ul>`
      : '<p>Nothing new that your side can see.</p>',
    `<p>Whose turn: ${h(whoseTurnLine(c))}<br>Deadline: ${h(deadline)}</p>`,
    ...(c.result ? [`<p>Result: ${h(c.result.winner ?? 'draw')} (${h(c.result.reason)})</p>`] : []),
    `<p>${act ? `<a href="${h(act)}">${c.yourTurn ? 'Act now' : 'Open the game'}</a>` : ''}${act && game ? ' · ' : ''}${game ? `<a href="${h(game)}">The game</a>` : ''}</p>`,
  ];
  return { subject: subject(kind, c), text, html };
}

function disabledBody(c: ChannelDisabledContent, to: Recipient): Body {
  const when = formatDeadline(c.disabledAt, to.timeZone) ?? c.disabledAt;
  const line = `Fieldpost stopped sending ${disabledChannel(c)} to ${c.target}: ${c.reason}.`;
  const after = 'You still get notifications here. Turn that channel back on in your notification settings once it works again.';
  return {
    subject: `[Fieldpost] Your ${c.channel} notifications were turned off`,
    text: [line, `Since: ${when}`, '', after],
    html: [`<p>${h(line)}</p>`, `<p>Since: ${h(when)}</p>`, `<p>${h(after)}</p>`],
  };
}

const GONE_ON = 'The game has gone on since: open it to see whose turn it is and the deadline.';

function digestBody(day: string, items: DigestItem[], to: Recipient): Body {
  const byGame = new Map<string, DigestItem[]>();
  for (const item of items) byGame.set(item.gameId, [...(byGame.get(item.gameId) ?? []), item]);
  const text: string[] = [`Your Fieldpost digest for ${day}: ${items.length} update${items.length === 1 ? '' : 's'}.`];
  const html: string[] = [`<p>Your Fieldpost digest for ${h(day)}: ${items.length} update${items.length === 1 ? '' : 's'}.</p>`];
  for (const group of byGame.values()) {
    const last = group[group.length - 1]!;
    const latest = last.content;
    const deadline = deadlineText(latest, to.timeZone);
    const act = safeLink(latest.links.act);
    text.push('', `${latest.gameTitle}: turn ${latest.turn}, ${latest.phase}`);
    html.push(`<h3>${h(latest.gameTitle)}: turn ${latest.turn}, ${h(latest.phase)}</h3><ul>`);
    for (const item of group) {
      const c = item.content;
      text.push(`  * Turn ${c.turn}, ${c.phase}: ${headline(item.kind, c)}`, ...c.happened.map((l) => `      - ${l}`));
      html.push(`<li>Turn ${c.turn}, ${h(c.phase)}: ${h(headline(item.kind, c))}${c.happened.length ? `<ul>${c.happened.map((l) => `<li>${h(l)}</li>`).join('')}</ul>` : ''}</li>`);
    }
    // The day's last notice gave whose turn it was then; a game that has gone on since would be
    // told as it no longer is ("you", a deadline that is gone).
    if (last.movedOn) {
      text.push(`  ${GONE_ON}`, ...(act ? [`  Open the game: ${act}`] : []));
      html.push(`</ul><p>${h(GONE_ON)}</p>`);
      if (act) html.push(`<p><a href="${h(act)}">Open the game</a></p>`);
      continue;
    }
    text.push(`  Whose turn: ${whoseTurnLine(latest)}`, `  Deadline: ${deadline}`, ...(act ? [`  ${latest.yourTurn ? 'Act now' : 'Open the game'}: ${act}`] : []));
    html.push(`</ul><p>Whose turn: ${h(whoseTurnLine(latest))}<br>Deadline: ${h(deadline)}</p>`);
    if (act) html.push(`<p><a href="${h(act)}">${latest.yourTurn ? 'Act now' : 'Open the game'}</a></p>`);
  }
  return { subject: `[Fieldpost] Your daily digest for ${day}: ${items.length} update${items.length === 1 ? '' : 's'}`, text, html };
}
