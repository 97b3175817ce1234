// The SQLite read store's tables per collection, and what it records about them: indexes, key columns, multikey fields, searched fields.
import type { Database } from 'better-sqlite3';
import type { IndexSpec } from './port.ts';
import { elementExpression, jsonPath, keyColumn, keyExpression, literal, quote, tableNames } from './sqliteNames.ts';
import { SEARCH_PREFIXES, SEARCH_TOKENIZER } from './sqliteSearch.ts';

/** What the store knows about one collection; never changed in place, so a failed write can keep the one it started with. */
export interface CollectionSchema {
  name: string;
  /** Fields with a key column (every field of an index), in column order. */
  paths: readonly string[];
  /** Indexed fields some document holds an array in: queried through their element table. */
  multikey: ReadonlySet<string>;
  indexes: ReadonlyMap<string, IndexSpec>;
  /** Fields holding word text (see `WORD_TEXT` in sqliteQuery.ts), each with a full-text word index of its own. */
  search: readonly string[];
}

export type Schema = ReadonlyMap<string, CollectionSchema>;

export const META = quote('rs:meta');

type MetaKind = 'layout' | 'collection' | 'column' | 'multikey' | 'index' | 'search';

/** The version of the tables' layout; a file of another version is emptied, and the projections refill it from the log. */
const LAYOUT = '6';

/**
 * Makes the file's tables of the current layout, where they are not. Where they are, it only reads: a statement that
 * would write (even `CREATE TABLE IF NOT EXISTS` of a table there) fails with "database schema has changed" when
 * another connection changes the schema meanwhile, as the stores of a split replay's threads do.
 */
export function openLayout(db: Database): void {
  if (!db.prepare(`SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'rs:meta'`).get()) {
    db.exec(`CREATE TABLE IF NOT EXISTS ${META} (collection TEXT NOT NULL, kind TEXT NOT NULL, name TEXT NOT NULL, value TEXT NOT NULL, PRIMARY KEY (collection, kind, name))`);
  }
  const layout = db.prepare(`SELECT value FROM ${META} WHERE collection = '' AND kind = 'layout'`).pluck().get();
  if (layout === LAYOUT) {
    db.transaction(() => dropElementTriggers(db))();
    return;
  }
  db.transaction(() => {
    // Virtual tables first: dropping one drops its shadow tables.
    const tables = db.prepare(`SELECT name FROM sqlite_schema WHERE type = 'table' AND name LIKE 'rs:%' AND name <> 'rs:meta' ORDER BY sql LIKE 'CREATE VIRTUAL%' DESC`).pluck().all() as string[];
    for (const table of tables) db.exec(`DROP TABLE IF EXISTS ${quote(table)}`);
    db.exec(`DELETE FROM ${META}`);
    db.prepare(`INSERT INTO ${META} (collection, kind, name, value) VALUES ('', 'layout', '', ?)`).run(LAYOUT);
  })();
}

export function loadSchema(db: Database): Schema {
  const rows = db.prepare<[], { collection: string; kind: MetaKind; name: string; value: string }>(`SELECT * FROM ${META} ORDER BY rowid`).all();
  const schema = new Map<string, CollectionSchema>();
  for (const row of rows) {
    if (row.kind === 'layout') continue;
    const current = schema.get(row.collection) ?? { name: row.collection, paths: [], multikey: new Set(), indexes: new Map(), search: [] };
    if (row.kind === 'column') schema.set(row.collection, { ...current, paths: [...current.paths, row.name] });
    else if (row.kind === 'multikey') schema.set(row.collection, { ...current, multikey: new Set([...current.multikey, row.name]) });
    else if (row.kind === 'index') schema.set(row.collection, { ...current, indexes: new Map([...current.indexes, [row.name, JSON.parse(row.value) as IndexSpec]]) });
    else if (row.kind === 'search') schema.set(row.collection, { ...current, search: JSON.parse(row.value) as string[] });
    else schema.set(row.collection, current);
  }
  return schema;
}

const record = (db: Database, collection: string, kind: MetaKind, name: string, value = '') =>
  db.prepare(`INSERT OR REPLACE INTO ${META} (collection, kind, name, value) VALUES (?, ?, ?, ?)`).run(collection, kind, name, value);

export function createCollection(db: Database, name: string): CollectionSchema {
  const schema: CollectionSchema = { name, paths: [], multikey: new Set(), indexes: new Map(), search: [] };
  createTables(db, schema);
  record(db, name, 'collection', '');
  return schema;
}

/** Drops the collection's rows by dropping its tables, then makes them again, empty, with every index it had. */
export function recreateCollection(db: Database, schema: CollectionSchema): void {
  const names = tableNames(schema.name);
  const tables = [names.keys, names.docs, ...schema.search.map(names.search), ...[...schema.multikey].map(names.multikey)];
  for (const table of tables) db.exec(`DROP TABLE IF EXISTS ${quote(table)}`);
  createTables(db, schema);
}

function createTables(db: Database, schema: CollectionSchema): void {
  const names = tableNames(schema.name);
  const columns = schema.paths.map((path) => `, ${quote(keyColumn(path))}`).join('');
  db.exec(`CREATE TABLE ${quote(names.keys)} (rid INTEGER PRIMARY KEY, _id TEXT NOT NULL UNIQUE${columns})`);
  db.exec(`CREATE TABLE ${quote(names.docs)} (rid INTEGER PRIMARY KEY, doc TEXT NOT NULL)`);
  for (const spec of schema.indexes.values()) db.exec(indexSql(db, schema.name, spec));
  for (const path of schema.multikey) createElementTable(db, schema.name, path);
  for (const path of schema.search) createSearchTable(db, schema.name, path);
}

/** Adds key columns for the index's fields (filled from the documents), then the index itself. */
export function createIndex(db: Database, schema: CollectionSchema, spec: IndexSpec): CollectionSchema {
  let next = schema;
  for (const path of Object.keys(spec.keys)) if (path !== '_id' && !next.paths.includes(path)) next = addColumn(db, next, path);
  db.exec(indexSql(db, schema.name, spec));
  record(db, schema.name, 'index', spec.name, JSON.stringify(spec));
  return { ...next, indexes: new Map([...next.indexes, [spec.name, spec]]) };
}

/** Drops a declared index and forgets it, so that `createIndex` builds it again from the rows (after a bulk load). */
export function dropIndex(db: Database, schema: CollectionSchema, name: string): CollectionSchema {
  for (const index of indexesOn(db, tableNames(schema.name).keys)) if (declaredIndexName(index) === name) db.exec(`DROP INDEX ${quote(index)}`);
  db.prepare(`DELETE FROM ${META} WHERE collection = ? AND kind = 'index' AND name = ?`).run(schema.name, name);
  const indexes = new Map(schema.indexes);
  indexes.delete(name);
  return { ...schema, indexes };
}

/**
 * MongoDB's unique indexes treat a missing field as null and refuse two of them; SQLite's unique
 * indexes let NULLs repeat, so a unique index is built over `ifnull(column, x'')` instead.
 */
function indexSql(db: Database, collection: string, { keys, unique, name }: IndexSpec): string {
  const names = tableNames(collection);
  const columns = Object.entries(keys).map(([path, direction]) => {
    const column = quote(keyColumn(path));
    return `${unique ? `ifnull(${column}, x'')` : column} ${direction === 1 ? 'ASC' : 'DESC'}`;
  });
  return `CREATE ${unique ? 'UNIQUE ' : ''}INDEX ${quote(freeName(db, names.index(name)))} ON ${quote(names.keys)} (${columns.join(', ')})`;
}

/**
 * `name`, or else `name#2`, `name#3`…: the first no table or index has. An index keeps its name when its table is
 * renamed (a rebuild's shadow put in place), so the next one made under the same collection's name needs another.
 */
function freeName(db: Database, name: string): string {
  const taken = db.prepare('SELECT 1 FROM sqlite_schema WHERE name = ?').pluck();
  for (let n = 1; ; n++) {
    const candidate = n === 1 ? name : `${name}#${n}`;
    if (!taken.get(candidate)) return candidate;
  }
}

/** The SQLite names of a table's indexes (its declared indexes, or an element table's two). */
const indexesOn = (db: Database, table: string) =>
  db.prepare(`SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL`).pluck().all(table) as string[];

function addColumn(db: Database, schema: CollectionSchema, path: string): CollectionSchema {
  const names = tableNames(schema.name);
  const column = quote(keyColumn(path));
  db.exec(`ALTER TABLE ${quote(names.keys)} ADD COLUMN ${column}`);
  db.exec(`UPDATE ${quote(names.keys)} SET ${column} = (SELECT ${keyExpression('d.doc', path)} FROM ${quote(names.docs)} AS d WHERE d.rid = ${quote(names.keys)}.rid)`);
  record(db, schema.name, 'column', path);
  const next = { ...schema, paths: [...schema.paths, path] };
  const holdsArrays = db.prepare(`SELECT 1 FROM ${quote(names.docs)} WHERE json_type(doc, ${jsonPath(path)}) = 'array' LIMIT 1`).get();
  return holdsArrays ? markMultikey(db, next, path) : next;
}

/** From now on the field's elements are indexed one by one, kept by the store's writes (`elementsSql`). */
export function markMultikey(db: Database, schema: CollectionSchema, path: string): CollectionSchema {
  createElementTable(db, schema.name, path);
  db.exec(storedElements(schema.name, path));
  record(db, schema.name, 'multikey', path);
  return { ...schema, multikey: new Set([...schema.multikey, path]) };
}

function createElementTable(db: Database, collection: string, path: string): void {
  const table = tableNames(collection).multikey(path);
  db.exec(`CREATE TABLE ${quote(table)} (rid INTEGER NOT NULL, value)`);
  db.exec(`CREATE INDEX ${quote(freeName(db, `${table}:value`))} ON ${quote(table)} (value, rid)`);
  db.exec(`CREATE INDEX ${quote(freeName(db, `${table}:rid`))} ON ${quote(table)} (rid)`);
}

/**
 * The statements that keep a field's element table: `insert` takes a row id and the field's value as JSON, the
 * others a row id. The store's writes run them rather than triggers on the documents, which parsed the whole
 * document again for its elements at every insert (a tenth of a replay's time).
 */
export function elementsSql(collection: string, path: string): { insert: string; insertElement: string; insertStored: string; remove: string } {
  const table = quote(tableNames(collection).multikey(path));
  return {
    /** The elements of the field's value, as JSON. */
    insert: `INSERT INTO ${table} (rid, value) SELECT ?, ${elementExpression('e')} FROM json_each(?) AS e`,
    /** One element of an array, encoded by `bound` as `elementExpression` encodes it in SQL. */
    insertElement: `INSERT INTO ${table} (rid, value) VALUES (?, ?)`,
    /** From the document stored under the row id (a failed put puts the elements back as they were). */
    insertStored: `${storedElements(collection, path)} WHERE d.rid = ?`,
    remove: `DELETE FROM ${table} WHERE rid = ?`,
  };
}

/** Fills the field's element table from the stored documents (all of them, or those a WHERE on `d` adds). */
const storedElements = (collection: string, path: string) => {
  const names = tableNames(collection);
  return `INSERT INTO ${quote(names.multikey(path))} (rid, value) SELECT d.rid, ${elementExpression('e')} FROM ${quote(names.docs)} AS d, json_each(d.doc, ${jsonPath(path)}) AS e`;
};

/** Files written before the store kept element tables itself have triggers doing it: they would add every element twice. */
function dropElementTriggers(db: Database): void {
  const triggers = db.prepare(`SELECT name FROM sqlite_schema WHERE type = 'trigger' AND name LIKE 'rs:%:trigger:%:multikey:%'`).pluck().all() as string[];
  for (const trigger of triggers) db.exec(`DROP TRIGGER ${quote(trigger)}`);
}

/**
 * Makes the collection's search indexes cover exactly `paths`, building a new one from the documents. With
 * `fill: false` a new one is made empty, its triggers in place and FTS5's merges off, for `fillSearch` and
 * `mergeSearch` to build in steps (each its own transaction, see the store's `prepareRename`); until then it
 * answers searches with what it holds.
 */
export function setSearch(db: Database, schema: CollectionSchema, paths: readonly string[], { fill = true } = {}): CollectionSchema {
  const names = tableNames(schema.name);
  for (const path of schema.search.filter((searched) => !paths.includes(searched))) {
    db.exec(`DROP TABLE IF EXISTS ${quote(names.search(path))}`);
    for (const purpose of ['insert', 'update', 'delete']) db.exec(`DROP TRIGGER IF EXISTS ${quote(names.trigger(`${purpose}:search:${path}`))}`);
  }
  for (const path of paths.filter((searched) => !schema.search.includes(searched))) {
    createSearchTable(db, schema.name, path);
    // Filled without FTS5's merges as it goes (`automerge`), then merged into one segment: cheaper than the merges
    // as it goes, and the one segment answers searches faster than the several they leave (15 % at 20,000 bodies).
    searchCommand(db, schema.name, path, 'automerge', 0);
    if (!fill) continue;
    fillSearch(db, schema.name, path, 0, Infinity);
    searchCommand(db, schema.name, path, 'optimize');
    searchCommand(db, schema.name, path, 'automerge', FTS5_AUTOMERGE);
  }
  record(db, schema.name, 'search', '', JSON.stringify(paths));
  return { ...schema, search: [...paths] };
}

/** FTS5's default: a level's segments are merged once it holds this many. */
const FTS5_AUTOMERGE = 4;

/** One of FTS5's commands (`automerge`, `merge`, `optimize`) on a search index. */
function searchCommand(db: Database, collection: string, path: string, command: string, rank?: number): void {
  const table = quote(tableNames(collection).search(path));
  // FTS5 takes a command's number as an SQL integer (a bound JavaScript number is a real).
  db.exec(`INSERT INTO ${table} (${table}${rank === undefined ? '' : ', rank'}) VALUES (${literal(command)}${rank === undefined ? '' : `, ${Math.trunc(rank)}`})`);
}

/**
 * Indexes up to `limit` documents after row `after`, in row order; returns the last row indexed, or null when there
 * was none. A document its triggers indexed meanwhile is indexed again in its place (FTS5's `OR REPLACE`).
 */
export function fillSearch(db: Database, collection: string, path: string, after: number, limit: number): number | null {
  const names = tableNames(collection);
  const docs = quote(names.docs);
  const last = Number.isFinite(limit)
    ? (db.prepare(`SELECT max(rid) FROM (SELECT rid FROM ${docs} WHERE rid > ? ORDER BY rid LIMIT ?)`).pluck().get(after, limit) as number | null)
    : (db.prepare(`SELECT max(rid) FROM ${docs}`).pluck().get() as number | null);
  if (last === null || last <= after) return null;
  db.prepare(
    `INSERT OR REPLACE INTO ${quote(names.search(path))} (rowid, text, pairs, heads) SELECT rid, value, rs_pairs(value), rs_heads(value) ` +
      `FROM (SELECT rid, json_extract(doc, ${jsonPath(path)}) AS value FROM ${docs} WHERE rid > ? AND rid <= ?)`,
  ).run(after, last);
  return last;
}

/**
 * One step of merging a search index filled by `fillSearch` into one segment, FTS5's incremental `optimize`: the
 * first step (`first`) gathers every segment into one level, each merges up to `pages` leaf pages. Returns whether
 * work is left; once none is, FTS5's merges as it goes are turned back on.
 */
export function mergeSearch(db: Database, collection: string, path: string, pages: number, first: boolean): boolean {
  const changes = db.prepare('SELECT total_changes()').pluck();
  const before = changes.get() as number;
  searchCommand(db, collection, path, 'merge', first ? -pages : pages);
  // FTS5's documentation: a step that left nothing to merge adds less than 2 to `total_changes()`.
  if ((changes.get() as number) - before >= 2) return true;
  searchCommand(db, collection, path, 'automerge', FTS5_AUTOMERGE);
  return false;
}

/**
 * One index per field, so a search in titles never reads the postings of bodies. It keeps the field's text beside
 * its words: a phrase is tested on that text, without parsing the document. The `ascii` tokenizer splits words at
 * ASCII characters other than letters and digits only (every byte above 0x7f is part of a word to it): over word
 * text (src/content/search.ts), folded and spaced by the projection, its words are the text's words exactly. Its
 * second column holds the text's word pairs (`rs_pairs`, sqliteSearch.ts), so that a phrase of common words is
 * looked up by its pairs rather than by the long postings of each word; the three-letter prefixes of its tokens are
 * indexed too, so that the shortest prefix searched for is read as one stream rather than merged from every word.
 * Its third column holds the text's heads (`rs_heads`): each different first one and two characters of its words, so
 * that a word of one or two letters typed alone is read as one stream too (layout 6; a file of layout 5 is refilled).
 */
function createSearchTable(db: Database, collection: string, path: string): void {
  db.exec(`CREATE VIRTUAL TABLE ${quote(tableNames(collection).search(path))} USING fts5(text, pairs, heads, tokenize=${literal(SEARCH_TOKENIZER)}, prefix=${literal(SEARCH_PREFIXES)})`);
  createSearchTriggers(db, collection, path);
}

/** Keeps the search index of `path` as the documents change. */
export function createSearchTriggers(db: Database, collection: string, path: string): void {
  const names = tableNames(collection);
  const table = quote(names.search(path));
  const docs = quote(names.docs);
  const value = `json_extract(NEW.doc, ${jsonPath(path)})`;
  const insert = `INSERT INTO ${table} (rowid, text, pairs, heads) VALUES (NEW.rid, ${value}, rs_pairs(${value}), rs_heads(${value}));`;
  const trigger = (purpose: string) => quote(names.trigger(`${purpose}:search:${path}`));
  db.exec(`CREATE TRIGGER ${trigger('insert')} AFTER INSERT ON ${docs} BEGIN ${insert} END`);
  db.exec(
    `CREATE TRIGGER ${trigger('update')} AFTER UPDATE OF doc ON ${docs} WHEN (OLD.doc -> ${jsonPath(path)}) IS NOT (NEW.doc -> ${jsonPath(path)}) ` +
      `BEGIN DELETE FROM ${table} WHERE rowid = OLD.rid; ${insert} END`,
  );
  db.exec(`CREATE TRIGGER ${trigger('delete')} AFTER DELETE ON ${docs} BEGIN DELETE FROM ${table} WHERE rowid = OLD.rid; END`);
}

/**
 * The index's name as given to ensureIndex, from the name SQLite reports in a query plan. The collection named in it
 * may be another (an index made on a rebuild's shadow, renamed into place), and `#n` tells apart indexes made under
 * the same name (see `freeName`).
 */
export function declaredIndexName(sqliteName: string): string {
  const declared = /^rs:.*?:index:(.+?)(?:#\d+)?$/.exec(sqliteName);
  if (declared) return declared[1]!;
  const elements = /^rs:.*?:multikey:(.+):(?:value|rid)(?:#\d+)?$/.exec(sqliteName);
  if (elements) return `${elements[1]} (elements)`;
  if (sqliteName.startsWith('sqlite_autoindex_')) return '_id';
  const searched = /^rs:.*?:search:(.+)$/.exec(sqliteName);
  if (searched) return `search ${searched[1]}`;
  return sqliteName;
}
