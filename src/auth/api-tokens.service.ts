import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { BadInputError, NotFoundError, UnauthenticatedError } from '../common/errors';
import { charCount } from '../common/text-length';
import { lockPlayer } from '../database/player-lock';
import { PrismaService, Tx } from '../database/prisma.service';
import { ApiTokenView, AUTH_CLOCK, AuthClock, IssuedToken, Principal } from './auth.types';
import { API_TOKEN_PREFIX, looksLike, TokenHasher } from './token-hasher';

const LAST_USED_RESOLUTION_MS = 60_000;
const MAX_LIVE_TOKENS = 50;

type Row = Awaited<ReturnType<PrismaService['apiToken']['findFirstOrThrow']>>;

/** Per-player API tokens: made (shown once), listed, revoked, and checked on every request. */
@Injectable()
export class ApiTokensService {
  constructor(
    private readonly prisma: PrismaService,
    private readonly hasher: TokenHasher,
    @Inject(AUTH_CLOCK) private readonly clock: AuthClock,
  ) {}

  /**
   * `signIn`: the token is what a sign-in link is traded for, and this spends the link in the same
   * transaction, so that a refusal leaves it usable. Signing in by mail is the way back into an
   * account, so at the cap it makes room by revoking the token used least recently: else whoever
   * held the tokens (a thief among them) would keep the owner out. `nameField` is what the caller
   * called the name (redeeming a link calls it tokenName), for a refusal to name what they sent.
   */
  async issue(playerId: string, name: string, options: { signIn?: (tx: Tx) => Promise<void>; nameField?: string } = {}): Promise<IssuedToken> {
    const { signIn, nameField = 'name' } = options;
    const label = name.trim();
    if (label === '' || charCount(label) > 100) throw new BadInputError('auth/invalid_token_name', `${nameField} must be 1 to 100 characters.`, { field: nameField });
    const token = this.hasher.newSecret(API_TOKEN_PREFIX);
    const row = await this.prisma.$transaction(async (tx) => {
      await lockPlayer(tx, playerId);
      await signIn?.(tx);
      const live = await tx.apiToken.count({ where: { playerId, revokedAt: null } });
      if (live >= MAX_LIVE_TOKENS && !signIn) throw new BadInputError('auth/too_many_tokens', `A player may hold at most ${MAX_LIVE_TOKENS} tokens; revoke one first.`);
      if (live >= MAX_LIVE_TOKENS) await this.revokeLeastUsed(tx, playerId, live - MAX_LIVE_TOKENS + 1);
      return tx.apiToken.create({
        data: { id: `tok_${randomUUID().replace(/-/g, '')}`, playerId, name: label, tokenHash: this.hasher.hash(token), prefix: token.slice(0, API_TOKEN_PREFIX.length + 6), createdAt: this.clock.now() },
      });
    });
    return { token, apiToken: view(row) };
  }

  private async revokeLeastUsed(tx: Tx, playerId: string, count: number): Promise<void> {
    const oldest = await tx.apiToken.findMany({
      where: { playerId, revokedAt: null },
      orderBy: [{ lastUsedAt: { sort: 'asc', nulls: 'first' } }, { createdAt: 'asc' }, { id: 'asc' }],
      take: count,
      select: { id: true },
    });
    await tx.apiToken.updateMany({ where: { id: { in: oldest.map((t) => t.id) } }, data: { revokedAt: this.clock.now() } });
  }

  /** Newest first; `after` is the id of the last token of the previous page. */
  async list(playerId: string, limit: number, after?: string): Promise<{ items: ApiTokenView[]; hasMore: boolean }> {
    const rows = await this.prisma.apiToken.findMany({
      where: { playerId },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take: limit + 1,
      ...(after ? { cursor: { id: after }, skip: 1 } : {}),
    });
    if (after && rows.length === 0 && !(await this.prisma.apiToken.findFirst({ where: { id: after, playerId } }))) {
      throw new BadInputError('request/bad_cursor', 'That cursor does not belong to this list.', { field: 'after' });
    }
    return { items: rows.slice(0, limit).map(view), hasMore: rows.length > limit };
  }

  /** Revoking is immediate and final; revoking a revoked token changes nothing. */
  async revoke(playerId: string, tokenId: string): Promise<ApiTokenView> {
    const row = await this.prisma.apiToken.findFirst({ where: { id: tokenId, playerId } });
    if (!row) throw new NotFoundError('auth/token_not_found', 'No such token.');
    if (row.revokedAt) return view(row);
    return view(await this.prisma.apiToken.update({ where: { id: tokenId }, data: { revokedAt: this.clock.now() } }));
  }

  /**
   * Refuses a token revoked since it was checked: for what outlives one request, such as an
   * open subscription, which would otherwise go on serving a revoked token.
   */
  async assertLive(tokenId: string): Promise<void> {
    const row = await this.prisma.apiToken.findUnique({ where: { id: tokenId }, select: { revokedAt: true } });
    if (!row || row.revokedAt) throw new UnauthenticatedError('The API token is not valid (unknown or revoked).');
  }

  /** The caller behind a bearer token; unknown and revoked tokens are both simply refused. */
  async authenticate(token: string): Promise<Principal> {
    if (!looksLike(token, API_TOKEN_PREFIX)) throw new UnauthenticatedError('The API token is not valid.');
    const row = await this.prisma.apiToken.findUnique({ where: { tokenHash: this.hasher.hash(token) } });
    if (!row || row.revokedAt) throw new UnauthenticatedError('The API token is not valid (unknown or revoked).');
    const now = this.clock.now();
    if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() > LAST_USED_RESOLUTION_MS) {
      await this.prisma.apiToken.updateMany({ where: { id: row.id, revokedAt: null }, data: { lastUsedAt: now } });
    }
    return { playerId: row.playerId, tokenId: row.id };
  }
}

function view(r: Row): ApiTokenView {
  return { id: r.id, name: r.name, prefix: r.prefix, createdAt: r.createdAt, lastUsedAt: r.lastUsedAt, revokedAt: r.revokedAt };
}
