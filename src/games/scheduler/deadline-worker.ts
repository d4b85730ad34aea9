import { Inject, Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { APP_CONFIG } from '../../config/config.module';
import type { AppConfig } from '../../config/config.schema';
import { PrismaService } from '../../database/prisma.service';
import { VersionConflictError } from '../../event-store/event-store.errors';
import { logger } from '../../logging/logger';
import { CLOCK, Clock } from '../game-clock';
import { DueJob, JobRunner } from './job-runner';

const LEASE_MS = 60_000;
const MAX_ATTEMPTS = 10;

/**
 * Fires deadlines, reminders and vacation ends. Jobs are rows claimed with FOR UPDATE SKIP
 * LOCKED and a lease, so with several server instances each job is taken by one of them; a
 * worker that dies mid-job loses its lease and another takes the job over (the job's commit is
 * idempotent, so it still happens once).
 */
@Injectable()
export class DeadlineWorker implements OnApplicationBootstrap, OnApplicationShutdown {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private stopped = false;

  constructor(
    private readonly prisma: PrismaService,
    private readonly runner: JobRunner,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    if (this.config.workers.enabled) this.schedule(0);
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.tick()
        .then(() => undefined)
        .catch((err) => logger().error({ err }, 'deadline worker tick failed'))
        .finally(() => this.schedule(this.config.workers.pollMs));
    }, ms);
  }

  /** Claims and runs every job due now; returns how many ran. Public for tests and benches. */
  async tick(limit = 20): Promise<number> {
    const now = this.clock.now();
    const jobs = await this.prisma.$queryRawUnsafe<Array<DueJob & { attempts: number; dueAt: Date }>>(
      `UPDATE scheduled_jobs SET locked_until = $2, attempts = attempts + 1
       WHERE id IN (
         SELECT id FROM scheduled_jobs
         WHERE status = 'pending' AND due_at <= $1 AND (locked_until IS NULL OR locked_until < $1)
         ORDER BY due_at LIMIT $3 FOR UPDATE SKIP LOCKED)
       RETURNING id, game_id AS "gameId", kind, game_version AS "gameVersion", side, attempts, due_at AS "dueAt"`,
      now,
      new Date(now.getTime() + LEASE_MS),
      limit,
    );
    // RETURNING keeps no order: run them in the order they fell due, as they would have run live.
    jobs.sort((a, b) => new Date(a.dueAt).getTime() - new Date(b.dueAt).getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    for (const job of jobs) await this.runOne(job);
    return jobs.length;
  }

  private async runOne(job: DueJob & { attempts: number }): Promise<void> {
    try {
      const result = await this.runner.run(job);
      if (typeof result === 'object') {
        // Only a job still pending: a commit meanwhile may have replaced it.
        await this.prisma.scheduledJob.updateMany({ where: { id: job.id, status: 'pending' }, data: { dueAt: result.early, lockedUntil: null, attempts: 0 } });
        return;
      }
      await this.prisma.scheduledJob.update({ where: { id: job.id }, data: { status: result === 'moot' ? 'cancelled' : 'done', doneAt: this.clock.now(), lockedUntil: null } });
    } catch (err) {
      // A player acted at the same moment: look again on the next tick.
      const retryInMs = err instanceof VersionConflictError ? 0 : Math.min(3_600_000, 1000 * 2 ** job.attempts);
      const failed = !(err instanceof VersionConflictError) && job.attempts >= MAX_ATTEMPTS;
      logger().warn({ err, jobId: job.id, gameId: job.gameId }, failed ? 'job failed for good' : 'job will be retried');
      // A commit that beat this job to the game may have cancelled it (its deadline replaced,
      // the game over): only a job still pending is put back for another try.
      await this.prisma.scheduledJob.updateMany({
        where: { id: job.id, status: 'pending' },
        data: { status: failed ? 'failed' : 'pending', lockedUntil: new Date(this.clock.now().getTime() + retryInMs), lastError: String((err as Error)?.message ?? err).slice(0, 500) },
      });
    }
  }
}
