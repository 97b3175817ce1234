// Puts one collection of the SQLite read store in the place of another (an online rebuild's shadow swapped in):
// tables renamed, everything named after the old collection built again under the new name, in the caller's transaction.
import type { Database } from 'better-sqlite3';
import { quote, tableNames } from './sqliteNames.ts';
import { createSearchTriggers, markMultikey, META, type CollectionSchema, type Schema } from './sqliteSchema.ts';

/** Drops a collection's tables; its indexes and triggers go with them. */
function dropTables(db: Database, schema: CollectionSchema): void {
  const names = tableNames(schema.name);
  // Virtual tables first: dropping one drops its shadow tables.
  for (const table of [...schema.search.map(names.search), ...[...schema.multikey].map(names.multikey), names.keys, names.docs]) {
    db.exec(`DROP TABLE IF EXISTS ${quote(table)}`);
  }
}

/**
 * `from` replaces `to` (whose documents are dropped) and ceases to exist; a `from` never written leaves `to` empty. Index, trigger and element-table names
 * carry their collection's name, and SQLite cannot rename an index: the two tables are renamed with their search
 * indexes (built ahead by the store's `prepareRename`, or none), the multikey element tables built again under
 * `to`'s names, and indexes are left to the caller's `ensureIndex` (a rebuild loads its shadow with them deferred,
 * so each is built once, from the rows, in one pass).
 * A reader in another process keeps the old tables (WAL) until the caller's transaction commits; the schema
 * cookie then changes, and every store on the file reloads what it knows.
 */
export function renameCollection(db: Database, schema: Schema, from: string, to: string): Schema {
  const source = schema.get(from);
  const target = schema.get(to);
  if (target) dropTables(db, target);
  db.prepare(`DELETE FROM ${META} WHERE collection = ?`).run(to);
  const next = new Map(schema);
  next.delete(to);
  // Nothing was ever written to `from`: `to` is left empty, made again by its next write or ensureIndex.
  if (!source) return next;

  const names = tableNames(from);
  const named = db.prepare(`SELECT type, name FROM sqlite_schema WHERE type IN ('index', 'trigger') AND tbl_name IN (?, ?) AND sql IS NOT NULL`).all(names.keys, names.docs) as { type: string; name: string }[];
  for (const { type, name } of named) db.exec(`DROP ${type === 'index' ? 'INDEX' : 'TRIGGER'} IF EXISTS ${quote(name)}`);
  for (const table of [...source.multikey].map(names.multikey)) db.exec(`DROP TABLE IF EXISTS ${quote(table)}`);
  const toNames = tableNames(to);
  const moves: [string, string][] = [[names.keys, toNames.keys], [names.docs, toNames.docs], ...source.search.map((path): [string, string] => [names.search(path), toNames.search(path)])];
  for (const [before, after] of moves) db.exec(`ALTER TABLE ${quote(before)} RENAME TO ${quote(after)}`);
  // The key columns and the search indexes (FTS5 renames its own tables) stay as they are; what was built from
  // them is built again below and recorded anew.
  db.prepare(`UPDATE ${META} SET collection = ? WHERE collection = ? AND kind IN ('collection', 'column', 'search')`).run(to, from);
  db.prepare(`DELETE FROM ${META} WHERE collection = ?`).run(from);

  let renamed: CollectionSchema = { name: to, paths: source.paths, multikey: new Set(), indexes: new Map(), search: source.search };
  for (const path of source.search) createSearchTriggers(db, to, path);
  for (const path of source.multikey) renamed = markMultikey(db, renamed, path);
  next.delete(from);
  next.set(to, renamed);
  return next;
}
