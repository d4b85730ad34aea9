import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { BadInputError, NotFoundError } from '../../common/errors';
import { charCount } from '../../common/text-length';
import { APP_CONFIG } from '../../config/config.module';
import type { AppConfig } from '../../config/config.schema';
import { lockPlayer } from '../../database/player-lock';
import { PrismaService, Tx } from '../../database/prisma.service';
import { newWebhookSecret } from '../channels/standard-webhooks';
import { Clock, NOTIFICATION_CLOCK } from '../clock';
import { checkTargetUrl, ResolveAll, TargetKind } from '../security/target-url';

export const NOTIFICATION_RESOLVE = Symbol('NOTIFICATION_RESOLVE');

/** Webhooks per scope: for all games, or for one game. */
const MAX_WEBHOOKS = 5;
/** Endpoints per player, all scopes together. */
const MAX_ENDPOINTS = 100;
const MAX_GAME_ID_LENGTH = 100;

/** An endpoint as its owner sees it; the signing secret is shown only when made or rotated. */
export interface EndpointView {
  id: string;
  kind: TargetKind;
  /** The one game it is for; null: all the player's games (except those with their own endpoint of this kind). */
  gameId: string | null;
  url: string;
  enabled: boolean;
  disabledAt: Date | null;
  disabledReason: string | null;
  /** Until then, the previous webhook secret still signs beside the new one. */
  previousSecretValidUntil: Date | null;
  createdAt: Date;
}

type EndpointRow = Awaited<ReturnType<PrismaService['notificationEndpoint']['findFirstOrThrow']>>;

/**
 * A player's webhook endpoints and Discord webhooks, each for all their games or for one game
 * (a per-game endpoint replaces the all-games ones of its kind for that game; see
 * endpointsFor). URLs are checked against SSRF when saved. Whether the player may scope an
 * endpoint to a game (holds a seat in it) is the caller's check, as for per-game preferences:
 * this module does not read games.
 */
@Injectable()
export class NotificationEndpointsService {
  constructor(
    private readonly prisma: PrismaService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(NOTIFICATION_CLOCK) private readonly clock: Clock,
    @Inject(NOTIFICATION_RESOLVE) private readonly resolve: ResolveAll,
  ) {}

  async listEndpoints(playerId: string): Promise<EndpointView[]> {
    const rows = await this.prisma.notificationEndpoint.findMany({ where: { playerId }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
    return rows.map(view);
  }

  /**
   * Adds a webhook endpoint, for all the player's games or (with a game id) for one, and returns
   * its signing secret (whsec_...), shown this once.
   */
  async addWebhook(playerId: string, url: string, gameId: string | null = null): Promise<{ endpoint: EndpointView; secret: string }> {
    checkGameId(gameId);
    await this.requirePlayer(playerId);
    const checked = await this.check(url, 'webhook');
    return this.prisma.$transaction(async (tx) => {
      await lockEndpointsOf(tx, playerId);
      const [inScope, all] = await Promise.all([
        tx.notificationEndpoint.count({ where: { playerId, kind: 'webhook', gameId } }),
        tx.notificationEndpoint.count({ where: { playerId } }),
      ]);
      if (inScope >= MAX_WEBHOOKS) {
        const scope = gameId === null ? 'for all games' : 'for one game';
        throw new BadInputError('notifications/too_many_webhooks', `A player may have at most ${MAX_WEBHOOKS} webhook endpoints ${scope}.`);
      }
      if (all >= MAX_ENDPOINTS) throw new BadInputError('notifications/too_many_endpoints', `A player may have at most ${MAX_ENDPOINTS} notification endpoints.`);
      const secret = newWebhookSecret();
      const row = await tx.notificationEndpoint.create({ data: { id: `ep_${randomUUID()}`, playerId, gameId, kind: 'webhook', url: checked, secret } });
      return { endpoint: view(row), secret };
    });
  }

  /** A new secret signs from now on; the old one keeps signing beside it for the grace period. */
  async rotateWebhookSecret(playerId: string, endpointId: string): Promise<{ endpoint: EndpointView; secret: string }> {
    return this.prisma.$transaction(async (tx) => {
      await lockEndpointsOf(tx, playerId);
      const current = await owned(tx, playerId, endpointId);
      if (current.kind !== 'webhook' || !current.secret) throw new BadInputError('notifications/not_a_webhook', 'Only webhook endpoints have a signing secret.');
      const secret = newWebhookSecret();
      const row = await tx.notificationEndpoint.update({
        where: { id: endpointId },
        data: { secret, previousSecret: current.secret, previousSecretUntil: new Date(this.clock.now().getTime() + this.config.notifications.secretGraceMs) },
      });
      return { endpoint: view(row), secret };
    });
  }

  /**
   * Sets (or, with null, removes) the player's one Discord webhook for all their games, or
   * (with a game id) for that game. Other scopes keep theirs.
   */
  async setDiscordWebhook(playerId: string, url: string | null, gameId: string | null = null): Promise<EndpointView | null> {
    checkGameId(gameId);
    await this.requirePlayer(playerId);
    const checked = url === null ? null : await this.check(url, 'discord');
    return this.prisma.$transaction(async (tx) => {
      await lockEndpointsOf(tx, playerId);
      const { count: replaced } = await tx.notificationEndpoint.deleteMany({ where: { playerId, kind: 'discord', gameId } });
      if (checked === null) return null;
      if (replaced === 0 && (await tx.notificationEndpoint.count({ where: { playerId } })) >= MAX_ENDPOINTS) {
        throw new BadInputError('notifications/too_many_endpoints', `A player may have at most ${MAX_ENDPOINTS} notification endpoints.`);
      }
      return view(await tx.notificationEndpoint.create({ data: { id: `ep_${randomUUID()}`, playerId, gameId, kind: 'discord', url: checked } }));
    });
  }

  /** Turns a disabled endpoint back on, after checking its URL again. */
  async enableEndpoint(playerId: string, endpointId: string): Promise<EndpointView> {
    const row = await owned(this.prisma, playerId, endpointId);
    await this.check(row.url, row.kind as TargetKind);
    return this.prisma.$transaction(async (tx) => {
      await lockEndpointsOf(tx, playerId);
      await owned(tx, playerId, endpointId);
      return view(await tx.notificationEndpoint.update({ where: { id: endpointId }, data: { enabled: true, disabledAt: null, disabledReason: null } }));
    });
  }

  async removeEndpoint(playerId: string, endpointId: string): Promise<void> {
    await this.prisma.$transaction(async (tx) => {
      await lockEndpointsOf(tx, playerId);
      await owned(tx, playerId, endpointId);
      await tx.notificationEndpoint.delete({ where: { id: endpointId } });
    });
  }

  private async check(url: string, kind: TargetKind): Promise<string> {
    const checked = await checkTargetUrl(url, kind, { allowPrivate: this.config.notifications.allowPrivateTargets, resolve: this.resolve });
    return checked.toString();
  }

  private async requirePlayer(playerId: string): Promise<void> {
    const found = await this.prisma.player.findUnique({ where: { id: playerId }, select: { id: true } });
    if (!found) throw new NotFoundError('player/not_found', 'No such player.');
  }
}

/**
 * The player's endpoint changes one at a time: besides the caps (lockPlayer), a removal sent
 * twice at once found the endpoint both times, the second then deleting nothing (a 500).
 */
async function lockEndpointsOf(tx: Tx, playerId: string): Promise<void> {
  if (!(await lockPlayer(tx, playerId))) throw new NotFoundError('player/not_found', 'No such player.');
}

async function owned(db: Tx, playerId: string, endpointId: string): Promise<EndpointRow> {
  const row = await db.notificationEndpoint.findFirst({ where: { id: endpointId, playerId } });
  if (!row) throw new NotFoundError('notifications/endpoint_not_found', 'No such endpoint.');
  return row;
}

/**
 * A game id as games have them; '' is not "all games" here (null is). Where the game id is
 * required, leaving it out is no way out, and the message does not offer it.
 */
export function checkGameId(gameId: string | null, opts: { required?: boolean } = {}): void {
  if (gameId !== null && (gameId === '' || charCount(gameId) > MAX_GAME_ID_LENGTH)) {
    const hint = opts.required ? ': the id of a game you hold a seat in' : '; leave it out for all your games';
    throw new BadInputError('notifications/invalid_game', `gameId is 1 to ${MAX_GAME_ID_LENGTH} characters${hint}.`, { field: 'gameId' });
  }
}

function view(row: EndpointRow): EndpointView {
  return {
    id: row.id,
    kind: row.kind as TargetKind,
    gameId: row.gameId,
    url: row.url,
    enabled: row.enabled,
    disabledAt: row.disabledAt,
    disabledReason: row.disabledReason,
    previousSecretValidUntil: row.previousSecret ? row.previousSecretUntil : null,
    createdAt: row.createdAt,
  };
}
