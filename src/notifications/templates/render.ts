import type { ChannelName, Rendered } from '../channels/channel';
import { renderDiscord } from './discord.template';
import { EmailContext, renderEmail } from './email.template';
import type { Recipient, Renderable } from './renderable';
import { assertNever } from './renderable';
import { renderWebhook } from './webhook.template';

export function render(channel: ChannelName, n: Renderable, to: Recipient, email: EmailContext): Rendered {
  switch (channel) {
    case 'email':
      return { channel, email: renderEmail(n, to, email) };
    case 'webhook':
      return { channel, body: renderWebhook(n, email.deliveryId, to) };
    case 'discord':
      return { channel, body: renderDiscord(n) };
    default:
      return assertNever(channel);
  }
}
