// The read store as projections see it during one batch of events: documents are read once and written once per
// batch, however many of its events touch them (a replay's events come in runs per item: created, started, processed).
import type { Collection, Document, Filter, ReadStore } from '../src/infrastructure/readStore/port.ts';

export interface BatchStore extends ReadStore {
  /** Writes what the batch changed to the store below, collection by collection, or to `into` (a transaction of it). */
  flush(into?: ReadStore): Promise<void>;
  /** The documents `flush` would put. */
  held(): Iterable<Document>;
}

/** Ids per query of `lookup`. */
const LOOKUP_IDS = 500;

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

export interface BatchOptions {
  /**
   * When each collection below holds only documents of these ids (a split replay's thread, over shadows that were
   * empty, reading only documents of its own streams): a lookup of another id is answered null without a query, and
   * the batch adds the ids it puts. Kept by the caller from one batch to the next.
   */
  onlyHolds?: Map<string, Set<string>>;
}

/**
 * Lookups by `_id` are served from what the batch read or wrote (no copy, no parse: projections build new documents
 * rather than change the ones they read); writes are held until `flush`. Any other query first writes the
 * collection's held writes, so it sees them. A write the store refuses surfaces at the flush: the runner then
 * applies the batch again event by event on the store itself, so the failure is pinned on its event.
 */
export function createBatchStore(under: ReadStore, { onlyHolds }: BatchOptions = {}): BatchStore {
  const collections = new Map<string, { collection: Collection; flush(into?: ReadStore): Promise<void>; held(): Iterable<Held> }>();

  function wrap<T extends Document>(name: string) {
    const store = under.collection<T>(name);
    const known = new Map<string, T | null>();
    let holds = onlyHolds?.get(name);
    if (onlyHolds && !holds) onlyHolds.set(name, (holds = new Set()));
    let held = new Map<string, Held>();
    const flush = async (into?: ReadStore) => {
      if (held.size === 0) return;
      const writes = held;
      held = new Map();
      const target = into ? into.collection<T>(name) : store;
      if (target.bulkWrite) {
        await target.bulkWrite([...writes].map(([id, document]) => (document ? { put: document as T } : { delete: id })));
        return;
      }
      for (const [id, document] of writes) await (document ? target.put(document as T) : target.deleteOne(id));
    };
    const lookup = async (id: string): Promise<T | null> => {
      if (known.has(id)) return known.get(id)!;
      const found = holds && !holds.has(id) ? null : await store.findOne({ _id: id });
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
      async lookup(ids) {
        const asked = ids.filter((id) => !known.has(id) && (!holds || holds.has(id)));
        for (const id of ids) if (!known.has(id) && holds && !holds.has(id)) known.set(id, null);
        for (let at = 0; at < asked.length; at += LOOKUP_IDS) {
          const chunk = asked.slice(at, at + LOOKUP_IDS);
          const found = new Map((await store.find({ _id: { $in: chunk } })).map((document) => [document._id, document]));
          for (const id of chunk) known.set(id, found.get(id) ?? null);
        }
        return ids.flatMap((id) => known.get(id) ?? []);
      },
      async put(document) {
        holds?.add(document._id);
        known.set(document._id, document);
        held.set(document._id, document);
      },
      async deleteOne(id) {
        known.set(id, null);
        held.set(id, null);
      },
      async clear() {
        held = new Map();
        known.clear();
        holds?.clear();
        await store.clear();
      },
      ensureIndex: (index) => store.ensureIndex(index),
      async insert(document) {
        await flush();
        known.delete(document._id);
        holds?.add(document._id);
        return store.insert(document);
      },
      async bulkWrite(writes) {
        for (const write of writes) await ('put' in write ? collection.put(write.put) : collection.deleteOne(write.delete));
      },
    };
    return { collection: collection as unknown as Collection, flush, held: () => held.values() };
  }

  return {
    collection<T extends Document>(name: string) {
      let entry = collections.get(name);
      if (!entry) collections.set(name, (entry = wrap<T>(name)));
      return entry.collection as unknown as Collection<T>;
    },
    async flush(into) {
      for (const { flush } of collections.values()) await flush(into);
    },
    *held() {
      for (const { held } of collections.values()) for (const document of held()) if (document) yield document;
    },
    async close() {},
  };
}
