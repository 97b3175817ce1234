// What a projection is: the events it turns into documents of its own collections.
import type { EventStore, RecordedEvent } from '../src/infrastructure/eventStore/port.ts';
import type { IndexSpec, ReadStore } from '../src/infrastructure/readStore/port.ts';

export interface Projection {
  name: string;
  /** Prefix of the streams whose events it reads; events of other streams never reach it. */
  streamPrefix: string;
  /** Collections it owns, with the indexes every API query on them needs. */
  collections: Record<string, IndexSpec[]>;
  /** Applies one event; must be idempotent (a replayed event leaves the documents as they are). */
  apply(event: RecordedEvent, store: ReadStore): Promise<void>;
  /**
   * Log events a runner applies in one batch at most, for a projection whose log events each carry many things (the
   * analytics: up to 1,000 player events): a batch is written in one synchronous stretch, which must end well within
   * a lease term (timers, the lease's renewal among them, wait for it).
   */
  batchEvents?: number;
  /**
   * Applies a batch's events of its streams at once, in their order, leaving the documents as `apply` of each would:
   * for a projection that works out less counting them together (the analytics: each roll-up touched, and its day's
   * summary, worked out once per batch rather than once per log event). A runner falls back to `apply`, event by
   * event, wherever it must pin a failure on one event.
   */
  applyAll?(events: RecordedEvent[], store: ReadStore): Promise<void>;
  /** How its streams replay apart, when they can (see `SplitReplay`). */
  split?: SplitReplay;
  /**
   * Loads the log up to `until` into its collections of `store`, empty and their indexes deferred, and its checkpoint
   * there at `until`: a rebuild's bulk load, quicker than event by event where the projection can count in memory
   * what many events add up to before it writes. Resolves to how many things it counted, in its own unit (the
   * analytics: player events).
   */
  bulkLoad?(events: EventStore, store: ReadStore, until: number, onPassed: (position: number) => void): Promise<BulkLoaded>;
}

/**
 * A projection whose streams can be replayed apart, several threads each taking a share of the streams and every
 * event of a stream (a bulk load, `src/operations/splitReplay.ts`): a stream's documents depend on its events alone,
 * and what depends on several streams (a project's statistics) is counted by each thread and written once all
 * are done.
 */
export interface SplitReplay<Tally = unknown> {
  /** What one thread counts, empty. Crosses threads: plain data, Maps and arrays. */
  tally(): Tally;
  /**
   * Applies an event of the thread's share, counting in `tally` what it changes beyond its own stream's documents. It
   * reads only documents its stream's events wrote: the thread answers a lookup of any other as absent.
   */
  apply(event: RecordedEvent, store: ReadStore, tally: Tally): Promise<void>;
  /** Writes what depends on several streams from every thread's tally, once every thread has passed the same position. */
  merge(store: ReadStore, tallies: Tally[]): Promise<void>;
}

/** What a bulk load counted: `counted` of `unit` (`player events`). */
export interface BulkLoaded {
  counted: number;
  unit: string;
}

export const CHECKPOINTS = 'checkpoints';
