import { Module } from '@nestjs/common';
import { EventStore } from './event-store.service';

@Module({ providers: [EventStore], exports: [EventStore] })
export class EventStoreModule {}
