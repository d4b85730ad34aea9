import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { ApiTokensService } from '../../src/auth/api-tokens.service';
import { PrismaService } from '../../src/database/prisma.service';
import { uniqueId } from '../support/database';
import { apiApp, ApiApp, data, firstError } from './support/api-app';
import { smtpCapture } from './support/smtp';
import { waitFor } from './support/subscriptions';

describe('sign-up and sign-in by magic link, over a loopback SMTP server', () => {
  let app: ApiApp;
  let smtp: Awaited<ReturnType<typeof smtpCapture>>;
  let prisma: PrismaService;
  beforeAll(async () => {
    smtp = await smtpCapture();
    app = await apiApp({ SMTP_HOST: '127.0.0.1', SMTP_PORT: String(smtp.port), MAGIC_LINK_TTL_MINUTES: '10', PUBLIC_URL: 'http://fieldpost.test' });
    prisma = app.running.app.get(PrismaService);
  });
  afterAll(async () => {
    await app.close();
    await smtp.close();
  });

  const codeIn = (text: string) => /fpml_[A-Za-z0-9_-]{43}/.exec(text)?.[0];

  it('creates the player, mails a single-use link, and trades it for a working API token', async () => {
    const email = `${uniqueId('zoe')}@example.test`;
    const asked = data(await app.gql(null, 'mutation($e: String!) { requestMagicLink(email: $e, displayName: "Zoe", timeZone: "Europe/Paris") { sent expiresAt } }', { e: email }));
    expect(asked['requestMagicLink'].sent).toBe(true);
    const ttl = Date.parse(asked['requestMagicLink'].expiresAt) - Date.now();
    expect(ttl).toBeGreaterThan(9 * 60_000);
    expect(ttl).toBeLessThanOrEqual(10 * 60_000);
    await waitFor(() => smtp.mails.some((m) => m.text?.includes(email) || (m.to as { text: string } | undefined)?.text.includes(email)), 'the mail');
    const mail = smtp.mails.find((m) => (m.to as { text: string }).text.includes(email))!;
    expect(mail.subject).toBe('Your Fieldpost sign-in link');
    const code = codeIn(mail.text ?? '')!;
    expect(mail.text).toContain(`http://fieldpost.test/api/v1/auth/magic-link#token=${code}`);

    // Only a hash is stored.
    const player = await prisma.player.findUniqueOrThrow({ where: { email } });
    const stored = await prisma.magicLink.findMany({ where: { playerId: player.id } });
    expect(stored).toHaveLength(1);
    expect(JSON.stringify(stored)).not.toContain(code);

    const redeemed = data(await app.gql(null, 'mutation($t: String!) { redeemMagicLink(token: $t, tokenName: "phone") { token apiToken { id name prefix } } }', { t: code }))['redeemMagicLink'];
    expect(redeemed.token).toMatch(/^fp_[A-Za-z0-9_-]{43}$/);
    expect(redeemed.apiToken).toMatchObject({ name: 'phone', prefix: redeemed.token.slice(0, 9) });
    const me = data(await app.gql(redeemed.token, '{ me { email displayName timeZone } }'))['me'];
    expect(me).toEqual({ email, displayName: 'Zoe', timeZone: 'Europe/Paris' });

    const again = await app.gql(null, 'mutation($t: String!) { redeemMagicLink(token: $t) { token } }', { t: code });
    expect(firstError(again).extensions).toMatchObject({ code: 'UNAUTHENTICATED' });
  });

  it('refuses an expired link, and answers the same for a known and an unknown address', async () => {
    const email = `${uniqueId('yan')}@example.test`;
    const first = await request(app.http).post('/api/v1/auth/magic-links').send({ email });
    expect(first.status).toBe(202);
    await waitFor(() => smtp.mails.some((m) => (m.to as { text: string }).text.includes(email)), 'the mail');
    const second = await request(app.http).post('/api/v1/auth/magic-links').send({ email });
    expect(second.status).toBe(202);
    expect(Object.keys(second.body).sort()).toEqual(Object.keys(first.body).sort());
    await waitFor(() => smtp.mails.filter((m) => (m.to as { text: string }).text.includes(email)).length === 2, 'the second mail');
    const code = codeIn(smtp.mails.filter((m) => (m.to as { text: string }).text.includes(email))[1]!.text!)!;
    const player = await prisma.player.findUnique({ where: { email } });
    await prisma.magicLink.updateMany({ where: { playerId: player!.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const late = await request(app.http).post('/api/v1/auth/magic-links/redeem').send({ token: code });
    expect(late.status).toBe(401);
    expect(late.body.code).toBe('auth/unauthenticated');
    expect((await prisma.player.findMany({ where: { email } })).length).toBe(1);
  });

  it('sends one address at most MAGIC_LINKS_PER_HOUR links an hour, then refuses with 429 and Retry-After and sends nothing', async () => {
    const email = `${uniqueId('flood')}@example.test`;
    const mailsTo = () => smtp.mails.filter((m) => (m.to as { text: string }).text.includes(email)).length;
    for (let i = 0; i < 5; i++) expect((await request(app.http).post('/api/v1/auth/magic-links').send({ email })).status).toBe(202);
    await waitFor(() => mailsTo() === 5, 'five mails');
    const refused = await request(app.http).post('/api/v1/auth/magic-links').send({ email });
    expect(refused.status).toBe(429);
    expect(refused.headers['content-type']).toContain('application/problem+json');
    expect(refused.body.code).toBe('auth/magic_link_rate_limited');
    const wait = Number(refused.headers['retry-after']);
    expect(wait).toBeGreaterThan(3500);
    expect(wait).toBeLessThanOrEqual(3600);
    const overGraphql = firstError(await app.gql(null, 'mutation($e: String!) { requestMagicLink(email: $e) { sent } }', { e: email }));
    expect(overGraphql.extensions).toMatchObject({ code: 'RATE_LIMITED', errorCode: 'auth/magic_link_rate_limited' });
    // Another address is not affected, and once the oldest link is an hour old the address gets one again.
    expect((await request(app.http).post('/api/v1/auth/magic-links').send({ email: `${uniqueId('other')}@example.test` })).status).toBe(202);
    const player = await prisma.player.findUniqueOrThrow({ where: { email } });
    const links = await prisma.magicLink.findMany({ where: { playerId: player.id }, orderBy: { createdAt: 'asc' } });
    expect(links).toHaveLength(5);
    await prisma.magicLink.update({ where: { id: links[0]!.id }, data: { createdAt: new Date(Date.now() - 61 * 60_000) } });
    expect((await request(app.http).post('/api/v1/auth/magic-links').send({ email })).status).toBe(202);
    await waitFor(() => mailsTo() === 6, 'the sixth mail');
    await new Promise((r) => setTimeout(r, 200));
    expect(mailsTo()).toBe(6);
  });

  // Each request counted the address's links before the others had written theirs.
  it('ten links asked for at once for one address: five are sent, the others refused with 429', async () => {
    const email = `${uniqueId('burst')}@example.test`;
    const answers = await Promise.all(Array.from({ length: 10 }, () => request(app.http).post('/api/v1/auth/magic-links').send({ email })));
    expect(answers.map((r) => r.status).sort()).toEqual([202, 202, 202, 202, 202, 429, 429, 429, 429, 429]);
    const player = await prisma.player.findUniqueOrThrow({ where: { email } });
    expect(await prisma.magicLink.count({ where: { playerId: player.id } })).toBe(5);
    const mailsTo = () => smtp.mails.filter((m) => (m.to as { text: string }).text.includes(email)).length;
    await waitFor(() => mailsTo() === 5, 'five mails');
    await new Promise((r) => setTimeout(r, 200));
    expect(mailsTo()).toBe(5);
  });

  it('refuses a malformed address and time zone with BAD_USER_INPUT', async () => {
    expect(firstError(await app.gql(null, 'mutation { requestMagicLink(email: "not-an-address") { sent } }')).extensions).toMatchObject({ code: 'BAD_USER_INPUT', errorCode: 'auth/invalid_email' });
    expect(firstError(await app.gql(null, `mutation { requestMagicLink(email: "${uniqueId('t')}@example.test", timeZone: "Mars/Olympus") { sent } }`)).extensions).toMatchObject({ code: 'BAD_USER_INPUT', errorCode: 'auth/invalid_time_zone' });
  });

  // Each of these passed the old check and was stored as a player of its own (escaping the hourly
  // limit of the address it really mails), or broke at send time with a 500.
  it.each([
    'z1,victim@example.org',
    'z2<victim@example.org>',
    'Victim <victim@example.org>',
    '(x)victim@example.org',
    '<victim@example.org',
    'victim@example.org>',
    'vic\u0085tim@example.org',
    'victim;z@example.org',
    '"vic tim"@example.org',
    'vic..tim@example.org',
    '.victim@example.org',
    'victim@[127.0.0.1].com',
    'victim@example.org.',
    'victim@exa\\mple.org',
    'victim@-example.org',
    'victim@example-.org',
    'victim@example.o',
  ])('refuses %j as an address, over REST, and stores nothing', async (email) => {
    const players = await prisma.player.count();
    const res = await request(app.http).post('/api/v1/auth/magic-links').send({ email });
    expect([res.status, res.body.code]).toEqual([400, 'auth/invalid_email']);
    expect(await prisma.player.count()).toBe(players);
  });

  // Opponents read display names: one of zero-width spaces shows nothing, and a direction
  // override makes one name look like another. The default told them the address.
  it('refuses a display name that shows nothing or holds invisible characters, and never makes one of the address', async () => {
    for (const displayName of ['\u200b\u200b', '\u2800\u3164', 'Ali\u202Ece', 'Bob\u200d']) {
      const res = await request(app.http).post('/api/v1/auth/magic-links').send({ email: `${uniqueId('name')}@example.test`, displayName });
      expect([JSON.stringify(displayName), res.status, res.body.code]).toEqual([JSON.stringify(displayName), 400, 'auth/invalid_display_name']);
    }
    const email = `secret.local.part.${uniqueId('n')}@example.test`;
    expect((await request(app.http).post('/api/v1/auth/magic-links').send({ email })).status).toBe(202);
    const player = await prisma.player.findUniqueOrThrow({ where: { email } });
    expect(player.displayName).toMatch(/^Player [0-9a-f]{6}$/);
    for (const displayName of ['Zoë', '李雷', 'Ali 🐊']) {
      expect((await request(app.http).post('/api/v1/auth/magic-links').send({ email: `${uniqueId('ok')}@example.test`, displayName })).status).toBe(202);
    }
  });

  it('takes the usual forms of an address', async () => {
    for (const email of [`first.last+tag-${uniqueId('a')}@sub.example.co.uk`, `o'neil_${uniqueId('b')}@example.ie`, `${uniqueId('c')}@xn--mller-kva.example`]) {
      const res = await request(app.http).post('/api/v1/auth/magic-links').send({ email });
      expect([email, res.status]).toEqual([email, 202]);
    }
  });

  const linkFor = async (email: string) => {
    const before = smtp.mails.length;
    expect((await request(app.http).post('/api/v1/auth/magic-links').send({ email })).status).toBe(202);
    await waitFor(() => smtp.mails.slice(before).some((m) => (m.to as { text: string }).text.includes(email)), 'the mail');
    return codeIn(smtp.mails.slice(before).find((m) => (m.to as { text: string }).text.includes(email))!.text ?? '')!;
  };
  const redeem = (token: string, tokenName?: string) => request(app.http).post('/api/v1/auth/magic-links/redeem').send({ token, ...(tokenName === undefined ? {} : { tokenName }) });

  // Signing in by mail is the way back into an account: at the cap of live tokens it refused
  // (after spending the link), so whoever held 50 tokens (a thief among them) kept the owner out.
  it('signs in even at the cap of live tokens, revoking the one used least recently', async () => {
    const email = `${uniqueId('full')}@example.test`;
    const first = await redeem(await linkFor(email));
    expect(first.status).toBe(201);
    const player = await prisma.player.findUniqueOrThrow({ where: { email } });
    const tokens = app.running.app.get(ApiTokensService);
    for (let i = 0; i < 49; i++) await tokens.issue(player.id, `extra ${i}`);
    expect((await request(app.http).post('/api/v1/me/tokens').set('Authorization', `Bearer ${first.body.token}`).send({ name: 'one more' })).body.code).toBe('auth/too_many_tokens');
    // The first token is the one used least recently once the others have been used.
    await prisma.apiToken.updateMany({ where: { playerId: player.id, NOT: { id: first.body.apiToken.id } }, data: { lastUsedAt: new Date() } });
    const again = await redeem(await linkFor(email), 'laptop');
    expect(again.status).toBe(201);
    expect((await request(app.http).get('/api/v1/me').set('Authorization', `Bearer ${again.body.token}`)).status).toBe(200);
    expect((await request(app.http).get('/api/v1/me').set('Authorization', `Bearer ${first.body.token}`)).status).toBe(401);
    expect(await prisma.apiToken.count({ where: { playerId: player.id, revokedAt: null } })).toBe(50);
  });

  it('keeps the link usable when the token name is refused', async () => {
    const code = await linkFor(`${uniqueId('blank')}@example.test`);
    const refused = await redeem(code, '   ');
    expect([refused.status, refused.body.code]).toEqual([400, 'auth/invalid_token_name']);
    expect((await redeem(code, 'phone')).status).toBe(201);
  });

  // The refusal named a field "name" that redeeming has not: the caller sent tokenName.
  it('names tokenName as the field refused when redeeming, over REST and GraphQL', async () => {
    const rest = await redeem(await linkFor(`${uniqueId('blank')}@example.test`), '');
    expect([rest.status, rest.body.code, rest.body.field]).toEqual([400, 'auth/invalid_token_name', 'tokenName']);
    expect(rest.body.detail).toMatch(/^tokenName /);
    const gql = firstError(await app.gql(null, 'mutation($t: String!) { redeemMagicLink(token: $t, tokenName: "") { token } }', { t: await linkFor(`${uniqueId('blank')}@example.test`) }));
    expect([gql?.extensions?.['errorCode'], gql?.extensions?.['field']]).toEqual(['auth/invalid_token_name', 'tokenName']);
    expect(gql?.message).toMatch(/^tokenName /);
  });

  it('serves the page the mail links to, without spending the code', async () => {
    const res = await request(app.http).get('/api/v1/auth/magic-link');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.text).toContain('/api/v1/auth/magic-links/redeem');
    expect([res.headers['x-frame-options'], res.headers['content-security-policy']]).toEqual(['DENY', "frame-ancestors 'none'"]);
  });
});

describe('sign-in mail that cannot be sent', () => {
  // The mail server down (or refusing the address) was a 500 that still kept the unsent link,
  // which counted against the address's hourly limit.
  it('answers 503 with Retry-After, and the unsent link neither works nor counts', async () => {
    const closed = await new Promise<number>((resolve) => {
      const srv = createServer().listen(0, '127.0.0.1', () => {
        const { port } = srv.address() as AddressInfo;
        srv.close(() => resolve(port));
      });
    });
    const app = await apiApp({ SMTP_HOST: '127.0.0.1', SMTP_PORT: String(closed), NOTIFY_HTTP_TIMEOUT_MS: '2000' });
    try {
      const email = `${uniqueId('down')}@example.test`;
      for (let i = 0; i < 6; i++) {
        const res = await request(app.http).post('/api/v1/auth/magic-links').send({ email });
        expect([res.status, res.body.code, res.headers['retry-after']]).toEqual([503, 'auth/mail_not_sent', '60']);
      }
      const gql = firstError(await app.gql(null, `mutation { requestMagicLink(email: "${email}") { sent } }`));
      expect(gql.extensions).toMatchObject({ code: 'SERVICE_UNAVAILABLE', errorCode: 'auth/mail_not_sent' });
      const prisma = app.running.app.get(PrismaService);
      const player = await prisma.player.findUniqueOrThrow({ where: { email } });
      expect(await prisma.magicLink.count({ where: { playerId: player.id } })).toBe(0);
    } finally {
      await app.close();
    }
  });
});

describe('API tokens: create, list, revoke; stored hashed, shown once', () => {
  let app: ApiApp;
  beforeAll(async () => {
    app = await apiApp({ TOKEN_PEPPER: 'a-pepper-for-the-tests-only' });
  });
  afterAll(async () => {
    await app.close();
  });

  it('makes, lists (without the secret) and revokes tokens over GraphQL and REST', async () => {
    const p = await app.player('Tess');
    const made = data(await app.gql(p.token, 'mutation { createApiToken(name: "bot") { token apiToken { id name prefix revokedAt } } }'))['createApiToken'];
    expect(made.token).toMatch(/^fp_/);
    const rest = await request(app.http).post('/api/v1/me/tokens').set('Authorization', `Bearer ${p.token}`).send({ name: 'script' });
    expect(rest.status).toBe(201);
    expect(rest.body.token).toMatch(/^fp_/);

    const listed = data(await app.gql(p.token, '{ me { apiTokens(first: 2) { nodes { id name prefix revokedAt } pageInfo { hasNextPage endCursor } } } }'))['me'].apiTokens;
    expect(listed.nodes.map((t: { name: string }) => t.name)).toEqual(['script', 'bot']);
    expect(listed.pageInfo.hasNextPage).toBe(true);
    const rest2 = data(await app.gql(p.token, '{ me { apiTokens(first: 2, after: "' + listed.pageInfo.endCursor + '") { nodes { name } pageInfo { hasNextPage } } } }'))['me'].apiTokens;
    expect(rest2).toEqual({ nodes: [{ name: 'test' }], pageInfo: { hasNextPage: false } });
    const listedRest = await request(app.http).get('/api/v1/me/tokens').set('Authorization', `Bearer ${p.token}`);
    expect(listedRest.body.items).toHaveLength(3);
    expect(JSON.stringify(listedRest.body)).not.toContain(made.token);
    expect(JSON.stringify(listed)).not.toContain(made.token.slice(10));

    const stored = await app.running.app.get(PrismaService).apiToken.findMany({ where: { playerId: p.id } });
    expect(stored).toHaveLength(3);
    for (const row of stored) {
      expect(JSON.stringify(row)).not.toContain(made.token);
      expect(row.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    }

    data(await app.gql(made.token, '{ me { id } }'));
    const revoked = data(await app.gql(p.token, `mutation { revokeApiToken(id: "${made.apiToken.id}") { revokedAt } }`))['revokeApiToken'];
    expect(revoked.revokedAt).toBeTruthy();
    const refused = await app.gql(made.token, '{ me { id } }');
    expect(refused.status).toBe(401);
    expect(firstError(refused).extensions).toMatchObject({ code: 'UNAUTHENTICATED' });
    const del = await request(app.http).delete(`/api/v1/me/tokens/${rest.body.apiToken.id}`).set('Authorization', `Bearer ${p.token}`);
    expect(del.status).toBe(200);
    expect((await request(app.http).get('/api/v1/me').set('Authorization', `Bearer ${rest.body.token}`)).status).toBe(401);
  });

  it('refuses unknown, malformed and non-bearer credentials with 401', async () => {
    for (const header of ['Bearer fp_' + 'A'.repeat(43), 'Bearer nonsense', 'Basic dXNlcjpwYXNz', 'Bearer']) {
      const res = await request(app.http).get('/api/v1/me').set('Authorization', header);
      expect([header, res.status]).toEqual([header, 401]);
      expect(res.body.code).toBe('auth/unauthenticated');
    }
  });
});
