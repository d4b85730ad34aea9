import pg from 'pg';
import request from 'supertest';
import { loadConfig } from '../../src/config/config.schema';
import { testDatabaseUrl, uniqueId } from '../support/database';
import { LogCapture } from '../support/log-capture';
import { apiApp, ApiApp, TestPlayer } from './support/api-app';

/** Two instances on one database: the rate limit is one budget, kept in api_rate_counters. */

const SYNC_MS = 50;
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

let db: pg.Pool;
beforeAll(() => {
  db = new pg.Pool({ connectionString: testDatabaseUrl(), max: 2 });
});
afterAll(async () => {
  await db.end();
});

/** What all instances have flushed for a key. */
async function stored(key: string): Promise<number> {
  const { rows } = await db.query<{ n: number }>('SELECT coalesce(sum(hits), 0)::int AS n FROM api_rate_counters WHERE key = $1', [key]);
  return rows[0]!.n;
}

async function until(what: string, check: () => Promise<boolean> | boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await sleep(10);
  }
}

const me = (app: ApiApp, p: TestPlayer) => request(app.http).get('/api/v1/me').set('Authorization', `Bearer ${p.token}`);

/**
 * Sends requests alternately to the instances until each has refused one in a row; returns how
 * many were let through, and those last refusals. After each request let through, waits until
 * its instance has flushed it: the other instance then decides on totals that miss at most the
 * requests the first let through within one flush interval (here one).
 */
async function exhaust(instances: ApiApp[], p: TestPlayer): Promise<{ allowed: number; refusals: request.Response[] }> {
  let allowed = 0;
  const refusals: request.Response[] = [];
  for (let i = 0; refusals.length < instances.length; i++) {
    if (i >= 100) throw new Error('the instances never both refused');
    const res = await me(instances[i % instances.length]!, p);
    if (res.status === 429) {
      refusals.push(res);
      continue;
    }
    expect(res.status).toBe(200);
    refusals.length = 0;
    allowed += 1;
    const flushed = allowed;
    await until(`${flushed} requests are flushed`, async () => (await stored(`player:${p.id}`)) >= flushed);
  }
  return { allowed, refusals };
}

describe('rate limits over two instances sharing the database', () => {
  const apps: ApiApp[] = [];
  afterEach(async () => {
    await Promise.all(apps.splice(0).map((a) => a.close()));
  });
  const twoInstances = async (env: Record<string, string>) => {
    apps.push(await apiApp(env), await apiApp(env));
    return apps as [ApiApp, ApiApp];
  };

  it('lets one player through about the limit in total (at most one more per other instance between flushes), then both refuse', async () => {
    const [a, b] = await twoInstances({ RATE_LIMIT_PER_TOKEN: '6', RATE_LIMIT_WINDOW_SECONDS: '3600', RATE_LIMIT_SYNC_MS: String(SYNC_MS) });
    const p = await a.player('Spread');
    const { allowed } = await exhaust([a, b], p);
    // Alone, each instance would have let 6 through: 12.
    expect(allowed).toBeGreaterThanOrEqual(6);
    expect(allowed).toBeLessThanOrEqual(6 + 1);
    for (const app of [a, b]) {
      const res = await me(app, p);
      expect(res.status).toBe(429);
      expect(res.headers['ratelimit-remaining']).toBe('0');
      expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(Number(res.headers['retry-after'])).toBeLessThanOrEqual(2 * 3600);
    }
    // Refused requests are not counted: nothing more reaches the table while they keep coming.
    for (let i = 0; i < 10; i++) expect((await me(i % 2 ? b : a, p)).status).toBe(429);
    await sleep(4 * SYNC_MS);
    expect(await stored(`player:${p.id}`)).toBe(allowed);
  });

  it('lets requests through again on both instances once the Retry-After they gave has passed', async () => {
    const [a, b] = await twoInstances({ RATE_LIMIT_PER_TOKEN: '3', RATE_LIMIT_WINDOW_SECONDS: '2', RATE_LIMIT_SYNC_MS: String(SYNC_MS) });
    const p = await a.player('Patient');
    // Each instance's own refusal: asking again could already be let through (the estimate
    // falls as the window slides).
    const waits = (await exhaust([a, b], p)).refusals.map((res) => Number(res.headers['retry-after']));
    // At most until the end of the next window (the sliding estimate lets the requests of the
    // window before go one by one).
    for (const w of waits) expect(w).toBeGreaterThanOrEqual(1);
    for (const w of waits) expect(w).toBeLessThanOrEqual(2 * 2);
    await sleep(Math.max(...waits) * 1000);
    expect((await me(a, p)).status).toBe(200);
    expect((await me(b, p)).status).toBe(200);
  });

  it('weighs in the window before with what every instance counted in it, also on an instance that had no share of it', async () => {
    const windowMs = 3000;
    const [a, b] = await twoInstances({ RATE_LIMIT_PER_TOKEN: '3', RATE_LIMIT_WINDOW_SECONDS: String(windowMs / 1000), RATE_LIMIT_SYNC_MS: String(SYNC_MS) });
    const p = await a.player('Switching');
    const key = `player:${p.id}`;
    // Windows are fixed on the clock (the instances run in this process, on its clock).
    const nextWindow = () => sleep(windowMs - (Date.now() % windowMs) + 20);
    await nextWindow();
    expect([(await me(b, p)).status, (await me(b, p)).status, (await me(b, p)).status, (await me(b, p)).status]).toEqual([200, 200, 200, 429]);
    await until('b has flushed', async () => (await stored(key)) === 3);
    await nextWindow();
    // The caller moves to the other instance: the one request a flush interval lets through...
    expect((await me(a, p)).status).toBe(200);
    await until('a has flushed', async () => (await stored(key)) === 4);
    // ...and then a knows the 3 of the window before: it weighs 3 until a third of this window
    // has passed, 2 until two thirds, so with its own request, 3 or more: refused.
    const refused = await me(a, p);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  });

  it('writes what an instance counted when it shuts down', async () => {
    const app = await apiApp({ RATE_LIMIT_WINDOW_SECONDS: '3600', RATE_LIMIT_SYNC_MS: '59000' });
    const p = await app.player('Leaving');
    expect((await me(app, p)).status).toBe(200);
    expect(await stored(`player:${p.id}`)).toBe(0);
    await app.close();
    expect(await stored(`player:${p.id}`)).toBe(1);
  });
});

describe('rate limits while the database refuses the flush', () => {
  it('keeps counting on the instance, logs the outage once, and flushes what it counted once the database accepts it again', async () => {
    const logs = new LogCapture();
    const app = await apiApp({ RATE_LIMIT_PER_TOKEN: '4', RATE_LIMIT_WINDOW_SECONDS: '3600', RATE_LIMIT_SYNC_MS: String(SYNC_MS), LOG_LEVEL: 'info' }, { logs });
    const name = uniqueId('rl_refuse').replace(/[^a-z0-9_]/gi, '_').toLowerCase();
    try {
      const p = await app.player('Offline');
      const key = `player:${p.id}`;
      // A real failure of the flush statement, for this player's rows only: other tests' instances
      // flushing into the same table meanwhile are not disturbed. The sequence (not rolled back
      // with the failed statement) counts the refused flushes.
      await db.query(`CREATE SEQUENCE ${name}`);
      await db.query(`CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          IF NEW.key = '${key}' THEN
            PERFORM nextval('${name}');
            RAISE EXCEPTION 'refused by the test';
          END IF;
          RETURN NEW;
        END $$`);
      await db.query(`CREATE TRIGGER ${name} BEFORE INSERT ON api_rate_counters FOR EACH ROW EXECUTE FUNCTION ${name}()`);
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) statuses.push((await me(app, p)).status);
      expect(statuses).toEqual([200, 200, 200, 200, 429]);
      await until('three flushes have been refused', async () => {
        const { rows } = await db.query<{ n: string; called: boolean }>(`SELECT last_value AS n, is_called AS called FROM ${name}`);
        return rows[0]!.called && Number(rows[0]!.n) >= 3;
      });
      expect((await me(app, p)).status).toBe(429);
      const mine = () => logs.lines.filter((l) => l['component'] === 'rate-limit');
      expect(mine()).toEqual([expect.objectContaining({ level: 'warn', err: expect.objectContaining({ message: 'refused by the test' }) })]);

      await db.query(`DROP TRIGGER ${name} ON api_rate_counters`);
      await until('the counts kept during the outage are flushed', async () => (await stored(key)) === 4);
      await until('the recovery is logged', () => mine().length === 2);
      expect(mine()[1]).toMatchObject({ level: 'info' });
      expect((await me(app, p)).status).toBe(429);
    } finally {
      await db.query(`DROP TRIGGER IF EXISTS ${name} ON api_rate_counters`);
      await db.query(`DROP FUNCTION IF EXISTS ${name}()`);
      await db.query(`DROP SEQUENCE IF EXISTS ${name}`);
      await app.close();
    }
  });
});

describe('RATE_LIMIT_SYNC_MS', () => {
  it.each([
    [{ RATE_LIMIT_SYNC_MS: '5' }],
    [{ RATE_LIMIT_SYNC_MS: 'often' }],
    [{ RATE_LIMIT_SYNC_MS: '2000', RATE_LIMIT_WINDOW_SECONDS: '2' }],
  ])('refuses %j', (env) => {
    expect(() => loadConfig(env)).toThrow(/RATE_LIMIT_SYNC_MS/);
  });

  it('defaults to 200 ms', () => {
    expect(loadConfig({}).api.rateLimit.syncMs).toBe(200);
  });
});
