import { Agent } from 'node:http';
import request from 'supertest';
import { loadConfig } from '../../src/config/config.schema';
import { apiApp, ApiApp, TestPlayer } from './support/api-app';

const WEB_CLIENT = 'https://app.example.org';

const preflight = (app: ApiApp, origin: string, path = '/graphql') =>
  request(app.http).options(path).set('Origin', origin).set('Access-Control-Request-Method', 'POST').set('Access-Control-Request-Headers', 'authorization,content-type');

describe('the client address behind a reverse proxy', () => {
  const fromProxy = (app: ApiApp, client: string) => request(app.http).get('/api/v1/scenarios').set('X-Forwarded-For', client);
  // A random client per run: anonymous counts are shared by every app on the test database.
  const someone = () => `203.0.113.${1 + Math.floor(Math.random() * 254)}`;

  it('is the socket address by default: X-Forwarded-For, which anyone can send, changes nothing', async () => {
    const app = await apiApp({ RATE_LIMIT_ANONYMOUS: '2' });
    try {
      // From a loopback address of its own, so that other tests' requests do not count here.
      const agent = new Agent({ localAddress: `127.${1 + Math.floor(Math.random() * 254)}.${Math.floor(Math.random() * 256)}.${1 + Math.floor(Math.random() * 254)}` });
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++) statuses.push((await fromProxy(app, someone()).agent(agent)).status);
      expect(statuses).toEqual([200, 200, 429]);
    } finally {
      await app.close();
    }
  });

  // Behind a proxy every client came from the proxy's address: one client at the anonymous
  // limit shut sign-in and sign-up for everyone.
  it('is the one the trusted proxy names with TRUST_PROXY, so each client has its own anonymous limit', async () => {
    const app = await apiApp({ RATE_LIMIT_ANONYMOUS: '2', TRUST_PROXY: 'loopback' });
    try {
      const [a, b] = [someone(), someone().replace('203.0.113', '198.51.100')];
      const statuses = [];
      for (let i = 0; i < 3; i++) statuses.push((await fromProxy(app, a)).status);
      expect(statuses).toEqual([200, 200, 429]);
      expect((await fromProxy(app, b)).status).toBe(200);
    } finally {
      await app.close();
    }
  });

  it('is not told by an X-Powered-By header', async () => {
    const app = await apiApp();
    try {
      expect((await request(app.http).get('/health')).headers['x-powered-by']).toBeUndefined();
    } finally {
      await app.close();
    }
  });
});

describe('the default server', () => {
  let app: ApiApp;
  let alice: TestPlayer;
  beforeAll(async () => {
    app = await apiApp();
    alice = await app.player('Alice');
  });
  afterAll(async () => {
    await app.close();
  });

  describe('a path asked with a method it does not serve', () => {
    it.each([
      ['TRACE', '/api/v1/games', 'GET, HEAD, POST'],
      ['DELETE', '/api/v1/games', 'GET, HEAD, POST'],
      ['PUT', '/api/v1/games/game_x/resign', 'POST'],
      ['POST', '/api/v1/scenarios', 'GET, HEAD'],
    ] as const)('%s %s is a 405 naming the methods the path takes, with Allow', async (method, path, allow) => {
      const res = await request(app.http)[method.toLowerCase() as 'trace' | 'delete' | 'put' | 'post'](path).set('Authorization', `Bearer ${alice.token}`);
      expect({ status: res.status, allow: res.headers['allow'], code: res.body.code }).toEqual({ status: 405, allow, code: 'http/method_not_allowed' });
      expect(res.body.detail).toBe(`${method} is not served here; this path takes ${allow}.`);
    });

    it('a path nothing serves stays a 404, whatever the method', async () => {
      for (const method of ['get', 'delete', 'trace'] as const) {
        const res = await request(app.http)[method]('/api/v1/nothing-here').set('Authorization', `Bearer ${alice.token}`);
        expect({ status: res.status, allow: res.headers['allow'], code: res.body.code }).toEqual({ status: 404, allow: undefined, code: 'http/not_found' });
      }
    });

    it('a refused DELETE of the games list writes nothing', async () => {
      const before = (await request(app.http).get('/api/v1/games').set('Authorization', `Bearer ${alice.token}`)).body;
      await request(app.http).delete('/api/v1/games').set('Authorization', `Bearer ${alice.token}`).send({});
      expect((await request(app.http).get('/api/v1/games').set('Authorization', `Bearer ${alice.token}`)).body).toEqual(before);
    });
  });

  describe('web clients on other origins (CORS): any origin, without credentials', () => {
    it('answers a preflight before authentication and the rate limit, allowing the Authorization header', async () => {
      for (const path of ['/graphql', '/api/v1/games']) {
        const res = await preflight(app, 'https://elsewhere.example', path);
        expect(res.status).toBe(204);
        expect(res.headers['access-control-allow-origin']).toBe('*');
        expect(res.headers['access-control-allow-headers']).toBe('authorization,content-type');
        expect(res.headers['access-control-allow-methods']).toBe('GET,HEAD,POST,PUT,PATCH,DELETE');
        expect(res.headers['access-control-allow-credentials']).toBeUndefined();
        expect(res.headers['ratelimit-remaining']).toBeUndefined();
        expect(res.headers['cache-control']).toBe('no-store');
      }
    });

    it('lets the page read the answer and the headers it needs (rate limit, request id)', async () => {
      const res = await request(app.http).post('/graphql').set('Origin', 'https://elsewhere.example').set('Authorization', `Bearer ${alice.token}`).set('Content-Type', 'application/json').send({ query: '{ me { displayName } }' });
      expect(res.body.data).toEqual({ me: { displayName: 'Alice' } });
      expect(res.headers['access-control-allow-origin']).toBe('*');
      expect(res.headers['access-control-expose-headers']!.split(',')).toEqual(expect.arrayContaining(['RateLimit-Remaining', 'Retry-After', 'X-Request-Id']));
    });
  });
});

describe('CORS_ORIGINS', () => {
  it('with CORS_ORIGINS listing origins, answers those and no other', async () => {
    const app = await apiApp({ CORS_ORIGINS: `${WEB_CLIENT}, http://localhost:5173` });
    try {
      for (const origin of [WEB_CLIENT, 'http://localhost:5173']) expect((await preflight(app, origin)).headers['access-control-allow-origin']).toBe(origin);
      const other = await preflight(app, 'https://evil.example');
      expect(other.headers['access-control-allow-origin']).toBeUndefined();
    } finally {
      await app.close();
    }
  });

  it('with CORS_ORIGINS=none, answers no origin', async () => {
    const app = await apiApp({ CORS_ORIGINS: 'none' });
    try {
      const res = await preflight(app, WEB_CLIENT);
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
      expect(res.headers['access-control-allow-methods']).toBeUndefined();
    } finally {
      await app.close();
    }
  });

  it('refuses a CORS_ORIGINS that is not a list of origins, naming it', () => {
    for (const bad of ['app.example.org', 'https://app.example.org/path', 'ftp://files.example.org', 'https://a.example, *']) {
      expect(() => loadConfig({ CORS_ORIGINS: bad })).toThrow(/CORS_ORIGINS/);
    }
    expect(loadConfig({ CORS_ORIGINS: ' https://a.example ,http://b.example:8080' }).api.corsOrigins).toEqual(['https://a.example', 'http://b.example:8080']);
  });
});
