import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { BadInputError, NotFoundError } from '../../common/errors';
import { APP_CONFIG } from '../../config/config.module';
import type { AppConfig } from '../../config/config.schema';
import { PrismaService } from '../../database/prisma.service';
import { newWebhookSecret } from '../channels/standard-webhooks';
import { Clock, NOTIFICATION_CLOCK } from '../clock';
import { checkTargetUrl, ResolveAll, TargetKind } from '../security/target-url';

export const NOTIFICATION_RESOLVE = Symbol('NOTIFICATION_RESOLVE');

const MAX_WEBHOOKS = 5;

/** An endpoint as its owner sees it; the signing secret is shown only when made or rotated. */
export interface EndpointView {
  id: string;
  kind: TargetKind;
  url: string;
  enabled: boolean;
  disabledAt: Date | null;
  disabledReason: string | null;
  /** Until then, the previous webhook secret still signs beside the new one. */
  previousSecretValidUntil: Date | null;
  createdAt: Date;
}

type EndpointRow = Awaited<ReturnType<PrismaService['notificationEndpoint']['findFirstOrThrow']>>;

/** A player's webhook endpoints and Discord webhook. URLs are checked against SSRF when saved. */
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

  /** Adds a webhook endpoint and returns its signing secret (whsec_...), shown this once. */
  async addWebhook(playerId: string, url: string): Promise<{ endpoint: EndpointView; secret: string }> {
    await this.requirePlayer(playerId);
    const checked = await this.check(url, 'webhook');
    const count = await this.prisma.notificationEndpoint.count({ where: { playerId, kind: 'webhook' } });
    if (count >= MAX_WEBHOOKS) throw new BadInputError('notifications/too_many_webhooks', `A player may have at most ${MAX_WEBHOOKS} webhook endpoints.`);
    const secret = newWebhookSecret();
    const row = await this.prisma.notificationEndpoint.create({ data: { id: `ep_${randomUUID()}`, playerId, kind: 'webhook', url: checked, secret } });
    return { endpoint: view(row), secret };
  }

  /** A new secret signs from now on; the old one keeps signing beside it for the grace period. */
  async rotateWebhookSecret(playerId: string, endpointId: string): Promise<{ endpoint: EndpointView; secret: string }> {
    const current = await this.owned(playerId, endpointId);
    if (current.kind !== 'webhook' || !current.secret) throw new BadInputError('notifications/not_a_webhook', 'Only webhook endpoints have a signing secret.');
    const secret = newWebhookSecret();
    const row = await this.prisma.notificationEndpoint.update({
      where: { id: endpointId },
      data: { secret, previousSecret: current.secret, previousSecretUntil: new Date(this.clock.now().getTime() + this.config.notifications.secretGraceMs) },
    });
    return { endpoint: view(row), secret };
  }

  /** Sets (or, with null, removes) the player's one Discord webhook. */
  async setDiscordWebhook(playerId: string, url: string | null): Promise<EndpointView | null> {
    await this.requirePlayer(playerId);
    const checked = url === null ? null : await this.check(url, 'discord');
    return this.prisma.$transaction(async (tx) => {
      await tx.notificationEndpoint.deleteMany({ where: { playerId, kind: 'discord' } });
      if (checked === null) return null;
      return view(await tx.notificationEndpoint.create({ data: { id: `ep_${randomUUID()}`, playerId, kind: 'discord', url: checked } }));
    });
  }

  /** Turns a disabled endpoint back on, after checking its URL again. */
  async enableEndpoint(playerId: string, endpointId: string): Promise<EndpointView> {
    const row = await this.owned(playerId, endpointId);
    await this.check(row.url, row.kind as TargetKind);
    return view(await this.prisma.notificationEndpoint.update({ where: { id: endpointId }, data: { enabled: true, disabledAt: null, disabledReason: null } }));
  }

  async removeEndpoint(playerId: string, endpointId: string): Promise<void> {
    await this.owned(playerId, endpointId);
    await this.prisma.notificationEndpoint.delete({ where: { id: endpointId } });
  }

  private async check(url: string, kind: TargetKind): Promise<string> {
    const checked = await checkTargetUrl(url, kind, { allowPrivate: this.config.notifications.allowPrivateTargets, resolve: this.resolve });
    return checked.toString();
  }

  private async owned(playerId: string, endpointId: string): Promise<EndpointRow> {
    const row = await this.prisma.notificationEndpoint.findFirst({ where: { id: endpointId, playerId } });
    if (!row) throw new NotFoundError('notifications/endpoint_not_found', 'No such endpoint.');
    return row;
  }

  private async requirePlayer(playerId: string): Promise<void> {
    const found = await this.prisma.player.findUnique({ where: { id: playerId }, select: { id: true } });
    if (!found) throw new NotFoundError('player/not_found', 'No such player.');
  }
}

function view(row: EndpointRow): EndpointView {
  return {
    id: row.id,
    kind: row.kind as TargetKind,
    url: row.url,
    enabled: row.enabled,
    disabledAt: row.disabledAt,
    disabledReason: row.disabledReason,
    previousSecretValidUntil: row.previousSecret ? row.previousSecretUntil : null,
    createdAt: row.createdAt,
  };
}
