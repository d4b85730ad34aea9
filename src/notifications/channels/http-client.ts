import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
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
 * POSTs JSON with node:http: a hard time limit over the whole exchange, no redirects (a 3xx
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
    if (!this.options.allowPrivate && isIP(host) && isPrivateAddress(host)) return Promise.reject(new PrivateTargetError(host, host));
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
      const timer = setTimeout(() => req.destroy(new HttpTimeoutError(this.options.timeoutMs)), this.options.timeoutMs);
      req.on('error', (err) => {
        clearTimeout(timer);
        reject(err);
      });
      req.on('response', (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          if (size < MAX_BODY) chunks.push(chunk);
          size += chunk.length;
        });
        res.on('end', () => {
          clearTimeout(timer);
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8').slice(0, MAX_BODY) });
        });
        res.on('error', (err) => {
          clearTimeout(timer);
          reject(err);
        });
      });
      req.end(body);
    });
  }

  close(): void {
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
  }
}
