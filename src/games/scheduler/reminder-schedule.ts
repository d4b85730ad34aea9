import { Inject, Injectable, Optional } from '@nestjs/common';
import { PrismaService } from '../../database/prisma.service';
import { logger } from '../../logging/logger';
import { NOTIFICATION_OUTBOX, NotificationOutbox } from '../../notifications/notification-intent';
import { CLOCK, Clock } from '../game-clock';
import { GameLoader } from '../game-loader';
import { planJobs, reminderLeads } from './job-planner';

/** Games with a deadline still to come in which the player holds a seat. */
const GAMES_SQL = `
SELECT DISTINCT s.game_id FROM seats s
JOIN scheduled_jobs d ON d.game_id = s.game_id AND d.kind = 'deadline' AND d.status = 'pending'
WHERE s.player_id = $1 AND ($2::text IS NULL OR s.game_id = $2)`;

const MOVE_SQL = `
UPDATE scheduled_jobs SET due_at = $4
WHERE game_id = $1 AND kind = 'reminder' AND game_version = $2 AND side = $3 AND status = 'pending'
RETURNING id`;

/**
 * A reminder skipped when the deadline was set (its time had passed) that a shorter lead now
 * puts in the future. Its id is fixed per deadline and side, so two changes at once add one job,
 * and none is added where a reminder for that deadline was ever planned or sent.
 */
const ADD_SQL = `
INSERT INTO scheduled_jobs (id, game_id, kind, game_version, side, due_at)
SELECT $4, $1, 'reminder', $2, $3, $5
WHERE NOT EXISTS (SELECT 1 FROM scheduled_jobs WHERE game_id = $1 AND kind = 'reminder' AND game_version = $2 AND side = $3)
ON CONFLICT (id) DO NOTHING`;

/**
 * Keeps a player's pending reminders in step with their reminder lead. A commit reads the lead
 * when it sets a deadline; a player who changes it later expects the reminder of the deadline
 * already running to move as well, not only the next one's.
 */
@Injectable()
export class ReminderSchedule {
  constructor(
    private readonly prisma: PrismaService,
    private readonly loader: GameLoader,
    @Inject(CLOCK) private readonly clock: Clock,
    @Optional() @Inject(NOTIFICATION_OUTBOX) private readonly outbox?: NotificationOutbox,
  ) {}

  /**
   * Reschedules the player's reminders for the deadlines now running, in one game or in all of
   * theirs, from the lead their settings now give. A reminder whose new time has passed is due
   * at once: the player asked to be told earlier than the old time. Returns how many jobs moved
   * or were added.
   */
  async leadChanged(playerId: string, gameId?: string): Promise<number> {
    if (!this.outbox) return 0;
    const games = (await this.prisma.pool.query<{ game_id: string }>(GAMES_SQL, [playerId, gameId ?? null])).rows;
    let changed = 0;
    for (const { game_id: id } of games) {
      // The settings are already saved: a game that cannot be rescheduled now keeps its old
      // reminder time rather than failing the change, and the others still move.
      changed += await this.reschedule(id, playerId).catch((err: unknown) => {
        logger().warn({ err, gameId: id, playerId }, 'reminder not rescheduled after a lead change');
        return 0;
      });
    }
    return changed;
  }

  private async reschedule(gameId: string, playerId: string): Promise<number> {
    const { state } = await this.loader.load(gameId);
    const deadline = state.deadline;
    if (state.status !== 'active' || !deadline?.at) return 0;
    const now = this.clock.now();
    const leads = reminderLeads(state, await this.outbox!.settingsFor(gameId, [playerId]));
    // The same plan a commit setting this deadline would make now (it leaves out reminders already past).
    const planned = planJobs(undefined, state, now, leads, deadline.id).add;
    let changed = 0;
    for (const side of deadline.sides.filter((s) => state.seats[s] === playerId)) {
      const due = planned.find((j) => j.kind === 'reminder' && j.side === side)?.dueAt;
      const moved = (await this.prisma.pool.query(MOVE_SQL, [gameId, deadline.id, side, due ?? now])).rowCount ?? 0;
      changed += moved;
      if (moved === 0 && due) changed += (await this.prisma.pool.query(ADD_SQL, [gameId, deadline.id, side, `job_reminder_${gameId}_${deadline.id}_${side}`, due])).rowCount ?? 0;
    }
    return changed;
  }
}
