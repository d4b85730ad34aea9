import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { ForbiddenError, RateLimitedError, UnauthenticatedError } from '../common/errors';
import { APP_CONFIG } from '../config/config.module';
import type { AppConfig } from '../config/config.schema';
import { lockPlayer } from '../database/player-lock';
import { PrismaService, Tx } from '../database/prisma.service';
import { logger } from '../logging/logger';
import { ApiTokensService } from './api-tokens.service';
import { AUTH_CLOCK, AuthClock, IssuedToken } from './auth.types';
import { MagicLinkMailer } from './magic-link.mailer';
import { checkNewPlayer, NewPlayer, PlayersService } from './players.service';
import { looksLike, MAGIC_LINK_PREFIX, TokenHasher } from './token-hasher';

/**
 * Sign-in by mail, which is also sign-up: asking for a link creates the player on first use.
 * A link is single use, short-lived (MAGIC_LINK_TTL_MINUTES) and stored as a hash; redeeming it
 * yields a new API token.
 */
const HOUR_MS = 60 * 60_000;

@Injectable()
export class MagicLinksService {
  constructor(
    private readonly prisma: PrismaService,
    private readonly hasher: TokenHasher,
    private readonly players: PlayersService,
    private readonly tokens: ApiTokensService,
    private readonly mailer: MagicLinkMailer,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(AUTH_CLOCK) private readonly clock: AuthClock,
  ) {}

  /** The answer is the same whether or not the player existed, so it tells nobody who plays here. */
  async request(input: NewPlayer): Promise<{ expiresAt: Date }> {
    // Bad input is bad input on any server; only a good request learns that mail is off.
    checkNewPlayer(input);
    if (!this.mailer.available && this.config.env !== 'development') {
      throw new ForbiddenError('auth/mail_unavailable', 'This server cannot send mail (SMTP_HOST is not set), so it cannot send sign-in links.');
    }
    const { player } = await this.players.findOrCreate(input);
    const token = this.hasher.newSecret(MAGIC_LINK_PREFIX);
    const ttlMinutes = this.config.api.magicLinkTtlMinutes;
    const expiresAt = new Date(this.clock.now().getTime() + ttlMinutes * 60_000);
    const id = `ml_${randomUUID().replace(/-/g, '')}`;
    await this.prisma.$transaction(async (tx) => {
      // One request at a time per address: ten asked for at once were all sent.
      await lockPlayer(tx, player.id);
      await this.refuseIfFlooded(tx, player.id);
      await tx.magicLink.create({ data: { id, playerId: player.id, tokenHash: this.hasher.hash(token), createdAt: this.clock.now(), expiresAt } });
    });
    if (this.mailer.available) {
      // A link never sent neither works nor counts against the address's hourly limit.
      await this.mailer.send({ to: player.email, displayName: player.displayName, token, ttlMinutes }).catch(async (err: unknown) => {
        await this.prisma.magicLink.deleteMany({ where: { id } });
        throw err;
      });
    } else {
      // Development without SMTP: the link goes to the log so that sign-up still works locally.
      logger().warn({ component: 'auth', email: player.email, signInCode: token }, 'SMTP_HOST is not set: sign-in code written to the log (development only)');
    }
    return { expiresAt };
  }

  /**
   * Anyone may ask for a link to any address, so the address is what gets limited: counted in
   * the database, the limit holds across instances. The answer is the same for a new address.
   */
  private async refuseIfFlooded(tx: Tx, playerId: string): Promise<void> {
    const now = this.clock.now();
    const since = new Date(now.getTime() - HOUR_MS);
    const recent = await tx.magicLink.findMany({ where: { playerId, createdAt: { gt: since } }, select: { createdAt: true }, orderBy: { createdAt: 'asc' } });
    const limit = this.config.api.magicLinksPerHour;
    if (recent.length < limit) return;
    // Free again when the oldest link that counts leaves the hour.
    const freeAt = recent[recent.length - limit]!.createdAt.getTime() + HOUR_MS;
    const wait = Math.max(1, Math.ceil((freeAt - now.getTime()) / 1000));
    throw new RateLimitedError(wait, `Too many sign-in links for this address; try again in ${wait} s.`, 'auth/magic_link_rate_limited');
  }

  /** Trades a link for an API token, once: a second use, or a use after expiry, is refused. */
  async redeem(token: string, tokenName = 'sign-in link'): Promise<IssuedToken> {
    const refused = new UnauthenticatedError('That sign-in link is unknown, already used or expired. Ask for a new one.');
    if (!looksLike(token, MAGIC_LINK_PREFIX)) throw refused;
    const now = this.clock.now();
    const row = await this.prisma.magicLink.findUnique({ where: { tokenHash: this.hasher.hash(token) } });
    if (!row) throw refused;
    // Spent in the token's own transaction: a refused token name leaves the link usable.
    const signIn = async (tx: Tx) => {
      const used = await tx.magicLink.updateMany({ where: { id: row.id, usedAt: null, expiresAt: { gt: now } }, data: { usedAt: now } });
      if (used.count !== 1) throw refused;
    };
    return this.tokens.issue(row.playerId, tokenName, { signIn, nameField: 'tokenName' });
  }
}
