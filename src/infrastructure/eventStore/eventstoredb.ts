// EventStoreDB event store: the port over the gRPC client, for running against a real server.
import {
  ANY,
  BACKWARDS,
  END,
  EventStoreDBClient,
  NO_STREAM,
  START,
  StreamNotFoundError,
  WrongExpectedVersionError,
  excludeSystemEvents,
  jsonEvent,
  type AllStreamResolvedEvent,
  type AppendExpectedRevision,
  type JSONType,
  type ReadPosition,
  type ResolvedEvent,
} from '@eventstore/db-client';
import {
  WrongExpectedRevision,
  type EventStore,
  type ExpectedRevision,
  type RecordedEvent,
  type Subscription,
} from './port.ts';

type Resolved = ResolvedEvent | AllStreamResolvedEvent;

// Log positions are byte offsets into the transaction file, so they stay exact as numbers up to 8 PiB of log;
// the bound also rejects the placeholder (2^64 - 1) that servers before 22.6 send on stream reads.
const toPosition = (commit: bigint | undefined): number => {
  if (commit === undefined || commit > BigInt(Number.MAX_SAFE_INTEGER)) {
    throw new Error('EventStoreDB did not report a log position (needs server 22.6 or later)');
  }
  return Number(commit);
};

const positionOf = ({ event, commitPosition }: Resolved): number =>
  toPosition(commitPosition ?? event?.position?.commit);

// Position 0 means "before the first event"; otherwise commit and prepare coincide for events not written
// in explicit transactions, which this service never uses.
const fromPosition = (after: number): ReadPosition =>
  after === 0 ? START : { commit: BigInt(after), prepare: BigInt(after) };

const toExpected = (expected: ExpectedRevision): AppendExpectedRevision =>
  expected === 'no_stream' ? NO_STREAM : expected === 'any' ? ANY : BigInt(expected);

const toEvent = (resolved: Resolved): RecordedEvent | undefined => {
  const { event } = resolved;
  if (!event) return undefined;
  return {
    id: event.id,
    stream: event.streamId,
    revision: Number(event.revision),
    position: positionOf(resolved),
    type: event.type,
    data: event.data,
    created: event.created.toISOString(),
  };
};

// $all also carries the server's own events ($-prefixed types and streams), which are not the service's.
const toUserEvent = (resolved: Resolved): RecordedEvent | undefined => {
  const event = toEvent(resolved);
  return event && !event.type.startsWith('$') && !event.stream.startsWith('$') ? event : undefined;
};

export function createEventStoreDbEventStore(connectionString: string): EventStore {
  const client = EventStoreDBClient.connectionString(connectionString);

  // Reads up to `count` records of $all strictly after `after`, system ones included so paging can step over them.
  const readRecords = async (after: number, count: number): Promise<AllStreamResolvedEvent[]> => {
    const records: AllStreamResolvedEvent[] = [];
    // A read from a position includes the record at that position, hence one more than asked.
    for await (const resolved of client.readAll({ fromPosition: fromPosition(after), maxCount: count + 1 })) {
      if (positionOf(resolved) > after) records.push(resolved);
    }
    return records.slice(0, count);
  };

  const store: EventStore = {
    async readStream(stream) {
      const events: RecordedEvent[] = [];
      try {
        for await (const resolved of client.readStream(stream)) {
          const event = toEvent(resolved);
          if (event) events.push(event);
        }
      } catch (error) {
        if (error instanceof StreamNotFoundError) return [];
        throw error;
      }
      return events;
    },
    async streamRevision(stream) {
      try {
        const last = client.readStream(stream, { direction: BACKWARDS, fromRevision: END, maxCount: 1 });
        for await (const resolved of last) {
          if (resolved.event) return Number(resolved.event.revision);
        }
      } catch (error) {
        if (error instanceof StreamNotFoundError) return -1;
        throw error;
      }
      return -1;
    },
    async appendToStream(stream, events, expected) {
      if (events.length === 0) throw new Error('appendToStream needs at least one event');
      try {
        const result = await client.appendToStream(
          stream,
          // The client serialises data with JSON.stringify, so any JSON value goes through despite JSONType.
          events.map((event) => jsonEvent({ type: event.type, data: event.data as JSONType })),
          { expectedRevision: toExpected(expected) },
        );
        // The reported position is the last appended event's.
        return { revision: Number(result.nextExpectedRevision), position: toPosition(result.position?.commit) };
      } catch (error) {
        if (error instanceof WrongExpectedVersionError) {
          const actual = error.actualVersion === NO_STREAM ? -1 : Number(error.actualVersion);
          throw new WrongExpectedRevision(stream, expected, actual);
        }
        throw error;
      }
    },
    async appendMany(appends) {
      // No transaction spans streams here (see the port): one append after another, stopping at the first failure.
      const results = [];
      for (const { stream, events, expected } of appends) results.push(await store.appendToStream(stream, events, expected));
      return results;
    },
    async headPosition() {
      // The newest user event, read backwards from the end of $all; leaving the loop ends the read.
      for await (const resolved of client.readAll({ direction: BACKWARDS, fromPosition: END })) {
        const event = toUserEvent(resolved);
        if (event) return event.position;
      }
      return 0;
    },
    async readAll(after, limit) {
      const events: RecordedEvent[] = [];
      let cursor = after;
      while (events.length < limit) {
        const records = await readRecords(cursor, limit);
        for (const record of records) {
          const event = toUserEvent(record);
          if (event) events.push(event);
        }
        const last = records.at(-1);
        if (!last || records.length < limit) break;
        cursor = positionOf(last);
      }
      return events.slice(0, limit);
    },
    subscribeToAll(after, handler, onError): Subscription {
      const subscription = client.subscribeToAll({ fromPosition: fromPosition(after), filter: excludeSystemEvents() });
      let closing = false;
      // Cancelling fails only when the call never started, which leaves nothing to cancel.
      const cancel = () => subscription.unsubscribe().catch(() => undefined);
      const deliver = async () => {
        for await (const resolved of subscription) {
          if (closing) return;
          const event = toUserEvent(resolved);
          // The server already starts after `after`; checking here keeps the port's guarantee explicit.
          if (event && event.position > after) await handler(event);
        }
      };
      const done = deliver().catch(async (error: unknown) => {
        // Destroying the stream on close ends the loop with a premature-close error: not a failure.
        if (closing) return;
        await cancel();
        if (!onError) throw error;
        onError(error);
      });
      return {
        async close() {
          closing = true;
          await cancel();
          subscription.destroy();
          await done.catch(() => undefined);
        },
      };
    },
    async close() {
      await client.dispose();
    },
  };
  return store;
}
