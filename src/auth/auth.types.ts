/** Who is calling: the player and the API token they presented. */
export interface Principal {
  playerId: string;
  tokenId: string;
}

export interface ApiTokenView {
  id: string;
  name: string;
  /** The first characters of the token, to tell tokens apart. */
  prefix: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

export interface IssuedToken {
  /** The token itself: shown this once, never stored. */
  token: string;
  apiToken: ApiTokenView;
}

export interface PlayerView {
  id: string;
  email: string;
  displayName: string;
  timeZone: string;
  createdAt: Date;
}

export const AUTH_CLOCK = Symbol('AUTH_CLOCK');
export interface AuthClock {
  now(): Date;
}
