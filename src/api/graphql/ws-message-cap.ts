import { Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { GraphQLModule } from '@nestjs/graphql';
import { APP_CONFIG } from '../../config/config.module';
import type { AppConfig } from '../../config/config.schema';

interface SocketServerOptions {
  maxPayload?: number;
}

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
    const driver = this.modules.get(GraphQLModule, { strict: false }).graphQlAdapter as unknown as { _subscriptionService?: { wss?: { options?: SocketServerOptions } } };
    const options = driver._subscriptionService?.wss?.options;
    if (typeof options?.maxPayload !== 'number') throw new Error('graphql-ws message cap: the socket server of @nestjs/graphql was not found where this version keeps it');
    options.maxPayload = this.config.api.maxBodyBytes;
  }
}
