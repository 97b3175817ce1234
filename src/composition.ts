// The composition root: turns configuration into adapters. Only main.ts and cli.ts call it.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Config } from './config.ts';
import type { EventStore } from './infrastructure/eventStore/port.ts';
import type { ReadStore } from './infrastructure/readStore/port.ts';
import { createSqliteEventStore } from './infrastructure/eventStore/sqlite.ts';
import { createEventStoreDbEventStore } from './infrastructure/eventStore/eventstoredb.ts';
import { createMemoryReadStore } from './infrastructure/readStore/memory.ts';
import { createMongoReadStore } from './infrastructure/readStore/mongo.ts';

export interface Infrastructure {
  events: EventStore;
  read: ReadStore;
  /** True when the read models live in this process and are rebuilt from the log at every start. */
  readModelsInProcess: boolean;
  close(): Promise<void>;
}

export async function openInfrastructure(config: Config): Promise<Infrastructure> {
  mkdirSync(config.DATA_DIR, { recursive: true });
  const events = config.EVENTSTORE_URL
    ? createEventStoreDbEventStore(config.EVENTSTORE_URL)
    : createSqliteEventStore(path.join(config.DATA_DIR, 'events.sqlite'));
  const read = config.MONGODB_URL ? await createMongoReadStore(config.MONGODB_URL) : createMemoryReadStore();
  return {
    events,
    read,
    readModelsInProcess: !config.MONGODB_URL,
    async close() {
      await read.close();
      await events.close();
    },
  };
}
