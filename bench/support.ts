import pg from 'pg';
import { applyMigrations } from '../src/database/migrate';

/** Latency summary in milliseconds. */
export interface Stats {
  n: number;
  p50: number;
  p99: number;
  mean: number;
}

export function stats(samples: number[]): Stats {
  const s = [...samples].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? NaN;
  return { n: s.length, p50: at(0.5), p99: at(0.99), mean: s.reduce((a, b) => a + b, 0) / s.length };
}

export function fmt(st: Stats): string {
  return `p50 ${st.p50.toFixed(3)} ms  p99 ${st.p99.toFixed(3)} ms  (n=${st.n})`;
}

export async function timed<T>(fn: () => Promise<T>, into: number[]): Promise<T> {
  const t = process.hrtime.bigint();
  const out = await fn();
  into.push(Number(process.hrtime.bigint() - t) / 1e6);
  return out;
}

/**
 * A fresh, migrated database for a benchmark: DATABASE_URL's server if set, else the local
 * Postgres. Benchmarks need a real server; they do not run on the embedded database.
 */
export async function benchDatabase(name: string): Promise<string> {
  const base = new URL(process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres');
  const admin = new pg.Client({ connectionString: base.toString() });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(`/${name}`, base).toString();
  await applyMigrations(url);
  return url;
}
