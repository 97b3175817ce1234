// Opens a test server's event store from the test process, as an operator's script would (the server may be running).
import { loadConfig } from '../../src/config.ts';
import { openEventStore } from '../../src/composition.ts';
import type { EventStore } from '../../src/infrastructure/eventStore/port.ts';

export async function withEventStore<T>(env: Record<string, string>, use: (events: EventStore) => Promise<T>): Promise<T> {
  const loaded = loadConfig(env);
  if (!loaded.ok) throw new Error(loaded.message);
  const events = await openEventStore(loaded.config);
  try {
    return await use(events);
  } finally {
    await events.close();
  }
}
