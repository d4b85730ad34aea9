import type pg from 'pg';
import type { Tx } from '../../database/prisma.service';

/**
 * Runs one SQL statement: inside the caller's Prisma transaction, or on a pg client. `name`: as
 * that prepared statement, where the runner can (only ever pass the same SQL under one name).
 */
export type SqlRunner = (sql: string, params: unknown[], name?: string) => Promise<Array<Record<string, unknown>>>;

export function txRunner(tx: Tx): SqlRunner {
  return (sql, params) => tx.$queryRawUnsafe<Array<Record<string, unknown>>>(sql, ...params);
}

export function pgRunner(client: pg.ClientBase | pg.Pool): SqlRunner {
  return async (sql, params, name) => (await client.query({ text: sql, values: params, ...(name ? { name } : {}) })).rows as Array<Record<string, unknown>>;
}
