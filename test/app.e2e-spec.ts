import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import request from 'supertest';
import { createApp, RunningApp } from '../src/bootstrap';
import { loadConfig } from '../src/config/config.schema';
import { testConfig, testDatabaseUrl, uniqueId } from './support/database';
import { LogCapture } from './support/log-capture';

describe('the app on the test database', () => {
  let running: RunningApp;
  const logs = new LogCapture();

  beforeAll(async () => {
    running = await createApp(testConfig({ LOG_LEVEL: 'info' }), logs);
  });
  afterAll(async () => {
    await running.close();
  });

  it('answers /health with 200 and the database status', async () => {
    const res = await request(running.app.getHttpServer()).get('/health').expect(200);
    expect(res.body).toMatchObject({ status: 'ok', database: { status: 'up', kind: 'postgres' } });
  });

  it('tags every log line of a request with its request id, and echoes the id', async () => {
    const id = uniqueId('req');
    const res = await request(running.app.getHttpServer()).get('/health').set('X-Request-Id', id).expect(200);
    expect(res.headers['x-request-id']).toBe(id);
    const mine = logs.lines.filter((l) => l['requestId'] === id);
    expect(mine.length).toBeGreaterThan(0);
    expect(mine.some((l) => l['msg'] === 'request completed' && l['status'] === 200)).toBe(true);
    const generated = await request(running.app.getHttpServer()).get('/health');
    expect(generated.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('answers an unknown route with a 404 problem document', async () => {
    const res = await request(running.app.getHttpServer()).get('/no/such/route').expect(404);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({ status: 404, code: 'http/not_found', title: 'Not Found' });
  });

  it('answers malformed JSON with a 400 problem document, never a 500 or a stack', async () => {
    const res = await request(running.app.getHttpServer())
      .post('/health')
      .set('Content-Type', 'application/json')
      .send('{"not json')
      .expect(400);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({ status: 400, code: 'http/malformed_body' });
    expect(res.body.detail).toMatch(/JSON/);
    expect(JSON.stringify(res.body)).not.toMatch(/at \w+ \(|node_modules/);
  });
});

describe('/health when the database goes away', () => {
  it('turns 503 when Postgres refuses connections, and 200 again when it is back', async () => {
    const base = new URL(testDatabaseUrl());
    if (base.port === '' || process.env.TEST_DATABASE_KIND?.startsWith('embedded')) return; // covered below on PGlite
    const dbName = `fieldpost_health_${process.pid}_${Date.now()}`;
    const admin = new pg.Client({ connectionString: new URL('/postgres', base).toString() });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${dbName}`);
    const url = new URL(`/${dbName}`, base).toString();
    const running = await createApp(testConfig({ DATABASE_URL: url, DATABASE_POOL_MAX: '2' }));
    try {
      await request(running.app.getHttpServer()).get('/health').expect(200);
      await admin.query(`ALTER DATABASE ${dbName} ALLOW_CONNECTIONS false`);
      await admin.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1`, [dbName]);
      const down = await request(running.app.getHttpServer()).get('/health').expect(503);
      expect(down.body).toMatchObject({ status: 'error', database: { status: 'down', kind: 'postgres' } });
      await admin.query(`ALTER DATABASE ${dbName} ALLOW_CONNECTIONS true`);
      await request(running.app.getHttpServer()).get('/health').expect(200);
    } finally {
      await running.close();
      await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
      await admin.end();
    }
  });
});

describe('the app on the embedded database', () => {
  it('boots with no DATABASE_URL, migrates its data folder, serves /health, and reports 503 once it stops', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'fieldpost-embedded-'));
    const running = await createApp(loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', PORT: '0', DATA_DIR: dataDir }));
    try {
      expect(running.database.kind).toBe('embedded');
      // PGlite asks no password and makes every connection a superuser: it is served on a Unix
      // socket in a folder only this user may enter, never on a port another local process could reach.
      const socketDir = new URL(running.database.url).searchParams.get('host')!;
      expect(socketDir).toMatch(/^\//);
      expect(statSync(socketDir).mode & 0o777).toBe(0o700);
      expect(statSync(join(socketDir, '.s.PGSQL.5432')).isSocket()).toBe(true);
      expect(new URL(running.database.url).port).toBe('');
      const ok = await request(running.app.getHttpServer()).get('/health').expect(200);
      expect(ok.body).toMatchObject({ status: 'ok', database: { status: 'up', kind: 'embedded' } });
      await running.database.close();
      const down = await request(running.app.getHttpServer()).get('/health').expect(503);
      expect(down.body.database.status).toBe('down');
    } finally {
      await running.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
    expect(existsSync(new URL(running.database.url).searchParams.get('host')!)).toBe(false);
  }, 180_000);
});
