// An event store that holds appends back until `commit`, then writes them all with one `appendMany`: bulk imports
// run the real command path (load, decide, append with the expected revision) and pay for one transaction per batch.
import {
  WrongExpectedRevision,
  type AppendResult,
  type EventStore,
  type NewEvent,
  type RecordedEvent,
  type StreamAppend,
} from './port.ts';

export interface StagedEventStore extends EventStore {
  /** Writes every staged append in one `appendMany` (see the port for what is atomic where), then starts afresh. */
  commit(): Promise<AppendResult[]>;
}

/**
 * Reads see the store's events followed by the staged ones; expected revisions are checked against that view when
 * staged and again by the store at commit, so an append that raced with another writer fails there, not silently.
 * Positions of staged events are provisional (counted from the head at staging time) until the commit.
 */
export function createStagedEventStore(store: EventStore): StagedEventStore {
  let staged: StreamAppend[] = [];
  let stagedByStream = new Map<string, RecordedEvent[]>();
  let stored = new Map<string, Promise<RecordedEvent[]>>();
  let head: Promise<number> | undefined;
  let count = 0;

  const storedEvents = (stream: string) => {
    let events = stored.get(stream);
    if (!events) stored.set(stream, (events = store.readStream(stream)));
    return events;
  };
  const view = async (stream: string) => [...(await storedEvents(stream)), ...(stagedByStream.get(stream) ?? [])];

  const staging: StagedEventStore = {
    readStream: view,
    async streamRevision(stream) {
      return (await view(stream)).length - 1;
    },
    async appendToStream(stream: string, events: NewEvent[], expected) {
      if (events.length === 0) throw new Error('appendToStream needs at least one event');
      const [fromStore, base] = await Promise.all([storedEvents(stream), (head ??= store.headPosition())]);
      // From here to the staging nothing is awaited: concurrent stagers of one stream see each other's appends.
      const actual = fromStore.length + (stagedByStream.get(stream)?.length ?? 0) - 1;
      const ok = expected === 'any' || (expected === 'no_stream' ? actual === -1 : actual === expected);
      if (!ok) throw new WrongExpectedRevision(stream, expected, actual);
      const created = new Date().toISOString();
      const recorded = events.map((event, i) => ({ ...event, id: '', stream, revision: actual + 1 + i, position: base + ++count, created }));
      stagedByStream.set(stream, [...(stagedByStream.get(stream) ?? []), ...recorded]);
      staged.push({ stream, events, expected });
      return { revision: actual + events.length, position: recorded.at(-1)!.position };
    },
    appendMany: (appends) => store.appendMany(appends),
    readAll: (after, limit) => store.readAll(after, limit),
    headPosition: () => store.headPosition(),
    subscribeToAll: (after, handler, onError) => store.subscribeToAll(after, handler, onError),
    async commit() {
      const appends = staged;
      staged = [];
      stagedByStream = new Map();
      stored = new Map();
      head = undefined;
      count = 0;
      return store.appendMany(appends);
    },
    close: () => store.close(),
  };
  return staging;
}
