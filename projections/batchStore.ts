// The read store as projections see it during one batch of events: documents are read once and written once per
// batch, however many of its events touch them (a replay's events come in runs per item: created, started, processed).
import type { Collection, CollectionWrites, Document, Filter, ReadStore, Write } from '../src/infrastructure/readStore/port.ts';

export interface BatchStore extends ReadStore {
  /** Writes what the batch changed to the store below, collection by collection. */
  flush(): Promise<void>;
  /** What the batch changed, collection by collection, for a `commitBehind` (see `holdAll`). */
  changes(): CollectionWrites[];
  /** The batch's write of document `id` of `collection`: the document, null for a delete, undefined for none. */
  changed(collection: string, id: string): Document | null | undefined;
}

/**
 * A batch store that holds every write (`holdAll`) met a step that would have to write first: a query other than a
 * lookup by `_id` of a collection it or the batch before changed, an insert, a clear. The batch goes through a
 * transaction instead.
 */
export class NeedsTransaction extends Error {
  constructor() {
    super('this batch writes before it queries: it needs a transaction');
  }
}

export interface BatchStoreOptions {
  /** Never write: `flush` and every step that needs it throw `NeedsTransaction`, and `changes` hands the writes over. */
  holdAll?: boolean;
  /**
   * The batch before, while it is being committed: its writes answer lookups before the store does. Asked at each
   * lookup rather than kept, so that a batch store does not hold every one before it.
   */
  after?: () => BatchStore | undefined;
}

/** A write held back: the document, or null for a delete. */
type Held = Document | null;

const isPlain = (value: unknown) => value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';

/**
 * A filter the cache can answer for a document it holds: `_id` and top-level equalities on plain values
 * (a lookup such as `{_id, projectId}`). Anything else is left to the store.
 */
function cachedMatch(filter: Filter): ((document: Document) => boolean) | null {
  const entries = Object.entries(filter);
  if (typeof filter._id !== 'string' || entries.some(([field, value]) => field.includes('.') || field.startsWith('$') || !isPlain(value))) return null;
  return (document) => entries.every(([field, value]) => (document[field] ?? null) === value);
}

const writesOf = (held: Map<string, Held>): Write[] => [...held].map(([id, document]) => (document ? { put: document } : { delete: id }));

/**
 * Lookups by `_id` are served from what the batch read or wrote (no copy, no parse: projections build new documents
 * rather than change the ones they read); writes are held until `flush`. Any other query first writes the
 * collection's held writes, so it sees them. A write the store refuses surfaces at the flush: the runner then
 * applies the batch again event by event on the store itself, so the failure is pinned on its event.
 */
export function createBatchStore(under: ReadStore, { holdAll = false, after }: BatchStoreOptions = {}): BatchStore {
  const collections = new Map<string, { collection: Collection; flush(): Promise<void>; held(): Map<string, Held> }>();

  function wrap<T extends Document>(name: string) {
    const store = under.collection<T>(name);
    const known = new Map<string, T | null>();
    let held = new Map<string, Held>();
    const flush = async () => {
      if (holdAll) {
        if (held.size > 0 || after?.()?.changes().some(({ collection }) => collection === name)) throw new NeedsTransaction();
        return;
      }
      if (held.size === 0) return;
      const writes = writesOf(held) as Write<T>[];
      held = new Map();
      if (store.bulkWrite) return store.bulkWrite(writes);
      for (const write of writes) await ('put' in write ? store.put(write.put) : store.deleteOne(write.delete));
    };
    const lookup = async (id: string): Promise<T | null> => {
      if (known.has(id)) return known.get(id)!;
      const before = after?.()?.changed(name, id) as T | null | undefined;
      const found = before !== undefined ? before : await store.findOne({ _id: id });
      known.set(id, found);
      return found;
    };
    const collection: Collection<T> = {
      async findOne(filter) {
        const match = cachedMatch(filter);
        if (!match) {
          await flush();
          return store.findOne(filter);
        }
        const document = await lookup(filter._id as string);
        return document && match(document) ? document : null;
      },
      async find(filter, options) {
        await flush();
        return store.find(filter, options);
      },
      async count(filter) {
        const match = cachedMatch(filter);
        if (match && known.has(filter._id as string)) {
          const document = known.get(filter._id as string);
          return document && match(document) ? 1 : 0;
        }
        await flush();
        return store.count(filter);
      },
      async put(document) {
        known.set(document._id, document);
        held.set(document._id, document);
      },
      async deleteOne(id) {
        known.set(id, null);
        held.set(id, null);
      },
      async clear() {
        if (holdAll) throw new NeedsTransaction();
        held = new Map();
        known.clear();
        await store.clear();
      },
      ensureIndex: (index) => store.ensureIndex(index),
      async insert(document) {
        if (holdAll) throw new NeedsTransaction();
        await flush();
        known.delete(document._id);
        return store.insert(document);
      },
      async bulkWrite(writes) {
        for (const write of writes) await ('put' in write ? collection.put(write.put) : collection.deleteOne(write.delete));
      },
    };
    return { collection: collection as unknown as Collection, flush, held: () => held };
  }

  return {
    collection<T extends Document>(name: string) {
      let entry = collections.get(name);
      if (!entry) collections.set(name, (entry = wrap<T>(name)));
      return entry.collection as unknown as Collection<T>;
    },
    async flush() {
      for (const { flush } of collections.values()) await flush();
    },
    changes: () => [...collections].flatMap(([name, { held }]) => (held().size > 0 ? [{ collection: name, writes: writesOf(held()) }] : [])),
    changed: (collection, id) => collections.get(collection)?.held().get(id),
    async close() {},
  };
}
