import type { Clock } from '../clock';
import type { DeliveryTarget, NotificationChannel, Rendered, SendOutcome } from './channel';
import type { HttpClient } from './http-client';
import { outcomeForError, outcomeForResponse } from './http-outcome';

/** Discord answers 404 for a deleted webhook and 401 for a bad token: either way it is gone. */
const GONE = new Set([401, 404]);

export class DiscordChannel implements NotificationChannel {
  readonly name = 'discord';
  readonly available = true;

  constructor(private readonly http: HttpClient, private readonly clock: Clock) {}

  async send(target: DeliveryTarget, rendered: Rendered): Promise<SendOutcome> {
    if (rendered.channel !== 'discord' || !target.endpoint) return { kind: 'rejected', error: 'not a Discord message or endpoint' };
    try {
      const res = await this.http.post(target.endpoint.url, rendered.body, {});
      return outcomeForResponse(res, GONE, this.clock.now());
    } catch (err) {
      return outcomeForError(err);
    }
  }
}
