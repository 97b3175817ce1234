// In-process read store: MongoDB filters evaluated by mingo over Maps, with hash indexes for equality lookups.
import { Query } from 'mingo';
import {
  DuplicateKeyError,
  type Collection,
  type Document,
  type Filter,
  type FindOptions,
  type IndexSpec,
  type ReadStore,
  type Sort,
} from './port.ts';

interface HashIndex {
  spec: IndexSpec;
  fields: string[];
  /** Key (the JSON of the indexed values) → ids of the documents holding it. */
  buckets: Map<string, Set<string>>;
  /** Documents whose indexed path crosses an array: equality may match any element, so every lookup must test them. */
  unkeyed: Set<string>;
}

const UNKEYED = Symbol('unkeyed');

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const isPlainValue = (value: unknown): value is string | number | boolean | null =>
  value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';

function keyOf(document: Document, fields: string[]): string | typeof UNKEYED {
  const values: unknown[] = [];
  for (const field of fields) {
    let value: unknown = document;
    for (const part of field.split('.')) {
      if (Array.isArray(value)) return UNKEYED;
      value = isRecord(value) ? value[part] : undefined;
    }
    if (Array.isArray(value)) return UNKEYED;
    // MongoDB indexes a missing field as null, and `{field: null}` matches both.
    values.push(value ?? null);
  }
  return JSON.stringify(values);
}

/** The key a filter selects in the index, when it gives a plain equality for every indexed field. */
function lookupKey(filter: Filter, index: HashIndex): string | undefined {
  const values: unknown[] = [];
  for (const field of index.fields) {
    const value = filter[field];
    if (!isPlainValue(value)) return undefined;
    values.push(value);
  }
  return JSON.stringify(values);
}

const sameKeys = (a: IndexSpec, b: IndexSpec) => JSON.stringify(a.keys) === JSON.stringify(b.keys);

// MongoDB's sort order for the types JSON has; an empty array sorts before null.
const EMPTY_ARRAY = Symbol('emptyArray');
function typeRank(value: unknown): number {
  if (value === EMPTY_ARRAY) return 0;
  if (value === null || value === undefined) return 1;
  if (typeof value === 'number') return 2;
  if (typeof value === 'string') return 3;
  if (Array.isArray(value)) return 5;
  if (typeof value === 'object') return 4;
  return 6;
}

// UTF-16 order puts code points above U+FFFF (surrogates) before U+E000–U+FFFF; MongoDB compares code points.
const codePointRank = (unit: number) => (unit < 0xd800 ? unit : unit <= 0xdfff ? unit + 0x2000 : unit - 0x800);

function compareStrings(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return codePointRank(x) - codePointRank(y);
  }
  return a.length - b.length;
}

/** Objects compare field by field (value type, then name, then value), as BSON documents do; arrays element by element. */
function compareEntries(a: [string, unknown][], b: [string, unknown][]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const [nameA, valueA] = a[i]!;
    const [nameB, valueB] = b[i]!;
    const order = typeRank(valueA) - typeRank(valueB) || compareStrings(nameA, nameB) || compareValues(valueA, valueB);
    if (order !== 0) return order;
  }
  return a.length - b.length;
}

function compareValues(a: unknown, b: unknown): number {
  const rank = typeRank(a);
  if (rank !== typeRank(b)) return rank - typeRank(b);
  if (typeof a === 'number' || typeof a === 'boolean') return Number(a) - Number(b);
  if (typeof a === 'string') return compareStrings(a, b as string);
  if (Array.isArray(a)) return compareEntries(Object.entries(a), Object.entries(b as unknown[]));
  if (isRecord(a)) return compareEntries(Object.entries(a), Object.entries(b as Record<string, unknown>));
  return 0;
}

/** Values at a dotted path, collected through arrays as MongoDB does. */
function valuesAt(value: unknown, parts: string[]): unknown {
  if (parts.length === 0) return value;
  if (Array.isArray(value)) return value.flatMap((element) => valuesAt(element, parts));
  return isRecord(value) ? valuesAt(value[parts[0]!], parts.slice(1)) : undefined;
}

/** An array sorts by its smallest element ascending and by its largest descending. */
function sortKey(value: unknown, direction: 1 | -1): unknown {
  if (!Array.isArray(value)) return value;
  if (value.length === 0) return EMPTY_ARRAY;
  return value.reduce((best: unknown, element: unknown) => (compareValues(element, best) * direction < 0 ? element : best));
}

function sortDocuments(documents: Document[], sort: Sort): Document[] {
  const fields = Object.entries(sort).map(([field, direction]) => ({ parts: field.split('.'), direction }));
  const keyed = documents.map((document) => ({
    document,
    keys: fields.map(({ parts, direction }) => sortKey(valuesAt(document, parts), direction)),
  }));
  keyed.sort((a, b) => {
    for (const [i, { direction }] of fields.entries()) {
      const order = compareValues(a.keys[i], b.keys[i]) * direction;
      if (order !== 0) return order;
    }
    return 0;
  });
  return keyed.map(({ document }) => document);
}

/**
 * A filter of plain top-level equalities (the API's hot lookups) is tested directly: building a
 * mingo Query costs about 100 times more than testing one document with it.
 */
function compile(filter: Filter): { test(document: Document): boolean } {
  const entries = Object.entries(filter);
  if (!entries.every(([field, value]) => isPlainValue(value) && !field.includes('.') && !field.startsWith('$'))) return new Query(filter);
  const equal = (actual: unknown, expected: unknown) =>
    expected === null ? actual == null : actual === expected || (Array.isArray(actual) && actual.includes(expected));
  return { test: (document) => entries.every(([field, value]) => equal(document[field], value)) };
}

function createMemoryCollection(name: string): Collection {
  const documents = new Map<string, Document>();
  const indexes: HashIndex[] = [];

  function assertFree(index: HashIndex, key: string | typeof UNKEYED, id: string) {
    // Arrays are not compared element by element as MongoDB's multikey indexes do (FerretDB 1.x doesn't either).
    if (key === UNKEYED) return;
    for (const holder of index.buckets.get(key) ?? []) {
      if (holder !== id) throw new DuplicateKeyError(name, `index ${index.spec.name} key ${key}`);
    }
  }

  function add(index: HashIndex, key: string | typeof UNKEYED, id: string) {
    if (key === UNKEYED) index.unkeyed.add(id);
    else if (index.buckets.has(key)) index.buckets.get(key)!.add(id);
    else index.buckets.set(key, new Set([id]));
  }

  function remove(document: Document) {
    for (const index of indexes) {
      const key = keyOf(document, index.fields);
      const bucket = key === UNKEYED ? index.unkeyed : index.buckets.get(key);
      bucket?.delete(document._id);
      if (key !== UNKEYED && bucket?.size === 0) index.buckets.delete(key);
    }
    documents.delete(document._id);
  }

  /** Ids that may match: the smallest bucket the filter's equalities select, or undefined when no index applies. */
  function candidateIds(filter: Filter): string[] | undefined {
    const id = filter._id;
    if (isPlainValue(id)) return typeof id === 'string' && documents.has(id) ? [id] : [];
    let best: { index: HashIndex; key: string; size: number } | undefined;
    for (const index of indexes) {
      const key = lookupKey(filter, index);
      if (key === undefined) continue;
      const size = (index.buckets.get(key)?.size ?? 0) + index.unkeyed.size;
      if (!best || size < best.size) best = { index, key, size };
    }
    return best && [...(best.index.buckets.get(best.key) ?? []), ...best.index.unkeyed];
  }

  function* matching(filter: Filter): Generator<Document> {
    const query = compile(filter);
    const ids = candidateIds(filter);
    for (const document of ids ? ids.map((id) => documents.get(id)!) : documents.values()) {
      if (query.test(document)) yield document;
    }
  }

  const collection: Collection = {
    async findOne(filter) {
      const found = matching(filter).next();
      return found.done ? null : structuredClone(found.value);
    },
    async find(filter, options: FindOptions = {}) {
      const all = [...matching(filter)];
      const found = options.sort ? sortDocuments(all, options.sort) : all;
      const start = options.skip ?? 0;
      // A limit of 0 means no limit, as in MongoDB.
      const page = found.slice(start, options.limit ? start + options.limit : undefined);
      return page.map((document) => structuredClone(document));
    },
    async count(filter) {
      let count = 0;
      for (const _ of matching(filter)) count++;
      return count;
    },
    async put(document) {
      const copy = structuredClone(document);
      const keys = indexes.map((index) => keyOf(copy, index.fields));
      for (const [i, index] of indexes.entries()) if (index.spec.unique) assertFree(index, keys[i]!, copy._id);
      const previous = documents.get(copy._id);
      if (previous) remove(previous);
      documents.set(copy._id, copy);
      for (const [i, index] of indexes.entries()) add(index, keys[i]!, copy._id);
    },
    async deleteOne(id) {
      const document = documents.get(id);
      if (document) remove(document);
    },
    async clear() {
      documents.clear();
      for (const index of indexes) {
        index.buckets.clear();
        index.unkeyed.clear();
      }
    },
    async ensureIndex(spec) {
      const existing = indexes.find((index) => index.spec.name === spec.name || sameKeys(index.spec, spec));
      if (existing) {
        const same = existing.spec.name === spec.name && sameKeys(existing.spec, spec) && !existing.spec.unique === !spec.unique;
        if (same) return;
        // MongoDB refuses to redefine an index too; silently keeping the old one would hide the mismatch.
        throw new Error(`Index ${spec.name} of ${name} conflicts with the existing index ${existing.spec.name}`);
      }
      const index: HashIndex = { spec, fields: Object.keys(spec.keys), buckets: new Map(), unkeyed: new Set() };
      for (const document of documents.values()) {
        const key = keyOf(document, index.fields);
        if (spec.unique) assertFree(index, key, document._id);
        add(index, key, document._id);
      }
      indexes.push(index);
    },
    async insert(document) {
      // No await between the test and the put: nothing else runs in between.
      if (documents.has(document._id)) return false;
      await collection.put(document);
      return true;
    },
  };
  return collection;
}

export function createMemoryReadStore(): ReadStore {
  const collections = new Map<string, Collection>();
  return {
    collection<T extends Document>(name: string) {
      let collection = collections.get(name);
      if (!collection) collections.set(name, (collection = createMemoryCollection(name)));
      return collection as unknown as Collection<T>;
    },
    async close() {},
  };
}
