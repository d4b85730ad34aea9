import WebSocket from 'ws';
import { LogCapture } from '../support/log-capture';
import { apiApp, ApiApp } from './support/api-app';

/**
 * An oversize graphql-ws message is refused by the socket library (1009), which also reports it
 * as an error of the socket; graphql-ws printed that on stderr as an "internal error" with its
 * stack, outside the app's JSON log.
 */
describe('a graphql-ws message over API_MAX_BODY_BYTES', () => {
  const logs = new LogCapture();
  let app: ApiApp;
  let url: string;
  beforeAll(async () => {
    app = await apiApp({ API_MAX_BODY_BYTES: '65536', LOG_LEVEL: 'info' }, { logs });
    url = await app.listen();
  });
  afterAll(async () => {
    await app.close();
    jest.restoreAllMocks();
  });

  it('is logged as one structured line, and nothing is printed on the console or stderr', async () => {
    const printed: string[] = [];
    for (const method of ['error', 'warn', 'log'] as const) jest.spyOn(console, method).mockImplementation((...args: unknown[]) => void printed.push(args.map(String).join(' ')));
    jest.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => (printed.push(String(chunk)), true));
    const before = logs.lines.length;

    const secret = 'Bearer fp_not-to-be-logged';
    const closed = await new Promise<{ code: number }>((resolve, reject) => {
      const ws = new WebSocket(url, 'graphql-transport-ws');
      ws.on('open', () => ws.send(JSON.stringify({ type: 'connection_init', payload: { authorization: secret, pad: 'x'.repeat(70_000) } })));
      ws.on('close', (code) => resolve({ code }));
      ws.on('error', () => undefined);
      setTimeout(() => reject(new Error('the connection stayed open')), 10_000).unref();
    });
    // The server's side of the close (and its error) may come just after the client's.
    await new Promise((r) => setTimeout(r, 300));
    jest.restoreAllMocks();

    expect(closed.code).toBe(1009);
    expect(printed).toEqual([]);
    const lines = logs.lines.slice(before);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 'warn', msg: 'graphql-ws message over API_MAX_BODY_BYTES refused', maxBytes: 65536 });
    expect(JSON.stringify(lines[0])).not.toContain('fp_not-to-be-logged');
  });
});
