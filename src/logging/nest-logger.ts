import { LoggerService } from '@nestjs/common';
import { logger } from './logger';

/** Routes Nest's own messages into the JSON log. */
export class JsonNestLogger implements LoggerService {
  log(message: unknown, context?: string): void {
    logger().info({ context }, String(message));
  }
  error(message: unknown, trace?: string, context?: string): void {
    logger().error({ context, trace }, String(message));
  }
  warn(message: unknown, context?: string): void {
    logger().warn({ context }, String(message));
  }
  debug(message: unknown, context?: string): void {
    logger().debug({ context }, String(message));
  }
  verbose(message: unknown, context?: string): void {
    logger().trace({ context }, String(message));
  }
}
