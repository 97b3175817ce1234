// What a projection is: the events it turns into documents of its own collections.
import type { RecordedEvent } from '../src/infrastructure/eventStore/port.ts';
import type { IndexSpec, ReadStore } from '../src/infrastructure/readStore/port.ts';

export interface Projection {
  name: string;
  /** Prefix of the streams whose events it reads; events of other streams never reach it. */
  streamPrefix: string;
  /** Collections it owns, with the indexes every API query on them needs. */
  collections: Record<string, IndexSpec[]>;
  /** Applies one event; must be idempotent (a replayed event leaves the documents as they are). */
  apply(event: RecordedEvent, store: ReadStore): Promise<void>;
}

export const CHECKPOINTS = 'checkpoints';
