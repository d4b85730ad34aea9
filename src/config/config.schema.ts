import { compile as compileTrust } from 'proxy-addr';
import { z } from 'zod';

/**
 * Every setting comes from the environment (documented in .env.example). A bad or missing
 * value stops the process with a message naming the variable, before anything starts.
 */
const port = z.coerce.number().int().min(0).max(65535);
const bool = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');

/** A phase's time limit in hours: a game's own, and the server's default that stands in for it. */
export const DEADLINE_HOURS = { min: 1, max: 24 * 30 } as const;

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
  DEFAULT_DEADLINE_HOURS: z.coerce.number().min(DEADLINE_HOURS.min).max(DEADLINE_HOURS.max).default(72),
  /** Run the deadline scheduler and the notification worker in this process. */
  WORKERS_ENABLED: bool.default(true),
  /** How often workers poll for due work (milliseconds). */
  WORKER_POLL_MS: z.coerce.number().int().min(10).max(600_000).default(1000),
  /** Notifications (README: Notifications). No SMTP_HOST: the email channel is off. */
  SMTP_HOST: z.string().min(1).optional(),
  SMTP_PORT: port.default(1025),
  /** Implicit TLS from the first byte (port 465); otherwise STARTTLS when the server offers it. */
  SMTP_SECURE: bool.default(false),
  /** Refuse to send unless STARTTLS succeeds. */
  SMTP_REQUIRE_TLS: bool.default(false),
  SMTP_TLS_REJECT_UNAUTHORIZED: bool.default(true),
  SMTP_USER: z.string().min(1).optional(),
  SMTP_PASSWORD: z.string().min(1).optional(),
  MAIL_FROM: z.string().min(3).default('Fieldpost <fieldpost@localhost>'),
  /** Let webhook and Discord URLs point at private, loopback or link-local addresses (SSRF guard off). */
  NOTIFY_ALLOW_PRIVATE_TARGETS: bool.default(false),
  NOTIFY_HTTP_TIMEOUT_MS: z.coerce.number().int().min(50).max(120_000).default(10_000),
  /** How long a worker owns a claimed delivery; after that another worker retries it. */
  NOTIFY_LEASE_MS: z.coerce.number().int().min(100).max(3_600_000).default(120_000),
  /** Longest one send may take, all steps together; then it is given up and retried later. */
  NOTIFY_SEND_TIMEOUT_MS: z.coerce.number().int().min(100).max(3_600_000).default(300_000),
  NOTIFY_CONCURRENCY: z.coerce.number().int().min(1).max(500).default(32),
  NOTIFY_RETRY_BASE_MS: z.coerce.number().int().min(1).max(3_600_000).default(2000),
  NOTIFY_RETRY_MAX_DELAY_MS: z.coerce.number().int().min(1).max(86_400_000).default(3_600_000),
  /** After this long since the first attempt a failing delivery is dead-lettered. */
  NOTIFY_RETRY_PERIOD_SECONDS: z.coerce.number().int().min(1).max(30 * 86_400).default(86_400),
  /** Local hour (0-23) of the daily digest mail. */
  NOTIFY_DIGEST_HOUR: z.coerce.number().int().min(0).max(23).default(18),
  NOTIFY_REMINDER_MINUTES: z.coerce.number().int().min(0).max(30 * 1440).default(720),
  /** How long a rotated-out webhook secret still signs (hours). */
  NOTIFY_SECRET_GRACE_HOURS: z.coerce.number().min(0).max(24 * 30).default(24),
  /** Signs unsubscribe links; set it when links must outlive a restart or span instances. */
  NOTIFY_TOKEN_SECRET: z.string().min(32).optional(),
  /** API (README: API). GraphQL introspection; unset: on except in production. */
  GRAPHQL_INTROSPECTION: bool.optional(),
  GRAPHQL_MAX_DEPTH: z.coerce.number().int().min(2).max(50).default(6),
  GRAPHQL_MAX_ALIASES: z.coerce.number().int().min(0).max(500).default(15),
  GRAPHQL_MAX_COST: z.coerce.number().int().min(10).max(1_000_000).default(20_000),
  GRAPHQL_MAX_TOKENS: z.coerce.number().int().min(50).max(1_000_000).default(2000),
  GRAPHQL_MAX_DIRECTIVES: z.coerce.number().int().min(0).max(500).default(20),
  /** Largest GraphQL or REST request body, and graphql-ws message, the API reads (bytes); the app's JSON parser caps all bodies at 1 MB. */
  API_MAX_BODY_BYTES: z.coerce.number().int().min(1024).max(1_048_576).default(262_144),
  /** Largest page of any list (the `first` argument, the `limit` query parameter). */
  API_MAX_PAGE_SIZE: z.coerce.number().int().min(1).max(1000).default(100),
  /** Requests per window per player (all its API tokens); anonymous requests, and refused tokens, per client address. */
  RATE_LIMIT_WINDOW_SECONDS: z.coerce.number().int().min(1).max(86_400).default(60),
  RATE_LIMIT_PER_TOKEN: z.coerce.number().int().min(1).max(1_000_000).default(300),
  RATE_LIMIT_ANONYMOUS: z.coerce.number().int().min(1).max(1_000_000).default(60),
  /** How often an instance adds its rate-limit counts to the other instances' in the database (milliseconds). */
  RATE_LIMIT_SYNC_MS: z.coerce.number().int().min(10).max(60_000).default(200),
  MAGIC_LINK_TTL_MINUTES: z.coerce.number().int().min(1).max(24 * 60).default(15),
  MAGIC_LINKS_PER_HOUR: z.coerce.number().int().min(1).max(1000).default(5),
  /** Secret mixed into the stored hashes of API tokens and magic links (HMAC-SHA256). */
  TOKEN_PEPPER: z.string().min(16).optional(),
  /** How often a server instance looks for new events to push to subscriptions (milliseconds). */
  SUBSCRIPTION_POLL_MS: z.coerce.number().int().min(10).max(60_000).default(250),
  WS_CONNECTIONS_PER_PLAYER: z.coerce.number().int().min(1).max(1000).default(10),
  WS_OPERATIONS_PER_CONNECTION: z.coerce.number().int().min(1).max(1000).default(50),
  /** Web pages that may call the API from another origin: `*`, `none`, or origins separated by commas. */
  CORS_ORIGINS: z
    .string()
    .default('*')
    .refine((v) => v === '*' || v === 'none' || corsOrigins(v).every(isOrigin), 'CORS_ORIGINS is *, none, or origins such as https://app.example.org separated by commas'),
  /**
   * Reverse proxies whose X-Forwarded-For names the client (rate limits per client address):
   * how many hops to trust, or their addresses. Unset: none, the socket's address is the client's.
   */
  TRUST_PROXY: z
    .string()
    .optional()
    .refine((v) => v === undefined || trustProxy(v) !== null, 'TRUST_PROXY is a number of proxy hops (0-10), or proxy addresses and subnets separated by commas (loopback, linklocal, uniquelocal, 10.0.0.0/8, ::1)'),
});

const corsOrigins = (v: string) => v.split(',').map((o) => o.trim()).filter((o) => o !== '');

/** TRUST_PROXY as Express's `trust proxy` takes it, or null when it is not one of its two forms here. */
function trustProxy(v: string): number | string[] | null {
  if (/^\d+$/.test(v.trim())) return Number(v) <= 10 ? Number(v) : null;
  const list = v.split(',').map((a) => a.trim()).filter((a) => a !== '');
  try {
    // Express compiles the list with the same library: a bad entry would throw only there, at start.
    compileTrust(list);
    return list.length > 0 ? list : null;
  } catch {
    return null;
  }
}

function isOrigin(o: string): boolean {
  try {
    const url = new URL(o);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.origin === o;
  } catch {
    return false;
  }
}

export type Env = z.infer<typeof envSchema>;

export interface AppConfig {
  env: Env['NODE_ENV'];
  host: string;
  port: number;
  /**
   * Where links in mail and webhooks point. Without PUBLIC_URL it follows the port the server
   * is bound to (`listen` sets it once bound), since PORT=0 only names a port after binding.
   */
  publicUrl: string;
  publicUrlGiven: boolean;
  logLevel: Env['LOG_LEVEL'];
  database: { url: string | undefined; poolMax: number; dataDir: string; migrateOnStart: boolean };
  games: { defaultDeadlineHours: number };
  workers: { enabled: boolean; pollMs: number };
  notifications: NotificationsConfig;
  api: ApiConfig;
}

export interface ApiConfig {
  introspection: boolean;
  graphql: { maxDepth: number; maxAliases: number; maxCost: number; maxTokens: number; maxDirectives: number };
  maxBodyBytes: number;
  maxPageSize: number;
  /** Counted over all instances sharing the database, which exchange their counts every syncMs. */
  rateLimit: { windowMs: number; perToken: number; anonymous: number; syncMs: number };
  magicLinkTtlMinutes: number;
  /** Sign-in links one address may be sent per hour (a mailbox is not a target for others' requests). */
  magicLinksPerHour: number;
  tokenPepper: string | undefined;
  subscriptionPollMs: number;
  /** Open graphql-ws connections one player may hold on one instance. */
  wsConnectionsPerPlayer: number;
  /** Operations (subscriptions, mostly) running at once on one graphql-ws connection. */
  wsOperationsPerConnection: number;
  /** Origins whose pages may call the API (CORS): any, none, or these. */
  corsOrigins: '*' | 'none' | string[];
  /** Express's `trust proxy`: false (none), a hop count, or proxy addresses. */
  trustProxy: false | number | string[];
}

export interface NotificationsConfig {
  /** Null when SMTP_HOST is unset: the email channel is off. */
  smtp: { host: string; port: number; secure: boolean; requireTls: boolean; rejectUnauthorized: boolean; user?: string; password?: string } | null;
  mailFrom: string;
  allowPrivateTargets: boolean;
  httpTimeoutMs: number;
  leaseMs: number;
  /** One send, all its steps together; the lease is renewed meanwhile (SMTP timeouts are per step). */
  sendTimeoutMs: number;
  concurrency: number;
  retry: { baseMs: number; maxDelayMs: number; periodMs: number };
  digestHour: number;
  defaultReminderMinutes: number;
  secretGraceMs: number;
  tokenSecret: string | undefined;
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
  if (e.NOTIFY_LEASE_MS <= e.NOTIFY_HTTP_TIMEOUT_MS) {
    throw new ConfigError([{ variable: 'NOTIFY_LEASE_MS', message: 'must be longer than NOTIFY_HTTP_TIMEOUT_MS, or a slow send would be retried while still running' }]);
  }
  if (e.NOTIFY_SEND_TIMEOUT_MS < e.NOTIFY_HTTP_TIMEOUT_MS) {
    throw new ConfigError([{ variable: 'NOTIFY_SEND_TIMEOUT_MS', message: 'must be at least NOTIFY_HTTP_TIMEOUT_MS, or a request within its own time limit would be given up' }]);
  }
  if (e.RATE_LIMIT_SYNC_MS >= e.RATE_LIMIT_WINDOW_SECONDS * 1000) {
    throw new ConfigError([{ variable: 'RATE_LIMIT_SYNC_MS', message: "must be shorter than RATE_LIMIT_WINDOW_SECONDS, or instances would learn of each other's requests only after the window" }]);
  }
  return {
    env: e.NODE_ENV,
    host: e.HOST,
    port: e.PORT,
    publicUrl: localUrl(e.PUBLIC_URL, e.PORT),
    publicUrlGiven: e.PUBLIC_URL !== undefined,
    logLevel: e.LOG_LEVEL,
    database: {
      url: e.DATABASE_URL,
      poolMax: e.DATABASE_POOL_MAX,
      dataDir: e.DATA_DIR,
      migrateOnStart: e.MIGRATE_ON_START,
    },
    games: { defaultDeadlineHours: e.DEFAULT_DEADLINE_HOURS },
    workers: { enabled: e.WORKERS_ENABLED, pollMs: e.WORKER_POLL_MS },
    notifications: {
      smtp: e.SMTP_HOST
        ? {
            host: e.SMTP_HOST,
            port: e.SMTP_PORT,
            secure: e.SMTP_SECURE,
            requireTls: e.SMTP_REQUIRE_TLS,
            rejectUnauthorized: e.SMTP_TLS_REJECT_UNAUTHORIZED,
            ...(e.SMTP_USER ? { user: e.SMTP_USER } : {}),
            ...(e.SMTP_PASSWORD ? { password: e.SMTP_PASSWORD } : {}),
          }
        : null,
      mailFrom: e.MAIL_FROM,
      allowPrivateTargets: e.NOTIFY_ALLOW_PRIVATE_TARGETS,
      httpTimeoutMs: e.NOTIFY_HTTP_TIMEOUT_MS,
      leaseMs: e.NOTIFY_LEASE_MS,
      sendTimeoutMs: e.NOTIFY_SEND_TIMEOUT_MS,
      concurrency: e.NOTIFY_CONCURRENCY,
      retry: { baseMs: e.NOTIFY_RETRY_BASE_MS, maxDelayMs: e.NOTIFY_RETRY_MAX_DELAY_MS, periodMs: e.NOTIFY_RETRY_PERIOD_SECONDS * 1000 },
      digestHour: e.NOTIFY_DIGEST_HOUR,
      defaultReminderMinutes: e.NOTIFY_REMINDER_MINUTES,
      secretGraceMs: e.NOTIFY_SECRET_GRACE_HOURS * 3_600_000,
      tokenSecret: e.NOTIFY_TOKEN_SECRET,
    },
    api: {
      introspection: e.GRAPHQL_INTROSPECTION ?? e.NODE_ENV !== 'production',
      graphql: {
        maxDepth: e.GRAPHQL_MAX_DEPTH,
        maxAliases: e.GRAPHQL_MAX_ALIASES,
        maxCost: e.GRAPHQL_MAX_COST,
        maxTokens: e.GRAPHQL_MAX_TOKENS,
        maxDirectives: e.GRAPHQL_MAX_DIRECTIVES,
      },
      maxBodyBytes: e.API_MAX_BODY_BYTES,
      maxPageSize: e.API_MAX_PAGE_SIZE,
      rateLimit: { windowMs: e.RATE_LIMIT_WINDOW_SECONDS * 1000, perToken: e.RATE_LIMIT_PER_TOKEN, anonymous: e.RATE_LIMIT_ANONYMOUS, syncMs: e.RATE_LIMIT_SYNC_MS },
      magicLinkTtlMinutes: e.MAGIC_LINK_TTL_MINUTES,
      magicLinksPerHour: e.MAGIC_LINKS_PER_HOUR,
      tokenPepper: e.TOKEN_PEPPER,
      subscriptionPollMs: e.SUBSCRIPTION_POLL_MS,
      wsConnectionsPerPlayer: e.WS_CONNECTIONS_PER_PLAYER,
      wsOperationsPerConnection: e.WS_OPERATIONS_PER_CONNECTION,
      corsOrigins: e.CORS_ORIGINS === '*' || e.CORS_ORIGINS === 'none' ? e.CORS_ORIGINS : corsOrigins(e.CORS_ORIGINS),
      trustProxy: e.TRUST_PROXY === undefined ? false : trustProxy(e.TRUST_PROXY)!,
    },
  };
}

/** PUBLIC_URL without its trailing slash, or this host at `port` when it is not set. */
export function localUrl(publicUrl: string | undefined, port: number): string {
  return (publicUrl ?? `http://localhost:${port}`).replace(/\/$/, '');
}
