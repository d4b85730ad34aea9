import { DynamicModule, Global, Module } from '@nestjs/common';
import type { AppConfig } from './config.schema';

export const APP_CONFIG = Symbol('APP_CONFIG');

/** Makes the validated configuration injectable everywhere as APP_CONFIG. */
@Global()
@Module({})
export class ConfigModule {
  static forRoot(config: AppConfig): DynamicModule {
    return { module: ConfigModule, providers: [{ provide: APP_CONFIG, useValue: config }], exports: [APP_CONFIG] };
  }
}
