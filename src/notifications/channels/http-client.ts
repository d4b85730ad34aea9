import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import type { Duplex } from 'node:stream';
import { guardedLookup, isPrivateAddress, PrivateTargetError } from '../security/target-url';

export interface HttpResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export class HttpTimeoutError extends Error {
  constructor(ms: number) {
    super(`no complete answer within ${ms} ms`);
    this.name = 'HttpTimeoutError';
  }
}

/** Enough of an answer to read Discord's rate-limit JSON; the rest is not ours to keep. */
const MAX_BODY = 16 * 1024;

/**
 * POSTs JSON with node:http: a hard time limit over the whole exchange (the answer is what
 * came in by then, if its status line did), no redirects (a 3xx
 * could lead anywhere), keep-alive sockets, and the SSRF guard on every new connection.
 */
export class HttpClient {
  private readonly httpAgent: http.Agent;
  private readonly httpsAgent: https.Agent;

  constructor(private readonly options: { timeoutMs: number; allowPrivate: boolean; maxSockets: number }) {
    this.httpAgent = new http.Agent({ keepAlive: true, maxSockets: options.maxSockets });
    this.httpsAgent = new https.Agent({ keepAlive: true, maxSockets: options.maxSockets });
  }

  post(target: string, body: string, headers: Record<string, string>): Promise<HttpResponse> {
    const url = new URL(target);
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (!this.options.allowPrivate && isIP(host) && isPrivateAddress(host)) return Promise.reject(new PrivateTargetError(host));
    const secure = url.protocol === 'https:';
    return new Promise((resolve, reject) => {
      const req = (secure ? https : http).request(url, {
        method: 'POST',
        agent: secure ? this.httpsAgent : this.httpAgent,
        headers: {
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(body)),
          'user-agent': 'Fieldpost-Notifications/1',
          ...headers,
        },
        ...(this.options.allowPrivate ? {} : { lookup: guardedLookup as unknown as http.RequestOptions['lookup'] }),
      });
      let answer: http.IncomingMessage | null = null;
      const chunks: Buffer[] = [];
      let size = 0;
      let settled = false;
      // Once the status line is in, the receiver has answered: a body that never ends, runs past
      // what we keep, or is cut off does not undo a 2xx (retrying would resend what it accepted).
      const answered = () => {
        if (settled || !answer) return;
        settled = true;
        clearTimeout(timer);
        resolve({ status: answer.statusCode ?? 0, headers: answer.headers, body: Buffer.concat(chunks).toString('utf8').slice(0, MAX_BODY) });
      };
      const failed = (err: Error) => {
        if (settled) return;
        if (answer) return answered();
        settled = true;
        clearTimeout(timer);
        reject(err);
      };
      // Settles by itself rather than through the 'error' that destroy() may no longer emit: an
      // attempt that never settled would hold a worker slot, and its shutdown, for good.
      const timer = setTimeout(() => {
        failed(new HttpTimeoutError(this.options.timeoutMs));
        req.destroy();
      }, this.options.timeoutMs);
      req.on('error', failed);
      // A 101 to a plain POST hands the socket over and emits no 'response' (nor any error).
      req.on('upgrade', (res: http.IncomingMessage, socket: Duplex) => {
        socket.destroy();
        answer = res;
        answered();
      });
      req.on('close', () => failed(new Error('the connection closed without an answer')));
      req.on('response', (res) => {
        answer = res;
        res.on('data', (chunk: Buffer) => {
          chunks.push(chunk);
          size += chunk.length;
          if (size < MAX_BODY) return;
          answered();
          res.destroy();
        });
        res.on('end', answered);
        res.on('error', failed);
        res.on('aborted', answered);
      });
      req.end(body);
    });
  }

  close(): void {
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
  }
}
