import { createServer, type Server, type Socket, connect } from 'node:net';
import { answerClientError, clientErrorResponse } from './client-error';

const parserError = (code: string) => Object.assign(new Error(code), { code });

/** A connected pair of sockets on loopback: the server's end (as the http server's would be) and the client's. */
async function socketPair(): Promise<{ server: Socket; client: Socket; close(): void }> {
  let listener!: Server;
  const accepted = new Promise<Socket>((resolve) => {
    listener = createServer(resolve);
  });
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  const address = listener.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  const client = connect(address.port, '127.0.0.1');
  const server = await accepted;
  return { server, client, close: () => (client.destroy(), server.destroy(), listener.close()) };
}

function readAll(socket: Socket): Promise<string> {
  const chunks: Buffer[] = [];
  socket.on('data', (d) => chunks.push(d));
  return new Promise((resolve) => socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8'))));
}

describe('clientErrorResponse', () => {
  it.each([
    ['HPE_HEADER_OVERFLOW', 431, 'Request Header Fields Too Large', 'http/headers_too_large'],
    ['HPE_INVALID_METHOD', 400, 'Bad Request', 'http/malformed_request'],
    ['ERR_HTTP_REQUEST_TIMEOUT', 408, 'Request Timeout', 'http/request_timeout'],
    ['HPE_CHUNK_EXTENSIONS_OVERFLOW', 413, 'Content Too Large', 'http/payload_too_large'],
  ])('answers %s with %i and a problem document whose length the header states', (code, status, title, problemCode) => {
    const [head, body] = clientErrorResponse(code).split('\r\n\r\n') as [string, string];
    const lines = head.split('\r\n');
    expect(lines[0]).toBe(`HTTP/1.1 ${status} ${title}`);
    expect(lines).toEqual(expect.arrayContaining(['Content-Type: application/problem+json; charset=utf-8', `Content-Length: ${Buffer.byteLength(body)}`, 'Connection: close']));
    expect(JSON.parse(body)).toMatchObject({ type: `https://fieldpost.dev/problems/${problemCode}`, title, status, code: problemCode, detail: expect.any(String) });
  });
});

describe('answerClientError', () => {
  it('writes the answer to a live socket and closes it', async () => {
    const pair = await socketPair();
    try {
      const answer = readAll(pair.client);
      answerClientError(parserError('HPE_HEADER_OVERFLOW'), pair.server);
      expect(pair.server.destroyed).toBe(true);
      expect(await answer).toBe(clientErrorResponse('HPE_HEADER_OVERFLOW'));
    } finally {
      pair.close();
    }
  });

  it('writes nothing to a socket already gone, and does not throw', async () => {
    const pair = await socketPair();
    try {
      pair.server.destroy();
      const write = jest.spyOn(pair.server, 'write');
      expect(() => answerClientError(parserError('HPE_HEADER_OVERFLOW'), pair.server)).not.toThrow();
      expect(write).not.toHaveBeenCalled();
    } finally {
      pair.close();
    }
  });

  it('writes nothing when the client reset the connection, and closes the socket', async () => {
    const pair = await socketPair();
    try {
      const write = jest.spyOn(pair.server, 'write');
      answerClientError(parserError('ECONNRESET'), pair.server);
      expect(write).not.toHaveBeenCalled();
      expect(pair.server.destroyed).toBe(true);
    } finally {
      pair.close();
    }
  });

  // Pipelined requests: the client would read the problem as the rest of the answer under way.
  it('writes nothing once a response on the socket has sent its headers, and closes the socket', async () => {
    const pair = await socketPair();
    try {
      Object.assign(pair.server, { _httpMessage: { headersSent: true } });
      const write = jest.spyOn(pair.server, 'write');
      answerClientError(parserError('HPE_INVALID_METHOD'), pair.server);
      expect(write).not.toHaveBeenCalled();
      expect(pair.server.destroyed).toBe(true);
    } finally {
      pair.close();
    }
  });

  it('closes the socket and does not throw when writing to it throws', async () => {
    const pair = await socketPair();
    try {
      jest.spyOn(pair.server, 'write').mockImplementation(() => {
        throw new Error('write after end');
      });
      expect(() => answerClientError(parserError('HPE_HEADER_OVERFLOW'), pair.server)).not.toThrow();
      expect(pair.server.destroyed).toBe(true);
    } finally {
      pair.close();
    }
  });
});
