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
}

export interface ReadStore {
  collection<T extends Document = Document>(name: string): Collection<T>;
  close(): Promise<void>;
}

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
