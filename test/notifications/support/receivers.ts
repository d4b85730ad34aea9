import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { simpleParser, ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface ReceivedRequest {
  /** What the receiver dedupes on: the webhook-id header (the stable delivery id) unless told otherwise. */
  id: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  at: number;
}

export type Reply = { status: number; headers?: Record<string, string>; body?: string } | 'hang';

export interface HttpReceiver {
  url: string;
  requests: ReceivedRequest[];
  /** Distinct ids received: what a receiver that dedupes keeps. */
  distinct(): Set<string>;
  close(): Promise<void>;
}

/** A real HTTP server on 127.0.0.1; `reply` decides each answer from the request and how often its id came before. */
export async function httpReceiver(
  reply: (req: ReceivedRequest, seen: number) => Reply | Promise<Reply> = () => ({ status: 204 }),
  idOf: (headers: http.IncomingHttpHeaders, body: string) => string = (headers) => String(headers['webhook-id'] ?? ''),
): Promise<HttpReceiver> {
  const requests: ReceivedRequest[] = [];
  const seen = new Map<string, number>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const r: ReceivedRequest = { id: idOf(req.headers, body), headers: req.headers, body, at: Date.now() };
      requests.push(r);
      const n = seen.get(r.id) ?? 0;
      seen.set(r.id, n + 1);
      void Promise.resolve(reply(r, n)).then((answer) => {
        if (answer === 'hang') return;
        res.writeHead(answer.status, answer.headers ?? {});
        res.end(answer.body ?? '');
      });
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    requests,
    distinct: () => new Set(requests.map((r) => r.id)),
    close: () =>
      new Promise((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

export interface ReceivedMail {
  mail: ParsedMail;
  raw: string;
  /** Whether the SMTP session was encrypted (STARTTLS or implicit TLS). */
  secure: boolean;
  user: string | undefined;
  envelopeTo: string[];
}

export interface SmtpReceiver {
  port: number;
  mails: ReceivedMail[];
  close(): Promise<void>;
}

/** A real SMTP server (smtp-server) on 127.0.0.1; every message is parsed with mailparser. */
export async function smtpReceiver(options: { user?: string; password?: string; starttls?: boolean; refuse?: (address: string) => { code: number; message: string } | null } = {}): Promise<SmtpReceiver> {
  const mails: ReceivedMail[] = [];
  const server = new SMTPServer({
    logger: false,
    authOptional: !options.user,
    allowInsecureAuth: !options.starttls,
    disabledCommands: options.starttls ? [] : ['STARTTLS'],
    onAuth(auth, _session, callback) {
      if (auth.username === options.user && auth.password === options.password) return callback(null, { user: auth.username });
      return callback(new Error('Invalid username or password'));
    },
    onRcptTo(address, _session, callback) {
      const refusal = options.refuse?.(address.address);
      if (!refusal) return callback();
      return callback(Object.assign(new Error(refusal.message), { responseCode: refusal.code }));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks);
        simpleParser(raw).then(
          (mail) => {
            mails.push({ mail, raw: raw.toString('utf8'), secure: session.secure, user: session.user as string | undefined, envelopeTo: session.envelope.rcptTo.map((r) => r.address) });
            callback();
          },
          (err: Error) => callback(err),
        );
      });
    },
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.server.address() as AddressInfo;
  return { port, mails, close: () => new Promise((done) => server.close(() => done())) };
}

/** Polls until `check` passes or the time is up (then fails with what it last saw). */
export async function eventually(check: () => boolean | Promise<boolean>, timeoutMs = 10_000, what = 'condition'): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 15));
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
}
