import { Injectable, OnModuleDestroy } from '@nestjs/common';
import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from './generated/client';
import type { DatabaseRuntime } from './database';

/** The Prisma client over the pg driver adapter (no native query engine). */
@Injectable()
export class PrismaService extends PrismaClient implements OnModuleDestroy {
  constructor(readonly runtime: DatabaseRuntime) {
    super({
      adapter: new PrismaPg({ connectionString: runtime.url, max: runtime.poolMax, connectionTimeoutMillis: 5000 }),
      // 'pretty' reads the caller's source to print a code frame: tens of ms on every failed query.
      errorFormat: 'minimal',
    });
  }

  async onModuleDestroy(): Promise<void> {
    await this.$disconnect();
  }
}

/** The client handle inside an interactive transaction. */
export type Tx = Omit<PrismaClient, '$connect' | '$disconnect' | '$on' | '$transaction' | '$extends'>;
