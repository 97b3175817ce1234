// What the SQLite read store does with one collection, as synchronous steps on a connection; sqlite.ts decides which connection and when it commits.
import { isDeepStrictEqual } from 'node:util';
import { SqliteError, type Database, type Statement } from 'better-sqlite3';
import { DuplicateKeyError, type Document, type Filter, type FindOptions, type IndexSpec, type QueryPlan, type Write } from './port.ts';
import { translate, type SearchCandidates } from './sqliteQuery.ts';
import { searchCandidates, walkWindow } from './sqliteSearch.ts';
import { bound, keyColumn, quote, tableNames } from './sqliteNames.ts';
import { createCollection, createIndex, declaredIndexName, dropIndex, elementsSql, markMultikey, recreateCollection, setSearch, type CollectionSchema, type Schema } from './sqliteSchema.ts';

/** A connection and the schema its SQL may use: the committed one, or a draft inside a write. */
export interface Scope {
  db: Database;
  prepare(sql: string): Statement;
  schema: Schema;
}

/** JSON nested deeper than SQLite's 1,000 levels has at least 1,001 brackets open and as many closed. */
const SHORTEST_TOO_DEEP = 2_002;

/** Documents fetched per statement: their row ids go in as one JSON array. */
const FETCH_CHUNK = 500;

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

const pathParts = new Map<string, readonly string[]>();

/** The value at a dotted path; arrays inside the path are not looked into (as json_extract does not). */
function valueAt(document: Document, path: string): unknown {
  let parts = pathParts.get(path);
  if (!parts) pathParts.set(path, (parts = path.split('.')));
  let value: unknown = document;
  for (const part of parts) value = isRecord(value) ? value[part] : undefined;
  return value;
}

const sameKeys = (a: IndexSpec, b: IndexSpec) => JSON.stringify(a.keys) === JSON.stringify(b.keys);

/** Key values as SQLite returns them and as `bound` makes them: blobs compare by bytes. */
const sameKey = (stored: unknown, value: unknown) =>
  Buffer.isBuffer(stored) && Buffer.isBuffer(value) ? stored.equals(value) : stored === value;

/** A document SQLite cannot parse: its JSON nested deeper than the 1,000 levels SQLite's JSON functions take. */
class DocumentTooDeep extends Error {
  override name = 'DocumentTooDeepError';
  constructor(collection: string, id: string) {
    super(`The document ${id} of ${collection} is nested deeper than SQLite parses JSON (1,000 levels)`);
  }
}

/**
 * Documents whose JSON was made before their put (`serializeAhead`). A writer that takes turns with others (a split
 * replay's threads) makes it before its turn, so the turn holds only SQLite's work; the document must not change
 * after (projections make new documents rather than change the ones they read).
 */
const serialized = new WeakMap<Document, string>();
export function serializeAhead(documents: Iterable<Document>): void {
  for (const document of documents) serialized.set(document, flat(JSON.stringify(document)));
}

/**
 * The string in one piece: V8 builds JSON.stringify's result from parts, which the driver's binding copies into one
 * (on the heap, as long as the text) at the put; asking for a character makes that copy now instead.
 */
function flat(text: string): string {
  text.charCodeAt(0);
  return text;
}

const emptySchema = (name: string): CollectionSchema => ({ name, paths: [], multikey: new Set(), indexes: new Map(), search: [] });

/** `searchedNow`: the fields to keep a search index of, asked at each write (none while a bulk load defers it). */
export function collectionSteps<T extends Document>(name: string, searchedNow: () => readonly string[]) {
  const names = tableNames(name);
  const ridById = `SELECT rid FROM ${quote(names.keys)} WHERE _id = ?`;
  const docByRid = `SELECT doc FROM ${quote(names.docs)} WHERE rid = ?`;

  const replace = (scope: Scope, schema: CollectionSchema) => {
    scope.schema = new Map([...scope.schema, [name, schema]]);
    return schema;
  };

  const searchedAsConfigured = (schema: CollectionSchema, searched: readonly string[]) =>
    schema.search.length === searched.length && schema.search.every((path, i) => path === searched[i]);

  /** The collection's schema, its tables made on its first write and its search index kept as configured. */
  const prepared = (scope: Scope): CollectionSchema => {
    const existing = scope.schema.get(name) ?? replace(scope, createCollection(scope.db, name));
    const searched = searchedNow();
    return searchedAsConfigured(existing, searched) ? existing : replace(scope, setSearch(scope.db, existing, searched));
  };

  const translatingDuplicates = <R>(work: () => R): R => {
    try {
      return work();
    } catch (error) {
      if (error instanceof SqliteError && error.code === 'SQLITE_CONSTRAINT_UNIQUE') throw new DuplicateKeyError(name, error.message, { cause: error });
      throw error;
    }
  };

  /** Phrase candidates (sqliteSearch.ts) for a page of `need` documents; the largest row id stands for the collection's size. */
  const candidates = (scope: Scope, need: number): SearchCandidates => (path, phrase) => {
    const total = (scope.prepare(`SELECT max(rid) FROM ${quote(names.keys)}`).pluck().get() as number | null) ?? 0;
    const search = quote(names.search(path));
    const count = (match: string, limit: number) =>
      scope.prepare(`SELECT count(*) FROM (SELECT 1 FROM ${search} WHERE ${search} MATCH ? LIMIT ?)`).pluck().get(match, limit) as number;
    return searchCandidates(count, total, need)(path, phrase);
  };

  /** `need`: the documents up to the page's end; without a limit, all of them. */
  const translated = (scope: Scope, schema: CollectionSchema, filter: Filter, sort: FindOptions['sort'], need: number) =>
    translate(schema, filter, sort, candidates(scope, need));

  /**
   * The page's SQL. Ids a search index listed are sorted by their key rows, or, when they are many, the order's
   * index is walked for them within a window (`walkWindow`); a window that did not fill the page, and did not reach
   * the end of the collection, leaves the page to `sorted`, the listed ids sorted.
   */
  const pageQuery = (scope: Scope, schema: CollectionSchema, filter: Filter, options: FindOptions) => {
    const need = options.limit ? (options.skip ?? 0) + options.limit : Infinity;
    const query = translated(scope, schema, filter, options.sort, need);
    // A limit of 0 means no limit, as in MongoDB.
    const params = { ...query.params, limit: options.limit || -1, offset: options.skip ?? 0 };
    const sorted = `SELECT k.rid ${query.from}${query.orderBy} LIMIT @limit OFFSET @offset`;
    const window = query.walk ? walkWindow(query.walk.count, query.walk.total, need) : null;
    if (!query.walk || window === null) return { sql: sorted, params, searched: query.searched, sorted: null };
    const { select, from, orderBy, outerOrderBy, listed, total } = query.walk;
    return {
      sql: `SELECT w.rid FROM (SELECT ${select} ${from}${orderBy} LIMIT @window) AS w WHERE w.rid IN (${listed})${outerOrderBy} LIMIT @limit OFFSET @offset`,
      params: { ...params, window },
      searched: query.searched,
      sorted: window < total ? { sql: sorted, params } : null,
    };
  };

  /** Ids first, documents after: skipped rows and sorts never carry a document. */
  const fetch = (scope: Scope, rids: number[]): T[] => {
    if (rids.length === 1) {
      const doc = scope.prepare(docByRid).pluck().get(rids[0]) as string;
      return [JSON.parse(doc) as T];
    }
    const statement = scope.prepare(`SELECT rid, doc FROM ${quote(names.docs)} WHERE rid IN (SELECT value FROM json_each(?))`);
    const found = new Map<number, string>();
    for (let start = 0; start < rids.length; start += FETCH_CHUNK) {
      for (const row of statement.all(JSON.stringify(rids.slice(start, start + FETCH_CHUNK))) as { rid: number; doc: string }[]) found.set(row.rid, row.doc);
    }
    return rids.map((rid) => JSON.parse(found.get(rid)!) as T);
  };

  const columnsOf = (paths: readonly string[]) => paths.map((path) => quote(keyColumn(path)));

  /**
   * The SQL of a put, made once per schema rather than at every put (a replay puts every document): the same
   * strings also find their prepared statements without being hashed again.
   */
  const putSql = new WeakMap<CollectionSchema, ReturnType<typeof makePutSql>>();
  const makePutSql = (schema: CollectionSchema) => {
    const columns = columnsOf(schema.paths);
    return {
      select: `SELECT ${['rid', ...columns].join(', ')} FROM ${quote(names.keys)} WHERE _id = ?`,
      /** Its row id read as SQLite's last inserted one: a `RETURNING` clause made each insert a fifth slower. */
      insertKeys: `INSERT INTO ${quote(names.keys)} (${['_id', ...columns].join(', ')}) VALUES (${['?', ...columns.map(() => '?')].join(', ')})`,
      /** A document's key row where its `_id` is new, else nothing: a bulk write of new documents asks no select first. */
      insertNewKeys: `INSERT INTO ${quote(names.keys)} (${['_id', ...columns].join(', ')}) VALUES (${['?', ...columns.map(() => '?')].join(', ')}) ON CONFLICT (_id) DO NOTHING`,
      // Only a document SQLite can parse is written: its search index, its queries on fields without a key column and
      // a key column added later read the documents with SQLite's JSON functions, which refuse JSON nested over
      // 1,000 deep. A put of one writes nothing and fails (`DocumentTooDeep`).
      updateDoc: `UPDATE ${quote(names.docs)} SET doc = @doc WHERE rid = @rid AND json_valid(@doc)`,
      insertDoc: `INSERT INTO ${quote(names.docs)} (rid, doc) SELECT @rid, @doc WHERE json_valid(@doc)`,
      /** For JSON too short to nest 1,000 deep: SQLite need not parse it first. */
      insertShortDoc: `INSERT INTO ${quote(names.docs)} (rid, doc) VALUES (?, ?)`,
      deleteDoc: `DELETE FROM ${quote(names.docs)} WHERE rid = ?`,
      deleteKeys: `DELETE FROM ${quote(names.keys)} WHERE rid = ?`,
      /** Each multikey field with its position among the key columns. */
      elements: [...schema.multikey].map((path) => ({ ...elementsSql(name, path), path, column: schema.paths.indexOf(path) })),
    };
  };
  const putStatements = (schema: CollectionSchema) => {
    let sql = putSql.get(schema);
    if (!sql) putSql.set(schema, (sql = makePutSql(schema)));
    return sql;
  };

  type PutSql = ReturnType<typeof makePutSql>;
  type Elements = PutSql['elements'];
  /**
   * The element rows of `rid` from `document`'s fields: an array's elements a row each, encoded as the key columns
   * are (a replay puts every document: SQLite parsing each array from JSON again took 6 µs a document); any other
   * value as SQLite's json_each takes it, as the rows made from stored documents are.
   */
  const insertElements = (scope: Scope, elements: Elements, rid: number, document: Document) => {
    for (const { insert, insertElement, path } of elements) {
      const value = valueAt(document, path);
      if (value === undefined) continue;
      if (!Array.isArray(value)) {
        scope.prepare(insert).run(rid, JSON.stringify(value));
        continue;
      }
      const statement = scope.prepare(insertElement);
      // JSON makes an undefined element null.
      for (const element of value) statement.run(rid, bound(element ?? null));
    }
  };
  const removeElements = (scope: Scope, elements: Elements, rid: number) => {
    for (const { remove } of elements) scope.prepare(remove).run(rid);
  };
  /** The element rows of `rid` as its stored document has them (after a failed replacement of it). */
  const restoreElements = (scope: Scope, elements: Elements, rid: number) => {
    removeElements(scope, elements, rid);
    for (const { insertStored } of elements) scope.prepare(insertStored).run(rid);
  };

  const written = (changes: number, id: string) => {
    if (changes === 0) throw new DocumentTooDeep(name, id);
  };

  /** A new document's row; JSON of fewer than 2,002 characters cannot nest 1,000 deep, so SQLite need not check it. */
  const insertDoc = (scope: Scope, sql: PutSql, rid: number, document: Document, json = serialized.get(document) ?? JSON.stringify(document)) => {
    if (json.length < SHORTEST_TOO_DEEP) scope.prepare(sql.insertShortDoc).run(rid, json);
    else written(scope.prepare(sql.insertDoc).run({ rid, doc: json }).changes, document._id);
  };

  /** The key row of a new document; `rid` is the documents table's row too. */
  const insertKeys = (scope: Scope, schema: CollectionSchema, id: string, keys: unknown[]): number =>
    Number(scope.prepare(putStatements(schema).insertKeys).run(id, ...keys).lastInsertRowid);

  /** Only the key columns whose value changed: every other index of the collection is left as it is. */
  const updateKeys = (scope: Scope, schema: CollectionSchema, rid: number, before: unknown[], keys: unknown[]): void => {
    const changed = keys.flatMap((value, i) => (sameKey(before[i], value) ? [] : [i]));
    if (changed.length === 0) return;
    const assignments = changed.map((i) => `${quote(keyColumn(schema.paths[i]!))} = ?`).join(', ');
    scope.prepare(`UPDATE ${quote(names.keys)} SET ${assignments} WHERE rid = ?`).run(...changed.map((i) => keys[i]), rid);
  };

  return {
    find(scope: Scope, filter: Filter, options: FindOptions = {}): T[] {
      const schema = scope.schema.get(name);
      if (!schema) return [];
      // The lookup projections make for every event, without translating a filter.
      if (Object.keys(filter).length === 1 && typeof filter._id === 'string' && !options.skip) {
        const rid = scope.prepare(ridById).pluck().get(filter._id) as number | undefined;
        return rid === undefined ? [] : fetch(scope, [rid]);
      }
      const { sql, params, sorted } = pageQuery(scope, schema, filter, options);
      const rids = scope.prepare(sql).pluck().all(params) as number[];
      if (sorted && rids.length < options.limit!) return fetch(scope, scope.prepare(sorted.sql).pluck().all(sorted.params) as number[]);
      return fetch(scope, rids);
    },

    count(scope: Scope, filter: Filter): number {
      const schema = scope.schema.get(name);
      if (!schema) return 0;
      const query = translated(scope, schema, filter, undefined, Infinity);
      return scope.prepare(`SELECT count(*) ${query.from}`).pluck().get(query.params) as number;
    },

    put(scope: Scope, document: T): void {
      let schema = prepared(scope);
      // A new multikey field stays marked even if the put then fails: the mark is true of the collection either way.
      for (const path of schema.paths) {
        if (!schema.multikey.has(path) && Array.isArray(valueAt(document, path))) schema = replace(scope, markMultikey(scope.db, schema, path));
      }
      // Key values are encoded here as keyExpression encodes them in SQL when a column is added to a filled table.
      const keys = schema.paths.map((path) => bound(valueAt(document, path) ?? null));
      const sql = putStatements(schema);
      const existing = scope.prepare(sql.select).raw().get(document._id) as unknown[] | undefined;
      const json = serialized.get(document) ?? JSON.stringify(document);
      // Keys, document and elements change together or not at all: a document SQLite refuses (its JSON too deep)
      // must not leave a key row behind for every list to trip over. Each statement is atomic alone; when a later one
      // fails, the earlier ones are undone by hand. Not a savepoint: one makes the search index flush its pending
      // rows, a segment per write, which cost a replay two thirds of its time.
      if (existing) {
        const rid = existing[0] as number;
        const before = existing.slice(1);
        // Elements are made again only when their field changed.
        const elements = sql.elements.filter(({ column }) => !sameKey(before[column], keys[column]));
        translatingDuplicates(() => updateKeys(scope, schema, rid, before, keys));
        try {
          removeElements(scope, elements, rid);
          insertElements(scope, elements, rid, document);
          written(scope.prepare(sql.updateDoc).run({ rid, doc: json }).changes, document._id);
        } catch (error) {
          // The stored document is still the one before: its elements are put back from it.
          restoreElements(scope, elements, rid);
          updateKeys(scope, schema, rid, keys, before);
          throw error;
        }
      } else {
        const rid = translatingDuplicates(() => insertKeys(scope, schema, document._id, keys));
        try {
          insertDoc(scope, sql, rid, document, json);
          insertElements(scope, sql.elements, rid, document);
        } catch (error) {
          removeElements(scope, sql.elements, rid);
          scope.prepare(sql.deleteDoc).run(rid);
          scope.prepare(sql.deleteKeys).run(rid);
          throw error;
        }
      }
    },

    /**
     * Puts and deletes in order. A put whose `_id` is new (most of a bulk load's) is one insert of its key row and one
     * of its document, with no select before; an existing one is put as `put` puts it.
     */
    bulkWrite(scope: Scope, writes: Write<T>[]): void {
      for (const write of writes) {
        if (!('put' in write)) {
          this.deleteOne(scope, write.delete);
          continue;
        }
        const document = write.put;
        const schema = prepared(scope);
        if (schema.multikey.size > 0 || schema.paths.some((path) => Array.isArray(valueAt(document, path)))) {
          this.put(scope, document);
          continue;
        }
        const sql = putStatements(schema);
        const keys = schema.paths.map((path) => bound(valueAt(document, path) ?? null));
        const rid = translatingDuplicates(() => {
          const inserted = scope.prepare(sql.insertNewKeys).run(document._id, ...keys);
          return inserted.changes === 0 ? undefined : Number(inserted.lastInsertRowid);
        });
        if (rid === undefined) {
          this.put(scope, document);
          continue;
        }
        try {
          insertDoc(scope, sql, rid, document);
        } catch (error) {
          scope.prepare(sql.deleteKeys).run(rid);
          throw error;
        }
      }
    },

    /** On the writer inside its open transaction, which holds SQLite's write lock: no other process writes in between. */
    insert(scope: Scope, document: T): boolean {
      const schema = scope.schema.get(name);
      if (schema && scope.prepare(`SELECT 1 FROM ${quote(names.keys)} WHERE _id = ?`).get(document._id)) return false;
      this.put(scope, document);
      return true;
    },

    /** While the collection is empty, its non-unique indexes go (and its search index, `searchedNow` being empty). */
    deferIndexes(scope: Scope): boolean {
      if (scope.schema.has(name) && scope.prepare(`SELECT 1 FROM ${quote(names.docs)} LIMIT 1`).get()) return false;
      let schema = prepared(scope);
      for (const spec of schema.indexes.values()) if (!spec.unique) schema = dropIndex(scope.db, schema, spec.name);
      replace(scope, schema);
      return true;
    },

    deleteOne(scope: Scope, id: string): void {
      if (!scope.schema.has(name)) return;
      const rid = scope.prepare(`DELETE FROM ${quote(names.keys)} WHERE _id = ? RETURNING rid`).pluck().get(id) as number | undefined;
      if (rid === undefined) return;
      const sql = putStatements(scope.schema.get(name)!);
      scope.prepare(sql.deleteDoc).run(rid);
      removeElements(scope, sql.elements, rid);
    },

    clear(scope: Scope): void {
      const schema = scope.schema.get(name);
      if (schema) recreateCollection(scope.db, schema);
    },

    ensureIndex(scope: Scope, spec: IndexSpec): void {
      const schema = prepared(scope);
      const existing = schema.indexes.get(spec.name) ?? [...schema.indexes.values()].find((index) => sameKeys(index, spec));
      if (existing) {
        if (existing.name === spec.name && sameKeys(existing, spec) && !existing.unique === !spec.unique) return;
        // MongoDB refuses to redefine an index too; silently keeping the old one would hide the mismatch.
        throw new Error(`Index ${spec.name} of ${name} conflicts with the existing index ${existing.name}`);
      }
      replace(scope, translatingDuplicates(() => createIndex(scope.db, schema, spec)));
    },

    explain(scope: Scope, filter: Filter, options: FindOptions = {}): QueryPlan {
      const { sql, params, searched } = pageQuery(scope, scope.schema.get(name) ?? emptySchema(name), filter, options);
      const details = (scope.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(params) as { detail: string }[]).map((row) => row.detail);
      return planOf(name, [...searched.map((path) => `SEARCH the search index of ${path} for candidates`), ...details]);
    },
  };
}

/**
 * Whether two collections hold the same documents: as many of them, and each of `a`'s found in `b` by `_id` with the
 * same JSON text, or else (the same fields in another order) equal once parsed. Text compares at memory speed, so a
 * rebuild's check of its shadows parses only the documents that differ.
 */
export function sameDocuments(scope: Scope, a: string, b: string): boolean {
  const count = (name: string) => (scope.schema.has(name) ? (scope.prepare(`SELECT count(*) FROM ${quote(tableNames(name).keys)}`).pluck().get() as number) : 0);
  const size = count(a);
  if (size !== count(b)) return false;
  if (size === 0) return true;
  const [left, right] = [tableNames(a), tableNames(b)];
  const differing = scope.prepare(
    `SELECT ld.doc, rd.doc FROM ${quote(left.keys)} AS lk JOIN ${quote(left.docs)} AS ld ON ld.rid = lk.rid ` +
      `LEFT JOIN ${quote(right.keys)} AS rk ON rk._id = lk._id LEFT JOIN ${quote(right.docs)} AS rd ON rd.rid = rk.rid WHERE ld.doc IS NOT rd.doc`,
  );
  for (const [mine, theirs] of differing.raw().iterate() as IterableIterator<[string, string | null]>) {
    if (theirs === null || !isDeepStrictEqual(JSON.parse(mine), JSON.parse(theirs))) return false;
  }
  return true;
}

/** The plan's indexes, and whether it walks a whole table or index of the collection. */
function planOf(collection: string, details: string[]): QueryPlan {
  const names = tableNames(collection);
  const indexes = new Set<string>();
  let fullScan = false;
  for (const detail of details) {
    const index = /USING (?:COVERING )?INDEX (\S+)/.exec(detail);
    if (index) indexes.add(declaredIndexName(index[1]!));
    const searched = /^SEARCH the search index of (\S+)/.exec(detail)?.[1];
    if (searched) indexes.add(`search ${searched}`);
    const scanned = /^SCAN (\S+)/.exec(detail)?.[1];
    if (scanned && (['k', 'd', names.keys, names.docs].includes(scanned) || scanned.startsWith(names.multikey('')))) fullScan = true;
  }
  return { indexes: [...indexes], fullScan, planner: 'sqlite', detail: details.join('; ') };
}
