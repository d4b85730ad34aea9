import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { ConfigError, loadConfig } from '../src/config/config.schema';

const main = resolve(__dirname, '../dist/src/main.js');

function start(env: Record<string, string>) {
  return spawnSync(process.execPath, [main], {
    env: { PATH: process.env.PATH ?? '', ...env },
    encoding: 'utf8',
    timeout: 30_000,
  });
}

describe('configuration', () => {
  it('has defaults for everything optional', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({ env: 'development', port: 3000, host: '127.0.0.1', database: { url: undefined, dataDir: './data' } });
    expect(c.publicUrl).toBe('http://localhost:3000');
  });

  it('names every bad variable at once', () => {
    let err: unknown;
    try {
      loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x', LOG_LEVEL: 'loud' });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    const names = (err as ConfigError).problems.map((p) => p.variable).sort();
    expect(names).toEqual(['DATABASE_URL', 'LOG_LEVEL', 'PORT']);
  });

  it('reads TRUST_PROXY as a hop count or a list of proxy addresses, and refuses anything else naming it', () => {
    expect(loadConfig({}).api.trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '1' }).api.trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: 'loopback, 10.0.0.0/8' }).api.trustProxy).toEqual(['loopback', '10.0.0.0/8']);
    for (const bad of ['true', 'everyone', '10.0.0.0/99', '-1']) {
      let err: unknown;
      try {
        loadConfig({ TRUST_PROXY: bad });
      } catch (e) {
        err = e;
      }
      expect([bad, (err as ConfigError | undefined)?.problems.map((p) => p.variable)]).toEqual([bad, ['TRUST_PROXY']]);
    }
  });

  it.each([
    [{ PORT: 'not-a-port' }, 'PORT'],
    [{ DATABASE_URL: 'mysql://root@localhost/db' }, 'DATABASE_URL'],
    [{ NODE_ENV: 'staging' }, 'NODE_ENV'],
    [{ DATABASE_POOL_MAX: '0' }, 'DATABASE_POOL_MAX'],
  ])('stops the real process non-zero, naming the variable: %j', (env, variable) => {
    expect(existsSync(main)).toBe(true);
    const result = start(env as Record<string, string>);
    expect(result.status).not.toBe(0);
    expect(result.status).not.toBeNull();
    expect(result.stderr).toContain(`${variable}:`);
  });
});
