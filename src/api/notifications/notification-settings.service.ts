import { Injectable } from '@nestjs/common';
import { BadInputError } from '../../common/errors';
import { NotificationDeliveriesService } from '../../notifications/deliveries/deliveries.service';
import type { NotificationPreferences, PreferencesPatch } from '../../notifications/preferences/preferences';
import { checkGameId } from '../../notifications/preferences/endpoints.service';
import { NotificationsService } from '../../notifications/preferences/notifications.service';
import { ReminderSchedule } from '../../games/scheduler/reminder-schedule';
import { GamesApiService } from '../games/games-api.service';
import { decodeCursor, encodeCursor, isString, pageSize } from '../graphql/pagination';
import { DeliveryStatus, NotificationDelivery, NotificationSettings, NotificationSettingsInput } from './notification-settings.model';
import { requireSeat, requireSeatIfGiven } from './require-seat';

/**
 * The notifications module's settings and delivery log, for the caller only. A game id is
 * checked first: the caller must hold a seat in that game.
 */
@Injectable()
export class NotificationSettingsApi {
  constructor(
    private readonly preferences: NotificationsService,
    private readonly deliveries: NotificationDeliveriesService,
    private readonly games: GamesApiService,
    private readonly reminders: ReminderSchedule,
  ) {}

  async get(playerId: string, gameId?: string | null): Promise<NotificationSettings> {
    await requireSeatIfGiven(this.games, gameId, playerId);
    return view(await this.preferences.getPreferences(playerId, gameId ?? undefined), gameId ?? null);
  }

  async update(playerId: string, input: NotificationSettingsInput, gameId?: string | null): Promise<NotificationSettings> {
    await requireSeatIfGiven(this.games, gameId, playerId);
    const patch = toPatch(input);
    const settings = await this.preferences.setPreferences(playerId, patch, gameId ?? undefined);
    // The reminder of a deadline already running moves with the lead, not only the next one's.
    if (patch.reminderLeadMinutes !== undefined) await this.reminders.leadChanged(playerId, gameId ?? undefined);
    return view(settings, gameId ?? null);
  }

  /** What waits for quiet hours, and a digest for its hour, moves with the player's new time zone. */
  timeZoneChanged(playerId: string): Promise<void> {
    return this.preferences.timeZoneChanged(playerId);
  }

  async clearGame(playerId: string, gameId: string): Promise<NotificationSettings> {
    // A malformed id is bad input here too, as for the other per-game settings; here it is required.
    checkGameId(gameId, { required: true });
    await requireSeat(this.games, gameId, playerId);
    await this.preferences.clearGamePreferences(playerId, gameId);
    await this.reminders.leadChanged(playerId, gameId);
    return this.get(playerId, gameId);
  }

  async list(playerId: string, status: DeliveryStatus[] | null | undefined, gameId: string | null | undefined, first: number | null | undefined, after: string | null | undefined) {
    await requireSeatIfGiven(this.games, gameId, playerId);
    const size = pageSize(first, Math.min(this.games.maxPageSize, 200));
    const from = decodeCursor('deliveries', after, isString);
    const page = await this.deliveries.listDeliveries(playerId, { ...(status?.length ? { status } : {}), ...(gameId ? { gameId } : {}), limit: size, ...(from ? { after: from } : {}) });
    const items: NotificationDelivery[] = page.items.map((d) => ({ ...d, status: d.status as DeliveryStatus }));
    return { items, cursors: items.map((d) => encodeCursor('deliveries', d.id)), hasMore: page.nextCursor !== null };
  }

  async redeliver(playerId: string, deliveryId: string): Promise<NotificationDelivery> {
    const d = await this.deliveries.redeliver(playerId, deliveryId);
    return { ...d, status: d.status as DeliveryStatus };
  }

}

function view(p: NotificationPreferences, gameId: string | null): NotificationSettings {
  return { gameId, channels: { ...p.channels }, quietHours: p.quietHours ? { ...p.quietHours } : null, reminderLeadMinutes: p.reminderLeadMinutes, digest: p.digest };
}

export function toPatch(input: NotificationSettingsInput): PreferencesPatch {
  const patch: PreferencesPatch = {};
  const channels: NonNullable<PreferencesPatch['channels']> = {};
  if (input.email != null) channels.email = input.email;
  if (input.webhook != null) channels.webhook = input.webhook;
  if (input.discord != null) channels.discord = input.discord;
  if (Object.keys(channels).length) patch.channels = channels;
  // Quiet hours are a window or none: false alone names no window, and was taken and did nothing.
  if (input.noQuietHours === false && input.quietStart == null && input.quietEnd == null) {
    throw new BadInputError('notifications/invalid_quiet_hours', 'noQuietHours: false sets no quiet hours by itself: give quietStart and quietEnd to set them, or leave noQuietHours out.', { field: 'noQuietHours' });
  }
  if (input.noQuietHours) {
    if (input.quietStart != null || input.quietEnd != null) throw new BadInputError('notifications/invalid_quiet_hours', 'Give either noQuietHours or quietStart and quietEnd.', { field: 'noQuietHours' });
    patch.quietHours = null;
  } else if (input.quietStart != null || input.quietEnd != null) {
    if (input.quietStart == null || input.quietEnd == null) throw new BadInputError('notifications/invalid_quiet_hours', 'Quiet hours need both quietStart and quietEnd.', { field: input.quietStart == null ? 'quietStart' : 'quietEnd' });
    patch.quietHours = { start: input.quietStart, end: input.quietEnd };
  }
  if (input.reminderLeadMinutes != null) patch.reminderLeadMinutes = input.reminderLeadMinutes;
  if (input.digest != null) patch.digest = input.digest;
  return patch;
}
