// The event store port: streams of events, optimistic appends, and the global log.

/** An event as a handler proposes it. */
export interface NewEvent<Type extends string = string, Data = unknown> {
  type: Type;
  data: Data;
}

/** An event as stored: its place in its stream (revision, from 0) and in the whole log (position, from 1). */
export interface RecordedEvent<Type extends string = string, Data = unknown> extends NewEvent<Type, Data> {
  id: string;
  stream: string;
  revision: number;
  position: number;
  created: string;
}

/** What the stream's last revision must be for an append to go through. */
export type ExpectedRevision = number | 'no_stream' | 'any';

export interface AppendResult {
  /** Revision of the last appended event. */
  revision: number;
  /** Global position of the last appended event. */
  position: number;
}

export interface StreamAppend {
  stream: string;
  events: NewEvent[];
  expected: ExpectedRevision;
}

export interface Subscription {
  close(): Promise<void>;
}

/**
 * The share of the log one of several readers takes in a replay on several threads: streams named with one of
 * `prefixes`; of those named with one of `shared`, each reader takes the streams whose name ends in a character
 * whose code is `index` modulo `count` (a stream's events all go to one reader, in order); the other streams all go
 * to reader 0.
 */
export interface LogShare {
  prefixes: readonly string[];
  shared: readonly string[];
  index: number;
  count: number;
}

export interface EventStore {
  /** All events of a stream in order; an empty array when the stream does not exist. */
  readStream(stream: string): Promise<RecordedEvent[]>;
  /** Revision of the stream's last event, or -1 when the stream does not exist. */
  streamRevision(stream: string): Promise<number>;
  /** Appends atomically; throws WrongExpectedRevision when the stream has moved on. */
  appendToStream(stream: string, events: NewEvent[], expected: ExpectedRevision): Promise<AppendResult>;
  /**
   * Appends to several streams, each with its expected revision, in the order given (a stream may appear more
   * than once; each append sees the ones before it). SQLite: one transaction, all or none. EventStoreDB has no
   * transaction across streams: the appends go one after another, each atomic on its own, and the first that
   * fails stops the rest, leaving the earlier ones in place. For bulk imports (bench/seed.ts), not for commands.
   */
  appendMany(appends: StreamAppend[]): Promise<AppendResult[]>;
  /** Up to `limit` events of the whole log with a position greater than `after`. */
  readAll(after: number, limit: number): Promise<RecordedEvent[]>;
  /**
   * The events of `share` with a position greater than `after` and at most `until`, in order: the log filtered where
   * it lies, so events no reader wants are never read out. Only where the log is a local file (SQLite), which `file`
   * names for readers on other threads.
   */
  readShare?(after: number, until: number, share: LogShare): Promise<RecordedEvent[]>;
  readonly file?: string;
  /** Position of the last event of the whole log, 0 when it is empty: where a catch-up ends, without reading up to it. */
  headPosition(): Promise<number>;
  /**
   * Catch-up subscription to the whole log: delivers every event after `after` in order, then live ones.
   * The handler is awaited before the next event is delivered. If the handler throws (or the store fails),
   * the subscription stops and `onError` is called once with the error; without `onError` the error is
   * left as an unhandled rejection, so a dead subscription is never silent.
   * `close()` resolves once no handler call is in flight; no event is delivered after that.
   */
  subscribeToAll(
    after: number,
    handler: (event: RecordedEvent) => Promise<void>,
    onError?: (error: unknown) => void,
  ): Subscription;
  close(): Promise<void>;
}

export class WrongExpectedRevision extends Error {
  constructor(
    readonly stream: string,
    readonly expected: ExpectedRevision,
    readonly actual: number,
  ) {
    super(`Stream ${stream} is at revision ${actual}, expected ${String(expected)}`);
  }
}
