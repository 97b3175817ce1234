// Puts one collection of the SQLite read store in the place of another (an online rebuild's shadow swapped in):
// tables renamed with their indexes, triggers made again under the new name, in the caller's transaction.
import type { Database } from 'better-sqlite3';
import { quote, tableNames } from './sqliteNames.ts';
import { createSearchTriggers, META, type CollectionSchema, type Schema } from './sqliteSchema.ts';

/** A collection a rename replaced: its tables wait under this name to be dropped (`dropRetired`). */
const RETIRED = '~retired';
export const holdsRetired = (schema: Schema) => [...schema.keys()].some((name) => name.endsWith(RETIRED));

/** A collection's tables, search indexes (virtual tables) first: dropping one drops its shadow tables. */
function tablesOf(schema: CollectionSchema): string[] {
  const names = tableNames(schema.name);
  return [...schema.search.map(names.search), ...[...schema.multikey].map(names.multikey), names.keys, names.docs];
}

/** Drops a collection's tables; its indexes and triggers go with them. */
function dropTables(db: Database, schema: CollectionSchema): void {
  for (const table of tablesOf(schema)) db.exec(`DROP TABLE IF EXISTS ${quote(table)}`);
}

/**
 * A collection's tables, with what they carry, moved under another collection's name, and the schema's record of
 * them with it; its triggers are dropped (they are named after the collection). What `to` held before is dropped.
 */
function moveCollection(db: Database, schema: Schema, source: CollectionSchema, to: string): Schema {
  const next = new Map(schema);
  const replaced = schema.get(to);
  if (replaced) dropTables(db, replaced);
  db.prepare(`DELETE FROM ${META} WHERE collection = ?`).run(to);
  const triggers = db.prepare(`SELECT name FROM sqlite_schema WHERE type = 'trigger' AND tbl_name = ?`).pluck().all(tableNames(source.name).docs) as string[];
  for (const trigger of triggers) db.exec(`DROP TRIGGER ${quote(trigger)}`);
  const moved: CollectionSchema = { ...source, name: to };
  const [before, after] = [tablesOf(source), tablesOf(moved)];
  before.forEach((table, i) => db.exec(`ALTER TABLE ${quote(table)} RENAME TO ${quote(after[i]!)}`));
  db.prepare(`UPDATE ${META} SET collection = ? WHERE collection = ?`).run(to, source.name);
  next.delete(source.name);
  next.set(to, moved);
  return next;
}

/** Rows a step of `dropRetired` deletes from one table: about 20 MB of documents, about 10 ms at 100,000 items. */
const DROP_ROWS = 4_000;
/** The tables an FTS5 index keeps its postings, text and sizes in: emptied before the index itself is dropped. */
const SEARCH_SHADOWS = ['_data', '_content', '_docsize'];

/**
 * Deletes DROP_ROWS rows of `table`. SQLite lets only FTS5 write the tables of an FTS5 index (its defensive mode,
 * which better-sqlite3 turns on): for those of an index being dropped, it is turned off for this one statement.
 */
function deleteRows(db: Database, table: string, ofSearchIndex: boolean): number {
  const sql = `DELETE FROM ${quote(table)} WHERE rowid IN (SELECT rowid FROM ${quote(table)} LIMIT ?)`;
  if (!ofSearchIndex) return db.prepare(sql).run(DROP_ROWS).changes;
  db.unsafeMode(true);
  try {
    return db.prepare(sql).run(DROP_ROWS).changes;
  } finally {
    db.unsafeMode(false);
  }
}

/**
 * One step of dropping the collections renames replaced, each a transaction of its own that holds the write lock
 * for a bounded time, whatever the table's size: dropping a table walks every page of it (the largest take several
 * seconds at a million items), so first an index of it is dropped, or DROP_ROWS of its rows are deleted; an empty
 * table is then dropped, and once none is left, the collection's record. A search index's shadow tables are emptied
 * the same way before it is dropped. Returns the schema after the step, or null when there is nothing to drop.
 */
export function dropRetired(db: Database, schema: Schema): Schema | null {
  const retired = [...schema.values()].find((collection) => collection.name.endsWith(RETIRED));
  if (!retired) return null;
  const exists = db.prepare(`SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?`).pluck();
  const table = tablesOf(retired).find((name) => exists.get(name));
  if (!table) {
    db.prepare(`DELETE FROM ${META} WHERE collection = ?`).run(retired.name);
    const next = new Map(schema);
    next.delete(retired.name);
    return next;
  }
  const searchIndex = retired.search.some((path) => tableNames(retired.name).search(path) === table);
  const parts = searchIndex ? SEARCH_SHADOWS.map((suffix) => `${table}${suffix}`).filter((name) => exists.get(name)) : [table];
  for (const part of parts) {
    const index = db.prepare(`SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL LIMIT 1`).pluck().get(part) as string | undefined;
    if (index) {
      db.exec(`DROP INDEX ${quote(index)}`);
      return schema;
    }
    if (deleteRows(db, part, searchIndex) > 0) return schema;
  }
  db.exec(`DROP TABLE ${quote(table)}`);
  return schema;
}

/**
 * `from` replaces `to` and ceases to exist; a `from` never written leaves `to` empty. Its tables are renamed, and what
 * is built on them comes along: its indexes, each under the name it was made with (SQLite cannot rename an index;
 * see `freeName`), its search indexes and multikey element tables. Only the search indexes' triggers, named after
 * the collection, are made again. `to`'s tables are moved aside the same way, under `<to>~retired`, for
 * `dropRetired` to drop once the caller's transaction has committed, one table a transaction. A rebuild builds everything on its shadow before
 * the swap (the store's `prepareRename`), so the swap costs the renames, whatever the collection's size.
 * A reader in another process keeps the old tables (WAL) until the caller's transaction commits; the schema
 * cookie then changes, and every store on the file reloads what it knows.
 */
export function renameCollection(db: Database, schema: Schema, from: string, to: string): Schema {
  const source = schema.get(from);
  const target = schema.get(to);
  let next: Schema = target ? moveCollection(db, schema, target, `${to}${RETIRED}`) : schema;
  // Nothing was ever written to `from`: `to` is left empty, made again by its next write or ensureIndex.
  if (!source) return next;
  next = moveCollection(db, next, source, to);
  for (const path of source.search) createSearchTriggers(db, to, path);
  return next;
}
