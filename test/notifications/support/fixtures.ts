import type { PrismaService } from '../../../src/database/prisma.service';
import type { NotificationContent, NotificationIntent, NotificationKind } from '../../../src/notifications/notification-intent';

let n = 0;
export function uid(prefix: string): string {
  n += 1;
  return `${prefix}-${process.pid}-${n}-${Math.random().toString(36).slice(2, 7)}`;
}

export async function player(prisma: PrismaService, o: { id?: string; email?: string; displayName?: string; timeZone?: string } = {}): Promise<string> {
  const id = o.id ?? uid('p');
  await prisma.player.create({ data: { id, email: o.email ?? `${id}@players.test`, displayName: o.displayName ?? `Player ${id}`, timeZone: o.timeZone ?? 'UTC' } });
  return id;
}

export function content(o: Partial<NotificationContent> & { gameId?: string } = {}): NotificationContent {
  const gameId = o.gameId ?? 'g1';
  return {
    gameTitle: 'Gators at the Bridge',
    scenarioName: 'Gators! Q-GT-05',
    turn: 2,
    phase: 'P1 Movement',
    whoseTurn: [{ side: 'blue', sideName: 'Blue', playerName: 'Alice' }],
    yourTurn: true,
    deadlineAt: '2026-12-04T17:00:00.000Z',
    happened: ['Red moved 2 units.', 'Red attacked 0507: D1.'],
    links: { game: `https://fieldpost.test/games/${gameId}`, act: `https://fieldpost.test/games/${gameId}/act` },
    ...o,
  };
}

export function intent(o: { playerId: string; gameId?: string; version?: number; kind?: NotificationKind; side?: string; content?: Partial<NotificationContent> }): NotificationIntent {
  const gameId = o.gameId ?? 'g1';
  const version = o.version ?? 1;
  const kind = o.kind ?? 'your_turn';
  return {
    id: `${gameId}:${version}:${kind}:${o.playerId}`,
    kind,
    gameId,
    playerId: o.playerId,
    side: o.side ?? 'blue',
    gameVersion: version,
    content: content({ gameId, ...o.content }),
  };
}

export async function webhookEndpoint(prisma: PrismaService, playerId: string, url: string, secret = 'whsec_' + Buffer.alloc(32, 7).toString('base64')): Promise<{ id: string; secret: string }> {
  const id = uid('ep');
  await prisma.notificationEndpoint.create({ data: { id, playerId, kind: 'webhook', url, secret } });
  return { id, secret };
}

export async function discordEndpoint(prisma: PrismaService, playerId: string, url: string): Promise<string> {
  const id = uid('ep');
  await prisma.notificationEndpoint.create({ data: { id, playerId, kind: 'discord', url } });
  return id;
}

/** How many of a player's deliveries (on one channel, if given) are in each status. */
export async function statuses(prisma: PrismaService, playerId?: string, channel?: string): Promise<Record<string, number>> {
  const rows = await prisma.notificationDelivery.groupBy({ by: ['status'], _count: true, where: { ...(playerId ? { playerId } : {}), ...(channel ? { channel } : {}) } });
  return Object.fromEntries(rows.map((r) => [r.status, r._count]));
}
