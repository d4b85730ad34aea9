import { createHash, createHmac, randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG } from '../config/config.module';
import type { AppConfig } from '../config/config.schema';

/** Prefixes that tell a reader (and secret scanners) what a credential is. */
export const API_TOKEN_PREFIX = 'fp_';
export const MAGIC_LINK_PREFIX = 'fpml_';

/**
 * Secrets are 32 random bytes; only their hash is stored. With TOKEN_PEPPER the hash is an
 * HMAC, so a leaked table alone cannot even confirm a guessed token.
 */
@Injectable()
export class TokenHasher {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  newSecret(prefix: string): string {
    return `${prefix}${randomBytes(32).toString('base64url')}`;
  }

  hash(secret: string): string {
    const pepper = this.config.api.tokenPepper;
    return pepper ? createHmac('sha256', pepper).update(secret).digest('hex') : createHash('sha256').update(secret).digest('hex');
  }
}

/** The shape of a credential, checked before any database read. */
export function looksLike(secret: string, prefix: string): boolean {
  return secret.startsWith(prefix) && secret.length === prefix.length + 43 && /^[A-Za-z0-9_-]+$/.test(secret.slice(prefix.length));
}
