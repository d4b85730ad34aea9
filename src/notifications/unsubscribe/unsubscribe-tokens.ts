import { createHmac, timingSafeEqual } from 'node:crypto';

/** Whose mail to stop: one game's, or (gameId null) all of it. */
export interface UnsubscribeScope {
  playerId: string;
  gameId: string | null;
}

/**
 * Unsubscribe links carry a signed scope, so one click works without signing in (RFC 8058)
 * and nobody can stop someone else's mail. They do not expire: an old mail's link still works.
 */
export class UnsubscribeTokens {
  /** `site` is read at each link, not copied: the server's own URL is known only once it listens. */
  constructor(private readonly secret: string, private readonly site: { readonly publicUrl: string }) {}

  issue(scope: UnsubscribeScope): string {
    const payload = Buffer.from(JSON.stringify([scope.playerId, scope.gameId])).toString('base64url');
    return `${payload}.${this.mac(payload)}`;
  }

  read(token: string): UnsubscribeScope | null {
    const [payload, mac] = token.split('.');
    if (!payload || !mac) return null;
    const expected = Buffer.from(this.mac(payload));
    const given = Buffer.from(mac);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    try {
      const [playerId, gameId] = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as unknown[];
      if (typeof playerId !== 'string' || (gameId !== null && typeof gameId !== 'string')) return null;
      return { playerId, gameId };
    } catch {
      return null;
    }
  }

  url(scope: UnsubscribeScope): string {
    return `${this.site.publicUrl}/api/v1/notifications/unsubscribe?token=${this.issue(scope)}`;
  }

  private mac(payload: string): string {
    return createHmac('sha256', this.secret).update(`unsubscribe.${payload}`).digest('base64url');
  }
}
