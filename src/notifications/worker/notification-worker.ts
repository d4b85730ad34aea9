import { randomUUID } from 'node:crypto';
import { Inject, Injectable, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { APP_CONFIG } from '../../config/config.module';
import type { AppConfig } from '../../config/config.schema';
import { logger } from '../../logging/logger';
import { Clock, NOTIFICATION_CLOCK } from '../clock';
import { DeliveryProcessor } from './delivery-processor';
import { DeliveryRepository } from './delivery.repository';

/**
 * Polls for due deliveries and keeps up to NOTIFY_CONCURRENCY of them in flight: it claims as
 * many rows as it has free slots, so one slow receiver holds one slot, not a whole batch. It
 * claims again once a quarter of the slots are free (one claim query per row would cap a
 * worker at a few hundred sends a second), at once while there is work, and every
 * WORKER_POLL_MS when there is none.
 */
@Injectable()
export class NotificationWorker implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly log = logger().child({ component: 'notifications' });
  private readonly inFlight = new Set<Promise<void>>();
  private running = false;
  private loop: Promise<void> | null = null;
  private wake: (() => void) | null = null;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly repo: DeliveryRepository,
    private readonly processor: DeliveryProcessor,
    @Inject(NOTIFICATION_CLOCK) private readonly clock: Clock,
  ) {}

  onApplicationBootstrap(): void {
    if (this.config.workers.enabled) this.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.stop();
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  /** Stops claiming, then waits for the sends in flight (each bounded by its timeout). */
  async stop(): Promise<void> {
    this.running = false;
    this.wake?.();
    await this.loop;
    this.loop = null;
    await Promise.allSettled([...this.inFlight]);
  }

  /** Claims and sends whatever is due now, waiting for all of it; returns how many it claimed. */
  async drain(): Promise<number> {
    let total = 0;
    for (;;) {
      const claimed = await this.claimInto(this.config.notifications.concurrency);
      total += claimed;
      await Promise.allSettled([...this.inFlight]);
      if (claimed === 0) return total;
    }
  }

  private async run(): Promise<void> {
    const concurrency = this.config.notifications.concurrency;
    const batch = Math.max(1, Math.floor(concurrency / 4));
    while (this.running) {
      const free = concurrency - this.inFlight.size;
      if (free < batch) {
        await Promise.race([...this.inFlight]);
        continue;
      }
      let claimed = 0;
      try {
        claimed = await this.claimInto(free);
      } catch (err) {
        this.log.error({ err }, 'claiming notification deliveries failed');
      }
      if (claimed < free && this.running) await this.sleep(this.config.workers.pollMs);
    }
  }

  private async claimInto(limit: number): Promise<number> {
    const rows = await this.repo.claim(limit, this.clock.now(), this.config.notifications.leaseMs, randomUUID());
    for (const row of rows) {
      const p: Promise<void> = this.processor.process(row).finally(() => {
        this.inFlight.delete(p);
        this.wake?.();
      });
      this.inFlight.add(p);
    }
    return rows.length;
  }

  /** Waits for the poll interval, or less when a send finishes or the worker stops. */
  private sleep(ms: number): Promise<void> {
    return new Promise((done) => {
      const timer = setTimeout(finish, ms);
      function finish(): void {
        clearTimeout(timer);
        done();
      }
      this.wake = () => {
        this.wake = null;
        finish();
      };
    });
  }
}
