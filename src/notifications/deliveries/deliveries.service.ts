import { Inject, Injectable } from '@nestjs/common';
import { BadInputError, ConflictError, NotFoundError } from '../../common/errors';
import { PrismaService } from '../../database/prisma.service';
import type { ChannelName } from '../channels/channel';
import { Clock, NOTIFICATION_CLOCK } from '../clock';
import { OUTDATED_CALL_PARAMS, outdatedCallSql } from '../outdated-call';

export type DeliveryStatus = 'pending' | 'held' | 'delivered' | 'dead' | 'cancelled';

/** One notification on one channel, as its recipient may see it (dead letters included). */
export interface DeliveryView {
  id: string;
  notificationId: string;
  kind: string;
  gameId: string | null;
  channel: ChannelName;
  endpointId: string | null;
  status: DeliveryStatus;
  attempts: number;
  /** When it is (next) due, while pending or held. */
  nextAttemptAt: Date | null;
  lastError: string | null;
  lastStatus: number | null;
  createdAt: Date;
  finishedAt: Date | null;
}

export interface DeliveryFilter {
  status?: DeliveryStatus[];
  gameId?: string;
  /** Newest first; at most 200. */
  limit?: number;
  /** The last id of the previous page. */
  after?: string;
}

const include = { notification: { select: { kind: true, gameId: true } } } as const;
type Row = Awaited<ReturnType<PrismaService['notificationDelivery']['findFirstOrThrow']>> & { notification: { kind: string; gameId: string | null } };

@Injectable()
export class NotificationDeliveriesService {
  constructor(
    private readonly prisma: PrismaService,
    @Inject(NOTIFICATION_CLOCK) private readonly clock: Clock,
  ) {}

  async listDeliveries(playerId: string, filter: DeliveryFilter = {}): Promise<{ items: DeliveryView[]; nextCursor: string | null }> {
    const limit = Math.min(Math.max(filter.limit ?? 50, 1), 200);
    const rows = (await this.prisma.notificationDelivery.findMany({
      where: {
        playerId,
        ...(filter.status ? { status: { in: filter.status } } : {}),
        ...(filter.gameId ? { notification: { gameId: filter.gameId } } : {}),
      },
      include,
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take: limit + 1,
      ...(filter.after ? { cursor: { id: filter.after }, skip: 1 } : {}),
    })) as Row[];
    const page = rows.slice(0, limit);
    return { items: page.map(view), nextCursor: rows.length > limit ? page[page.length - 1]!.id : null };
  }

  /** Sends a dead letter again, with a fresh retry period. */
  async redeliver(playerId: string, deliveryId: string): Promise<DeliveryView> {
    const row = (await this.prisma.notificationDelivery.findFirst({ where: { id: deliveryId, playerId }, include })) as Row | null;
    if (!row) throw new NotFoundError('notifications/delivery_not_found', 'No such delivery.');
    if (row.status !== 'dead') throw new BadInputError('notifications/not_dead', 'Only a dead-lettered delivery can be sent again.');
    if (row.notification.kind === 'digest') throw new BadInputError('notifications/digest_not_redeliverable', 'Send the mail a digest carried again one by one.');
    await this.requireEndpointEnabled(row);
    await this.requireStillCurrent(row);
    // Only while it is still dead: a second click that read it dead too would otherwise make a
    // delivery the first one had already sent pending again, and send it twice.
    const { count } = await this.prisma.notificationDelivery.updateMany({
      where: { id: deliveryId, status: 'dead' },
      data: { status: 'pending', notBefore: this.clock.now(), attempts: 0, firstAttemptAt: null, finishedAt: null, lockedUntil: null, digestId: null },
    });
    if (count === 0) throw new BadInputError('notifications/not_dead', 'Only a dead-lettered delivery can be sent again.');
    return view((await this.prisma.notificationDelivery.findUniqueOrThrow({ where: { id: deliveryId }, include })) as Row);
  }

  /**
   * A call to a turn already past would be cancelled unsent by the worker (accepted, then dropped
   * without a word): the player is told now, and why.
   */
  private async requireStillCurrent(row: Row): Promise<void> {
    const [found] = await this.prisma.$queryRawUnsafe<Array<{ outdated: string | null }>>(
      `SELECT ${outdatedCallSql('$2', '$3')} AS outdated FROM notifications n LEFT JOIN games g ON g.id = n.game_id WHERE n.id = $1`,
      row.notificationId,
      ...OUTDATED_CALL_PARAMS,
    );
    if (found?.outdated) throw new ConflictError('notifications/outdated', `That notice is out of date (${found.outdated}): sent again, it would call you to a turn already past.`);
  }

  /** Queued for an endpoint that is off, it was cancelled unsent: the player is told now, and why. */
  private async requireEndpointEnabled(row: Row): Promise<void> {
    if (row.channel === 'email') return;
    const endpoint = row.endpointId === null ? null : await this.prisma.notificationEndpoint.findUnique({ where: { id: row.endpointId }, select: { enabled: true, disabledReason: true } });
    if (endpoint === null) throw new ConflictError('notifications/endpoint_disabled', 'The endpoint this delivery went to was removed.', { endpointId: row.endpointId });
    if (!endpoint.enabled) {
      throw new ConflictError('notifications/endpoint_disabled', `The endpoint this delivery went to is disabled (${endpoint.disabledReason ?? 'by you'}): enable it, then send this again.`, { endpointId: row.endpointId });
    }
  }
}

function view(r: Row): DeliveryView {
  const waiting = r.status === 'pending' || r.status === 'held';
  return {
    id: r.id,
    notificationId: r.notificationId,
    kind: r.notification.kind,
    gameId: r.notification.gameId,
    channel: r.channel as ChannelName,
    endpointId: r.endpointId,
    status: r.status as DeliveryStatus,
    attempts: r.attempts,
    nextAttemptAt: waiting ? r.notBefore : null,
    lastError: r.lastError,
    lastStatus: r.lastStatus,
    createdAt: r.createdAt,
    finishedAt: r.finishedAt,
  };
}
