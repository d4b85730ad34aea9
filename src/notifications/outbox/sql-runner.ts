import type pg from 'pg';
import type { Tx } from '../../database/prisma.service';

/** Runs one SQL statement: inside the caller's Prisma transaction, or on a pg client. */
export type SqlRunner = (sql: string, params: unknown[]) => Promise<Array<Record<string, unknown>>>;

export function txRunner(tx: Tx): SqlRunner {
  return (sql, params) => tx.$queryRawUnsafe<Array<Record<string, unknown>>>(sql, ...params);
}

export function pgRunner(client: pg.ClientBase | pg.Pool): SqlRunner {
  return async (sql, params) => (await client.query(sql, params)).rows as Array<Record<string, unknown>>;
}
