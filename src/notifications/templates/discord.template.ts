import type { Renderable } from './renderable';
import { disabledChannel, forReaders, headline, PAUSED, safeLink, status, whoseTurnLine } from './text';

/** Discord's limits on an embed (discord.com/developers/docs/resources/message#embed-object-embed-limits). */
const TITLE = 256;
const DESCRIPTION = 4096;
const FIELD = 1024;

/** Cuts between characters: half of a surrogate pair (an emoji) left at the end is not text. */
const clip = (text: string, max: number) => (text.length <= max ? text : text.slice(0, max - 1).replace(/[\uD800-\uDBFF]$/, '') + '…');
/**
 * Game titles and lines are player-written: keep them from turning into markdown, or into the
 * pill of a user, role or channel, or a time (`<@id>`, `<@&id>`, `<#id>`, `<t:…>`), which
 * would pass for Discord's own. allowed_mentions already stops the pings.
 */
const plain = (text: string) =>
  text
    .replace(/([\\*_~`|[\]])/g, '\\$1')
    .replace(/<(?=[@#/:]|a:|t:|id:)/g, '\\<')
    .replace(/^([>#-])/gm, '\\$1');

/** A Discord webhook message: one embed with the game, turn, phase, whose turn, deadline, link. */
export function renderDiscord(notification: Renderable): string {
  const n = forReaders(notification);
  let embed: Record<string, unknown>;
  switch (n.kind) {
    case 'channel_disabled':
      embed = {
        title: `Your ${n.content.channel} notifications were turned off`,
        description: clip(plain(`Fieldpost stopped sending ${disabledChannel(n.content)} to ${n.content.target}: ${n.content.reason}.`), DESCRIPTION),
        timestamp: n.content.disabledAt,
      };
      break;
    case 'digest':
      embed = { title: `Fieldpost digest for ${n.day}`, description: `${n.items.length} updates` };
      break;
    default: {
      const c = n.content;
      const deadline = c.deadlineAt ? Math.floor(new Date(c.deadlineAt).getTime() / 1000) : null;
      const link = safeLink(c.links.act) ?? safeLink(c.links.game);
      // A long title gives way, not the turn and "your turn" after it.
      const tail = `: turn ${c.turn}, ${plain(c.phase)} — ${status(n.kind, c)}`;
      embed = {
        title: clip(clip(plain(c.gameTitle), Math.max(TITLE - tail.length, 1)) + tail, TITLE),
        ...(link ? { url: link } : {}),
        description: clip([plain(headline(n.kind, c)), ...c.happened.map((l) => `• ${plain(l)}`)].join('\n'), DESCRIPTION),
        color: c.yourTurn ? 0x2e8b57 : 0x808080,
        fields: [
          { name: 'Game', value: clip(plain(`${c.gameTitle} (${c.scenarioName})`), FIELD), inline: false },
          { name: 'Turn', value: String(c.turn), inline: true },
          { name: 'Phase', value: clip(plain(c.phase), FIELD), inline: true },
          { name: 'Whose turn', value: clip(plain(whoseTurnLine(c)), FIELD), inline: false },
          // Discord shows <t:...> in each reader's own time zone.
          { name: 'Deadline', value: deadline !== null && Number.isFinite(deadline) ? `<t:${deadline}:F> (<t:${deadline}:R>)` : c.deadlinePaused ? PAUSED : 'none', inline: false },
          ...(link ? [{ name: 'Link', value: link, inline: false }] : []),
        ],
        timestamp: n.createdAt,
        footer: { text: `Fieldpost · ${n.notificationId}`.slice(0, 2048) },
      };
    }
  }
  // No @everyone, role or user pings from text a player wrote.
  return JSON.stringify({ username: 'Fieldpost', allowed_mentions: { parse: [] }, embeds: [embed] });
}
