import { DynamicModule, Global, Module } from '@nestjs/common';
import type { DatabaseRuntime } from './database';
import { PrismaService } from './prisma.service';

@Global()
@Module({})
export class DatabaseModule {
  static forRoot(runtime: DatabaseRuntime): DynamicModule {
    return {
      module: DatabaseModule,
      providers: [{ provide: PrismaService, useFactory: () => new PrismaService(runtime) }],
      exports: [PrismaService],
    };
  }
}
