import type { Transporter } from 'nodemailer';

/** The parts of nodemailer 7's SMTP pool that hold a message (it offers no way to cancel one). */
interface PoolEntry {
  messageId?: string;
  mail?: { message?: { getHeader(name: string): string | undefined } };
}
interface PoolResource {
  queueEntry: PoolEntry | false;
  connection?: { _socket?: { destroy(): void } };
  close(): void;
}
interface Pool {
  _queue?: PoolEntry[];
  _connections?: PoolResource[];
}

/**
 * Drops a message the worker has given up on from the transport's pool: out of the queue if it
 * is still waiting, or with its connection closed if it is being sent. The pool's timeouts are
 * idle timeouts, so a server trickling its answer would otherwise hold the connection for good,
 * and a message left queued, or on a connection closed under it (the pool requeues those), would
 * still go out after its delivery was retried or settled.
 */
export function abandonPooledMessage(transport: Transporter, messageId: string): void {
  const pool = (transport as unknown as { transporter?: Pool }).transporter;
  const id = normalise(messageId);
  const queue = pool?._queue ?? [];
  for (let i = queue.length - 1; i >= 0; i--) if (normalise(queue[i]!.mail?.message?.getHeader('message-id') ?? '') === id) queue.splice(i, 1);
  for (const resource of pool?._connections ?? []) {
    if (!resource.queueEntry || normalise(resource.queueEntry.messageId ?? '') !== id) continue;
    // Cleared first, so that the pool neither requeues the message nor answers for it.
    resource.queueEntry = false;
    const socket = resource.connection?._socket;
    resource.close();
    socket?.destroy();
  }
}

/** As the pool records it: the Message-ID without its angle brackets. */
function normalise(messageId: string): string {
  return messageId.replace(/[<>\s]/g, '');
}
