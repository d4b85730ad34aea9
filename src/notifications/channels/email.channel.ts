import nodemailer, { Transporter } from 'nodemailer';
import type { NotificationsConfig } from '../../config/config.schema';
import type { DeliveryTarget, NotificationChannel, Rendered, SendOutcome } from './channel';
import { abandonPooledMessage } from './smtp-abandon';

/** nodemailer's codes for a refused sender or recipient (MAIL FROM, RCPT TO) and a refused message (DATA). */
const REFUSALS_OF_THE_MAIL = new Set(['EENVELOPE', 'EMESSAGE']);

/** SMTP through nodemailer, configured from SMTP_*; without SMTP_HOST the channel is off. */
export class EmailChannel implements NotificationChannel {
  readonly name = 'email';
  readonly available: boolean;
  private readonly transport: Transporter | null;

  constructor(private readonly config: NotificationsConfig) {
    const smtp = config.smtp;
    this.available = smtp !== null;
    this.transport = smtp
      ? nodemailer.createTransport({
          host: smtp.host,
          port: smtp.port,
          secure: smtp.secure,
          requireTLS: smtp.requireTls,
          tls: { rejectUnauthorized: smtp.rejectUnauthorized },
          ...(smtp.user ? { auth: { user: smtp.user, pass: smtp.password ?? '' } } : {}),
          pool: true,
          maxConnections: 5,
          // Inside the worker's lease: a send that outlives it would be repeated by another worker.
          connectionTimeout: config.httpTimeoutMs,
          greetingTimeout: config.httpTimeoutMs,
          socketTimeout: config.httpTimeoutMs,
        })
      : null;
  }

  async send(_target: DeliveryTarget, rendered: Rendered, signal?: AbortSignal): Promise<SendOutcome> {
    const transport = this.transport;
    if (!transport) return { kind: 'retry', error: 'the email channel is off: SMTP_HOST is not set' };
    if (rendered.channel !== 'email') return { kind: 'rejected', error: 'not an email message' };
    const m = rendered.email;
    const abandon = () => abandonPooledMessage(transport, m.messageId);
    signal?.addEventListener('abort', abandon, { once: true });
    try {
      const info = await transport.sendMail({
        from: this.config.mailFrom,
        to: m.to,
        subject: m.subject,
        text: m.text,
        html: m.html,
        messageId: m.messageId,
        headers: m.headers,
      });
      if (info.rejected.length > 0) return { kind: 'rejected', error: `recipient refused: ${String(info.response)}` };
      return { kind: 'delivered' };
    } catch (err) {
      const e = err as { responseCode?: number; code?: string; message?: string };
      const error = `${e.code ?? 'SMTP'}: ${e.message ?? String(err)}`;
      // A 5xx to the envelope or the message is a permanent refusal of this mail (unknown
      // mailbox, policy). A 5xx to the login or the greeting is about Fieldpost's own settings
      // (a password being rotated): every mail would fail alike until they are fixed, so retry.
      if (e.responseCode && e.responseCode >= 500 && REFUSALS_OF_THE_MAIL.has(e.code ?? '')) return { kind: 'rejected', error, status: e.responseCode };
      return { kind: 'retry', error, ...(e.responseCode ? { status: e.responseCode } : {}) };
    } finally {
      signal?.removeEventListener('abort', abandon);
    }
  }

  close(): void {
    this.transport?.close();
  }
}
