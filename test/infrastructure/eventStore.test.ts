// Runs the event store contract against SQLite always, and against EventStoreDB when EVENTSTORE_URL is set.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe } from 'vitest';
import { createEventStoreDbEventStore } from '../../src/infrastructure/eventStore/eventstoredb.ts';
import { createSqliteEventStore } from '../../src/infrastructure/eventStore/sqlite.ts';
import { eventStoreContract } from './eventStore.contract.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'event-store-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

eventStoreContract('SQLite', async () => createSqliteEventStore(path.join(dir, 'events.sqlite')));

// e.g. EVENTSTORE_URL=esdb://localhost:2113?tls=false
const eventStoreUrl = process.env.EVENTSTORE_URL;
describe.skipIf(!eventStoreUrl)('with EVENTSTORE_URL', () => {
  eventStoreContract('EventStoreDB', async () => createEventStoreDbEventStore(eventStoreUrl as string));
});
