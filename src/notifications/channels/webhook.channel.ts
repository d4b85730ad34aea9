import type { Clock } from '../clock';
import type { DeliveryTarget, NotificationChannel, Rendered, SendOutcome } from './channel';
import type { HttpClient } from './http-client';
import { outcomeForError, outcomeForResponse } from './http-outcome';
import { signatureHeader } from './standard-webhooks';

/** A webhook that answers 404 or 410 no longer exists. */
const GONE = new Set([404, 410]);

export class WebhookChannel implements NotificationChannel {
  readonly name = 'webhook';
  readonly available = true;

  constructor(private readonly http: HttpClient, private readonly clock: Clock) {}

  async send(target: DeliveryTarget, rendered: Rendered): Promise<SendOutcome> {
    const endpoint = target.endpoint;
    if (rendered.channel !== 'webhook' || !endpoint?.secret) return { kind: 'rejected', error: 'not a webhook message or endpoint' };
    const now = this.clock.now();
    const timestamp = Math.floor(now.getTime() / 1000);
    // During a rotation both secrets sign, so receivers can switch at their own pace.
    const stillValid = endpoint.previousSecret && endpoint.previousSecretUntil && endpoint.previousSecretUntil > now;
    const secrets = stillValid ? [endpoint.secret, endpoint.previousSecret!] : [endpoint.secret];
    try {
      const res = await this.http.post(endpoint.url, rendered.body, {
        'webhook-id': target.id,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': signatureHeader(secrets, target.id, timestamp, rendered.body),
      });
      return outcomeForResponse(res, GONE, now);
    } catch (err) {
      return outcomeForError(err);
    }
  }
}
