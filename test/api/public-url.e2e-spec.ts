import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { createApp, listen, RunningApp } from '../../src/bootstrap';
import { testConfig, uniqueId } from '../support/database';
import { smtpCapture } from './support/smtp';
import { waitFor } from './support/subscriptions';

// PORT=0 lets the system pick the port; with no PUBLIC_URL the links in mail must name the
// port the server really listens on, or every link a player receives is dead.
describe('links without PUBLIC_URL name the port the server listens on', () => {
  let running: RunningApp;
  let smtp: Awaited<ReturnType<typeof smtpCapture>>;
  beforeAll(async () => {
    smtp = await smtpCapture();
    const config = testConfig({ WORKERS_ENABLED: 'false', HOST: '127.0.0.1', SMTP_HOST: '127.0.0.1', SMTP_PORT: String(smtp.port) });
    running = await createApp(config);
    await listen(running, config);
  });
  afterAll(async () => {
    await running.close();
    await smtp.close();
  });

  it('mails a sign-in link that opens on this server', async () => {
    const port = (running.app.getHttpServer().address() as AddressInfo).port;
    expect(port).toBeGreaterThan(0);
    const email = `${uniqueId('pia')}@example.test`;
    const asked = await request(running.app.getHttpServer()).post('/api/v1/auth/magic-links').send({ email, displayName: 'Pia', timeZone: 'Europe/Rome' });
    expect(asked.status).toBe(202);
    await waitFor(() => smtp.mails.some((m) => (m.to as { text: string }).text.includes(email)), 'the mail');
    const text = smtp.mails.find((m) => (m.to as { text: string }).text.includes(email))!.text ?? '';
    const link = /http:\/\/localhost:(\d+)\/api\/v1\/auth\/magic-link#token=fpml_/.exec(text);
    expect(link?.[1]).toBe(String(port));
    const page = await fetch(`http://127.0.0.1:${link![1]}/api/v1/auth/magic-link`);
    expect(page.status).toBe(200);
  });
});
