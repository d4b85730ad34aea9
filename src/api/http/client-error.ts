import { HttpException } from '@nestjs/common';
import { maxHeaderSize } from 'node:http';
import type { Duplex } from 'node:stream';
import { toProblem } from '../../common/error-mapping';

interface ClientRefusal {
  status: number;
  code: string;
  message: string;
  details?: Record<string, unknown>;
}

/** What Node's HTTP parser refused (its error codes), as Node itself would answer it, less the bare status line. */
function refusalOf(code: string | undefined): ClientRefusal {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return { status: 431, code: 'http/headers_too_large', message: `The request's headers are larger than ${maxHeaderSize} bytes in all.`, details: { maxBytes: maxHeaderSize } };
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return { status: 413, code: 'http/payload_too_large', message: 'The request body\'s chunk extensions are too large.' };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { status: 408, code: 'http/request_timeout', message: 'The request did not arrive in full in time.' };
    default:
      return { status: 400, code: 'http/malformed_request', message: 'The request is not well-formed HTTP/1.1.' };
  }
}

/** The whole HTTP response to a refusal, as bytes to write to the socket: a problem document, as every other refusal of the API. */
export function clientErrorResponse(code: string | undefined): string {
  const refusal = refusalOf(code);
  const { problem } = toProblem(new HttpException({ message: refusal.message, code: refusal.code }, refusal.status));
  const body = JSON.stringify({ ...refusal.details, ...problem });
  return [
    `HTTP/1.1 ${refusal.status} ${problem.title}`,
    'Content-Type: application/problem+json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Cache-Control: no-store',
    'Connection: close',
    '',
    body,
  ].join('\r\n');
}

/**
 * The http server's 'clientError' listener: what Node's parser refuses before Express sees a
 * request (headers too large, not HTTP at all, too slow) is answered with a problem document
 * instead of Node's bare status line. It does what Node does without a listener otherwise:
 * write the answer only if nothing of another response went out on the socket (else the client
 * would read it as part of that one), then close the connection. The socket may be gone (the
 * client hung up, ECONNRESET): nothing is written to it then, and nothing here throws, since an
 * error thrown from an event listener would take the server down.
 */
export function answerClientError(err: Error & { code?: string }, socket: Duplex): void {
  try {
    const inFlight = (socket as { _httpMessage?: { headersSent?: boolean } | null })._httpMessage;
    if (err.code !== 'ECONNRESET' && socket.writable && !socket.destroyed && !inFlight?.headersSent) socket.write(clientErrorResponse(err.code));
  } catch {
    // The socket is closed below whatever went wrong; there is no one left to tell.
  }
  socket.destroy();
}
