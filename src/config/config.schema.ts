import { z } from 'zod';

/**
 * Every setting comes from the environment (documented in .env.example). A bad or missing
 * value stops the process with a message naming the variable, before anything starts.
 */
const port = z.coerce.number().int().min(0).max(65535);
const bool = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');

export const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().min(1).default('127.0.0.1'),
  PORT: port.default(3000),
  PUBLIC_URL: z.url({ protocol: /^https?$/ }).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\/.+/, 'must be a postgres:// or postgresql:// URL')
    .optional(),
  DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(200).default(10),
  DATA_DIR: z.string().min(1).default('./data'),
  MIGRATE_ON_START: bool.default(true),
  /** Default time limit of a phase for new games (hours). */
  DEFAULT_DEADLINE_HOURS: z.coerce.number().positive().max(24 * 60).default(72),
  /** Run the deadline scheduler and the notification worker in this process. */
  WORKERS_ENABLED: bool.default(true),
  /** How often workers poll for due work (milliseconds). */
  WORKER_POLL_MS: z.coerce.number().int().min(10).max(600_000).default(1000),
});

export type Env = z.infer<typeof envSchema>;

export interface AppConfig {
  env: Env['NODE_ENV'];
  host: string;
  port: number;
  publicUrl: string;
  logLevel: Env['LOG_LEVEL'];
  database: { url: string | undefined; poolMax: number; dataDir: string; migrateOnStart: boolean };
  games: { defaultDeadlineHours: number };
  workers: { enabled: boolean; pollMs: number };
}

export class ConfigError extends Error {
  constructor(readonly problems: Array<{ variable: string; message: string }>) {
    super(
      'Invalid configuration:\n' +
        problems.map((p) => `  ${p.variable}: ${p.message}`).join('\n') +
        '\nSee .env.example for every setting.',
    );
    this.name = 'ConfigError';
  }
}

/** Empty strings count as unset, as in most .env tooling. */
function withoutBlanks(source: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(source)) if (v !== undefined && v !== '') out[k] = v;
  return out;
}

export function loadConfig(source: NodeJS.ProcessEnv): AppConfig {
  const parsed = envSchema.safeParse(withoutBlanks(source));
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((i) => ({ variable: String(i.path[0] ?? '?'), message: i.message })),
    );
  }
  const e = parsed.data;
  return {
    env: e.NODE_ENV,
    host: e.HOST,
    port: e.PORT,
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, ''),
    logLevel: e.LOG_LEVEL,
    database: {
      url: e.DATABASE_URL,
      poolMax: e.DATABASE_POOL_MAX,
      dataDir: e.DATA_DIR,
      migrateOnStart: e.MIGRATE_ON_START,
    },
    games: { defaultDeadlineHours: e.DEFAULT_DEADLINE_HOURS },
    workers: { enabled: e.WORKERS_ENABLED, pollMs: e.WORKER_POLL_MS },
  };
}
