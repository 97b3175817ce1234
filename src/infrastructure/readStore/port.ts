// The read-model store port: collections of JSON documents queried with MongoDB filter and sort documents.

/** Every read-model document has a string `_id`; values are JSON (strings, numbers, booleans, null, arrays, objects). */
export interface Document {
  _id: string;
  [field: string]: unknown;
}

/** A MongoDB filter document, restricted to what both MongoDB/FerretDB and the embedded store evaluate the same way. */
export type Filter = Record<string, unknown>;
/** A MongoDB sort document: field → 1 (ascending) or -1 (descending). */
export type Sort = Record<string, 1 | -1>;

export interface FindOptions {
  sort?: Sort;
  skip?: number;
  limit?: number;
}

export interface IndexSpec {
  /** Fields in order with their direction, as for MongoDB's createIndex. */
  keys: Record<string, 1 | -1>;
  unique?: boolean;
  name: string;
}

/** One write of a `bulkWrite`: a document to put, or the `_id` of one to delete. */
export type Write<T extends Document = Document> = { put: T } | { delete: string };

export interface Collection<T extends Document = Document> {
  findOne(filter: Filter): Promise<T | null>;
  find(filter: Filter, options?: FindOptions): Promise<T[]>;
  count(filter: Filter): Promise<number>;
  /** Inserts the document or replaces the one with the same `_id`. */
  put(document: T): Promise<void>;
  deleteOne(id: string): Promise<void>;
  /** Removes every document. */
  clear(): Promise<void>;
  /** Creates the index if it does not exist (idempotent). */
  ensureIndex(index: IndexSpec): Promise<void>;
  /**
   * Inserts the document only when none has its `_id`: true when inserted, false when one was there (left as it
   * is). Atomic also between processes sharing the store, and the one such step every adapter has: FerretDB 1.x
   * runs an update as a read and a write, so two processes can both "win" a compare-and-set there (leases and
   * shared counters rest on this instead).
   */
  insert(document: T): Promise<boolean>;
  /**
   * Documents by `_id`, answered from what a projection's batch holds where it has them and in one query for the rest,
   * without writing what the batch holds first (projections/batchStore.ts). Stores without it answer `find` by `$in`.
   */
  lookup?(ids: string[]): Promise<T[]>;
  /** Puts and deletes in order, in one round trip where the store has one (MongoDB's bulkWrite); without it, one by one. */
  bulkWrite?(writes: Write<T>[]): Promise<void>;
  /**
   * For a bulk load into an empty collection: drops its indexes other than unique ones (and any search index),
   * so that rows go in without them; `ensureIndex` of each declared index then builds them from the rows in one
   * pass. False, with nothing dropped, when the collection holds documents. Stores without it keep their indexes.
   */
  deferIndexes?(): Promise<boolean>;
  /** How the store would run `find(filter, options)`; null when the server reports no plan. Stores without a query planner leave it out. */
  explain?(filter: Filter, options?: FindOptions): Promise<QueryPlan | null>;
}

/** A query plan, reduced to what the index evidence needs. */
export interface QueryPlan {
  /** Names (as given to ensureIndex; `_id` for the primary key) of the indexes the plan reads. */
  indexes: string[];
  /** True when the plan reads every document, or every entry of an index, of the collection. */
  fullScan: boolean;
  /** Whose planner made it: `sqlite`, `mongodb`, or `ferretdb` (a PostgreSQL plan of FerretDB's SQL). */
  planner: 'sqlite' | 'mongodb' | 'ferretdb';
  /** The server's own description of the plan, for messages. */
  detail: string;
}

export interface ReadStore {
  collection<T extends Document = Document>(name: string): Collection<T>;
  /**
   * Runs `work` with a store whose writes commit together when it resolves, or not at all when it
   * throws; reads inside see those writes, reads outside see none of them until then. Transactions
   * run one at a time. Stores without transactions leave it out (see `inTransaction`).
   */
  transaction?<R>(work: (store: ReadStore) => Promise<R>): Promise<R>;
  /**
   * Collection `from` takes the place of `to`, whose documents are dropped (on SQLite in the background after the
   * rename has committed: see `settle`); `from` ceases to exist. Atomic, and inside a transaction part of it.
   * Indexes may not come along: `ensureIndex` them on `to` afterwards (nothing to do where they came). Stores
   * without it (memory) leave it out.
   */
  renameCollection?(from: string, to: string): Promise<void>;
  /**
   * Builds on `from`, ahead of `renameCollection(from, to)`, what would otherwise be built after the rename while
   * it holds the write lock: `indexes` (those `to` will be ensured with) and the search indexes `to` is configured
   * with, each in transactions of its own, so other writers get their turn in between; later writes to `from` keep
   * them current, and the rename carries them over. Without it, they are built after the rename.
   */
  prepareRename?(from: string, to: string, indexes: readonly IndexSpec[]): Promise<void>;
  /**
   * Whether collections `a` and `b` hold the same documents (by `_id`, deep equality). Stores that keep documents
   * as text compare the text and parse only documents whose text differs; without it, callers compare page by page.
   */
  sameDocuments?(a: string, b: string): Promise<boolean>;
  /** Resolves once what the store does in the background after a write is done (SQLite: dropping the tables a rename replaced). */
  settle?(): Promise<void>;
  /** The file the store keeps its collections in, for writers on other threads (SQLite). */
  readonly file?: string;
  close(): Promise<void>;
}

/** Runs `work` in a transaction where the store has them; elsewhere directly, each write on its own. */
export const inTransaction = <R>(store: ReadStore, work: (store: ReadStore) => Promise<R>): Promise<R> =>
  store.transaction ? store.transaction(work) : work(store);

/** A `put` or a unique `ensureIndex` would give two documents the same key of a unique index. */
export class DuplicateKeyError extends Error {
  constructor(
    readonly collection: string,
    detail: string,
    options?: ErrorOptions,
  ) {
    super(`Duplicate key in ${collection}: ${detail}`, options);
  }
}
