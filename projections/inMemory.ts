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

export interface ReadAfterWrite {
  runner: { waitFor(position: number): Promise<boolean> };
  events: { readStream(stream: string): Promise<RecordedEvent[]> };
  read: ReadStore;
}

/**
 * Read-your-writes for one stream: the shared read model once it has applied `position` (the runner bounds that
 * wait), else what the stream's own events give through the same projection in memory.
 */
export async function readAfterWrite<T>(
  { runner, events, read }: ReadAfterWrite,
  write: { position: number; stream: string; projection: Projection },
  find: (read: ReadStore) => Promise<T | null>,
): Promise<T | null> {
  const caughtUp = await runner.waitFor(write.position);
  return (caughtUp ? await find(read) : null) ?? find(await projectInMemory(write.projection, await events.readStream(write.stream)));
}
