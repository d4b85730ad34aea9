/** How long before a deadline a player wants the reminder (their notification preference). */
export interface ReminderLeadSource {
  reminderLeadMinutes(playerId: string, gameId: string): Promise<number>;
}
export const REMINDER_LEAD = Symbol('REMINDER_LEAD');
export const DEFAULT_REMINDER_LEAD_MINUTES = 12 * 60;
