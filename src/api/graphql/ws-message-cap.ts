import { Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { GraphQLModule } from '@nestjs/graphql';
import type { EventEmitter } from 'node:events';
import { APP_CONFIG } from '../../config/config.module';
import type { AppConfig } from '../../config/config.schema';
import { logger } from '../../logging/logger';

interface SocketServer extends EventEmitter {
  options?: { maxPayload?: number };
}

/** What the socket library reports, besides closing with 1009, when a message is over its cap. */
const OVER_CAP = 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH';

/**
 * Caps a graphql-ws message at the API's body cap (API_MAX_BODY_BYTES). The socket library's own
 * cap is 100 MiB, and a message is read whole into memory before graphql-ws sees it, so before
 * the connection's token is checked. Nest creates that socket server and offers no option for
 * it: its options object is reached here, and read by the library at every upgrade. The
 * dependencies are pinned; should a new version move it, the server refuses to start rather
 * than run without the cap.
 */
@Injectable()
export class WsMessageCap implements OnApplicationBootstrap {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly modules: ModuleRef,
  ) {}

  onApplicationBootstrap(): void {
    const driver = this.modules.get(GraphQLModule, { strict: false }).graphQlAdapter as unknown as { _subscriptionService?: { wss?: SocketServer } };
    const wss = driver._subscriptionService?.wss;
    const options = wss?.options;
    if (!wss || typeof options?.maxPayload !== 'number') throw new Error('graphql-ws message cap: the socket server of @nestjs/graphql was not found where this version keeps it');
    const maxBytes = this.config.api.maxBodyBytes;
    options.maxPayload = maxBytes;
    // graphql-ws's own listener (added when Nest made the server) has run by the time this one does.
    const log = logger().child({ component: 'subscriptions' });
    wss.on('connection', (socket: EventEmitter) => quietOverCap(socket, () => log.warn({ maxBytes }, 'graphql-ws message over API_MAX_BODY_BYTES refused')));
  }
}

/**
 * graphql-ws prints every error of a socket on stderr as an internal error, with its stack. A
 * message over the cap is no fault of the server, and the connection is already closing with
 * 1009: it gets one line in the app's log instead. Any other error still goes to graphql-ws.
 */
function quietOverCap(socket: EventEmitter, overCap: () => void): void {
  const others = socket.listeners('error') as Array<(err: unknown) => void>;
  socket.removeAllListeners('error');
  socket.on('error', (err: unknown) => {
    if ((err as { code?: unknown } | null)?.code === OVER_CAP) return overCap();
    for (const listener of others) listener.call(socket, err);
  });
}
