// Applies one stream's events with a projection's own code to a fresh in-memory store: the document the shared read
// model will hold, for answering a write whose read model is slow to catch up.
import type { RecordedEvent } from '../src/infrastructure/eventStore/port.ts';
import type { ReadStore } from '../src/infrastructure/readStore/port.ts';
import { createMemoryReadStore } from '../src/infrastructure/readStore/memory.ts';
import type { Projection } from './projection.ts';
import { ensureCollections } from './runner.ts';

export async function projectInMemory(projection: Projection, events: RecordedEvent[]): Promise<ReadStore> {
  const read = createMemoryReadStore();
  await ensureCollections(read, [projection]);
  for (const event of events) {
    if (event.stream.startsWith(projection.streamPrefix)) await projection.apply(event, read);
  }
  return read;
}
