import { Injectable, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { PrismaClient } from './generated/client';
import type { DatabaseRuntime } from './database';

/**
 * The Prisma client over the pg driver adapter (no native query engine). The pg pool is ours
 * and shared: the event store's append, the one hot query, goes straight through it, because
 * Prisma adds a fixed ~0.3 ms per raw query that would double the cost of an append.
 */
@Injectable()
export class PrismaService extends PrismaClient implements OnModuleInit, OnModuleDestroy {
  readonly pool: pg.Pool;

  constructor(readonly runtime: DatabaseRuntime) {
    const pool = new pg.Pool({ connectionString: runtime.url, max: runtime.poolMax, connectionTimeoutMillis: 5000 });
    // An idle connection that dies (server restart, terminated backend) must not crash the process.
    pool.on('error', () => undefined);
    super({
      adapter: new PrismaPg(pool),
      // 'pretty' reads the caller's source to print a code frame: tens of ms on every failed query.
      errorFormat: 'minimal',
    });
    this.pool = pool;
  }

  /**
   * The name to give a prepared statement, or undefined where names must not be used. A named
   * statement is parsed and planned once per connection; but on PGlite (the embedded database,
   * or a test run's) every connection shares one session, where a second connection's PREPARE
   * of the same name would collide with the first's. Until the server has said which it is, no
   * name: the caller may be in a transaction holding the pool's only connection, so waiting for
   * the answer would wait for that transaction to end.
   */
  async statementName(name: string): Promise<string | undefined> {
    if (this.namesAllowed === undefined) {
      this.namesAllowed = this.runtime.kind === 'embedded' ? false : null;
      if (this.namesAllowed === null) {
        this.pool.query<{ v: string }>('SELECT version() AS v').then(
          (r) => (this.namesAllowed = !/pglite/i.test(r.rows[0]?.v ?? '')),
          () => (this.namesAllowed = undefined),
        );
      }
    }
    return this.namesAllowed === true ? name : undefined;
  }
  /** undefined: not asked yet; null: asked, no answer yet. */
  private namesAllowed: boolean | null | undefined;

  /**
   * A name (for statementName) for a statement assembled from parts (a commit's CTEs), one per distinct text: the
   * parts vary little, and planning such a statement costs more than running it. Bounded, so
   * an unforeseen variety of texts cannot grow every connection's statement cache without end.
   */
  nameFor(text: string): string | undefined {
    let name = this.textNames.get(text);
    if (name === undefined) {
      if (this.textNames.size >= MAX_ASSEMBLED_STATEMENTS) return undefined;
      name = `fieldpost_assembled_${this.textNames.size + 1}`;
      this.textNames.set(text, name);
    }
    return name;
  }
  private readonly textNames = new Map<string, string>();

  /**
   * The client's first query loads its query compiler: about a second on a loaded machine, which
   * would otherwise fall on the first request, such as a health probe with a 2 s budget that
   * then reports a database that is up as down.
   */
  async onModuleInit(): Promise<void> {
    await this.$queryRawUnsafe('SELECT 1');
  }

  async onModuleDestroy(): Promise<void> {
    await this.$disconnect();
    await this.pool.end().catch(() => undefined);
  }
}

const MAX_ASSEMBLED_STATEMENTS = 200;

/** The client handle inside an interactive transaction. */
export type Tx = Omit<PrismaClient, '$connect' | '$disconnect' | '$on' | '$transaction' | '$extends'>;
