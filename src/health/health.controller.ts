import { Controller, Get, HttpStatus, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { PrismaService } from '../database/prisma.service';
import { HealthDto } from './health.responses';

const PROBE_TIMEOUT_MS = 2000;

@ApiTags('health')
@Controller('health')
export class HealthController {
  constructor(private readonly prisma: PrismaService) {}

  /** 200 when the database answers a query, 503 when it does not. */
  @Get()
  @ApiOperation({ summary: 'Whether the server can reach its database. No token needed.' })
  @ApiOkResponse({ type: HealthDto, description: 'The database answered.' })
  @ApiServiceUnavailableResponse({ type: HealthDto, description: 'The database did not answer within 2 s, or could not be reached.' })
  async health(@Res() res: Response): Promise<void> {
    const kind = this.prisma.runtime.kind;
    const started = Date.now();
    try {
      await withTimeout(this.prisma.$queryRawUnsafe('SELECT 1'), PROBE_TIMEOUT_MS);
      res.status(HttpStatus.OK).json({ status: 'ok', database: { status: 'up', kind, latencyMs: Date.now() - started } });
    } catch (err) {
      res.status(HttpStatus.SERVICE_UNAVAILABLE).json({
        status: 'error',
        database: { status: 'down', kind, error: err instanceof TimeoutError ? 'timed out' : 'unreachable' },
      });
    }
  }
}

class TimeoutError extends Error {}

async function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TimeoutError()), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
