import { randomUUID } from 'node:crypto';
import { Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import { APP_CONFIG } from '../config/config.module';
import type { AppConfig } from '../config/config.schema';
import { UnavailableError } from '../common/errors';
import { logger } from '../logging/logger';
import { EmailChannel } from '../notifications/channels/email.channel';
import { escapeHtml } from '../notifications/templates/text';

export interface MagicLinkMail {
  to: string;
  displayName: string;
  token: string;
  ttlMinutes: number;
}

/**
 * Sends sign-in links through the notifications module's SMTP adapter (same SMTP_* settings),
 * directly rather than through the outbox: a sign-in link is wanted now, once, and must not
 * wait behind quiet hours or a digest.
 */
@Injectable()
export class MagicLinkMailer implements OnModuleDestroy {
  private readonly channel: EmailChannel;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {
    this.channel = new EmailChannel(config.notifications);
  }

  get available(): boolean {
    return this.channel.available;
  }

  async send(mail: MagicLinkMail): Promise<void> {
    const page = `${this.config.publicUrl}/api/v1/auth/magic-link#token=${mail.token}`;
    const redeem = `${this.config.publicUrl}/api/v1/auth/magic-links/redeem`;
    const minutes = mail.ttlMinutes;
    const id = randomUUID();
    const text = [
      `Hello ${mail.displayName},`,
      '',
      `Open this link to sign in to Fieldpost (it works once, for ${minutes} minutes):`,
      page,
      '',
      'Or exchange the code for an API token yourself:',
      `curl -X POST ${redeem} -H 'Content-Type: application/json' -d '{"token":"${mail.token}"}'`,
      '',
      'If you did not ask for this, ignore this mail.',
    ].join('\n');
    const html = `<p>Hello ${escapeHtml(mail.displayName)},</p><p><a href="${escapeHtml(page)}">Sign in to Fieldpost</a> (the link works once, for ${minutes} minutes).</p><p>Sign-in code: <code>${escapeHtml(mail.token)}</code></p><p>If you did not ask for this, ignore this mail.</p>`;
    const outcome = await this.channel.send(
      { id, channel: 'email', endpoint: null },
      { channel: 'email', email: { to: mail.to, subject: 'Your Fieldpost sign-in link', text, html, messageId: `<signin.${id}@fieldpost>`, headers: { 'Auto-Submitted': 'auto-generated' } } },
    );
    if (outcome.kind !== 'delivered') {
      logger().warn({ component: 'auth', outcome: outcome.kind, error: outcome.error }, 'sign-in mail not sent');
      // The mail server's trouble, not the client's and not a failure of this server.
      throw new UnavailableError('auth/mail_not_sent', 'The sign-in mail could not be sent just now; nothing was kept. Try again in a minute.', { retryAfterSeconds: 60 });
    }
  }

  onModuleDestroy(): void {
    this.channel.close();
  }
}
