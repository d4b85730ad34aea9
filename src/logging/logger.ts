import { AsyncLocalStorage } from 'node:async_hooks';
import pino, { Logger } from 'pino';

/** Per-request context; every log line written inside a request carries its id. */
export interface RequestContext {
  requestId: string;
}

export const requestContext = new AsyncLocalStorage<RequestContext>();

let root: Logger = pino({ level: process.env.LOG_LEVEL ?? 'info' });

/** Builds the process logger once the configuration is known. */
export function configureLogger(level: string, destination?: pino.DestinationStream): Logger {
  root = pino(
    {
      level,
      base: { service: 'fieldpost' },
      timestamp: pino.stdTimeFunctions.isoTime,
      mixin: () => {
        const ctx = requestContext.getStore();
        return ctx ? { requestId: ctx.requestId } : {};
      },
      formatters: { level: (label) => ({ level: label }) },
    },
    destination,
  );
  return root;
}

export function logger(): Logger {
  return root;
}
