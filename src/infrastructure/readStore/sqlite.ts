// Embedded read store: SQLite tables per collection with indexed key columns; MongoDB filters run as SQL (docs/read-store.md).
import Database, { type Database as Connection, type Statement } from 'better-sqlite3';
import { useWriteAheadLog } from '../sqliteLog.ts';
import type { Collection, Document, IndexSpec, ReadStore } from './port.ts';
import { regexMatches } from './regexLiteral.ts';
import { wordHeads, wordPairs } from './sqliteSearch.ts';
import { collectionSteps, sameDocuments, type Scope } from './sqliteCollection.ts';
import { fillSearch, loadSchema, mergeSearch, openLayout, setSearch, type Schema } from './sqliteSchema.ts';
import { dropRetired, holdsRetired, renameCollection } from './sqliteRename.ts';
import { startCheckpointer } from './sqliteCheckpointer.ts';

export interface SqliteReadStoreOptions {
  /** A collection's fields that phrase searches (a `$regex` of words, see sqliteQuery.ts) look into: a word index of each serves them. */
  searchedFields?: (collection: string) => readonly string[];
  /**
   * A connection that writes only in turn with others of one job (a thread of a split replay): it leaves the file's
   * upkeep (planner statistics, dropping retired tables) to the store that started the job, and waits for the write
   * lock as long as BUSY_WAIT_MS.helper, since a turn can wait behind a busy server's commits.
   */
  helper?: boolean;
}

const CACHED_STATEMENTS = 500;
/** A step of a search index built ahead of a rename: documents indexed, or leaf pages merged (about 0.1–0.9 s at 100,000 items). */
const SEARCH_BUILD_STEP = { documents: 2_000, pages: 1_000 };
const PAGE_CACHE_KIB = { writer: 32 * 1024, reader: 32 * 1024 };
/**
 * Writes outside a transaction are grouped into one SQLite transaction, committed once the writes stop
 * coming (the next turn of the event loop) or after this many: a commit per write would cost more than
 * the write (every touched index page goes to the log again).
 */
const GROUP_WRITES = 2_000;
/**
 * SQLite's planner needs statistics to prefer a selective index (project and source id) over one that
 * only spares a sort (project and creation time); they are refreshed after this many writes, sampling
 * at most ANALYSIS_ROWS rows per index so that it stays a matter of milliseconds.
 */
const OPTIMIZE_EVERY_WRITES = 1_000;
const ANALYSIS_ROWS = 2_000;
/** How long a write waits for another connection's write lock before SQLite answers SQLITE_BUSY. */
const BUSY_WAIT_MS = { store: 5_000, helper: 60_000 };

function open(file: string, cacheKib: number, busyMs: number): Connection {
  const db = new Database(file, { timeout: busyMs });
  useWriteAheadLog(db);
  db.pragma('synchronous = NORMAL');
  db.pragma(`cache_size = -${cacheKib}`);
  db.function('rs_regexp', { deterministic: true }, (pattern, flags, value) => (regexMatches(String(pattern), String(flags), value) ? 1 : 0));
  // The search indexes' triggers call it: every connection that writes documents needs it.
  db.function('rs_pairs', { deterministic: true }, (text) => wordPairs(typeof text === 'string' ? text : null));
  db.function('rs_heads', { deterministic: true }, (text) => wordHeads(typeof text === 'string' ? text : null));
  return db;
}

function statements(db: Connection): (sql: string) => Statement {
  const cache = new Map<string, Statement>();
  return (sql) => {
    let statement = cache.get(sql);
    if (!statement) {
      if (cache.size >= CACHED_STATEMENTS) cache.delete(cache.keys().next().value!);
      cache.set(sql, (statement = db.prepare(sql)));
    }
    return statement;
  };
}

/** One writer at a time: grouped writes and transactions queue here. */
function createLock() {
  let tail: Promise<void> = Promise.resolve();
  return async (): Promise<() => void> => {
    let release!: () => void;
    const previous = tail;
    tail = new Promise((resolve) => (release = resolve));
    await previous;
    return release;
  };
}

/**
 * How a collection reaches a connection: reads directly, writes one at a time. A write of several
 * statements that must not half-happen (a new index, a clear) says `atomic`; a put's one data
 * statement that may fail (a duplicate key) is undone by SQLite alone.
 */
interface Access {
  read<R>(work: (scope: Scope) => R): R;
  write<R>(work: (scope: Scope) => R, atomic?: boolean): Promise<R>;
}

export function createSqliteReadStore(file: string, options: SqliteReadStoreOptions = {}): ReadStore {
  const busyMs = options.helper ? BUSY_WAIT_MS.helper : BUSY_WAIT_MS.store;
  const writer = open(file, PAGE_CACHE_KIB.writer, busyMs);
  // Its commits leave the log's checkpoints to a thread of their own (`startCheckpointer`).
  writer.pragma('wal_autocheckpoint = 0');
  const checkpointer = startCheckpointer(file, () => writer.open && writer.pragma('wal_autocheckpoint = 1000'));
  // While a transaction is open on the writer, reads outside it go through a second connection: WAL gives them the last commit.
  const reader = open(file, PAGE_CACHE_KIB.reader, busyMs);
  const lock = createLock();
  /**
   * SQLite's schema cookie: every change of the schema the store records comes with DDL, which changes it. Read with
   * a prepared statement: a read outside a write asks at every lookup, and `pragma()` prepares one each time.
   */
  const versionOf = ({ prepare }: Pick<Scope, 'prepare'>) => prepare('PRAGMA schema_version').pluck().get() as number;
  const writerPrepare = statements(writer);
  openLayout(writer);
  // The schema and its version as of one commit, read in one transaction: read apart, the version could count a
  // change another connection commits between the two, which `refresh` would then never load.
  const opened = writer.transaction(() => ({ version: versionOf({ prepare: writerPrepare }), schema: loadSchema(writer) }))();
  let knownVersion = opened.version;
  /** The writer's view, uncommitted changes of the schema included; `committed` is what the reader may use. */
  const writing: Scope = { db: writer, prepare: writerPrepare, schema: opened.schema };
  const readPrepare = statements(reader);
  let committed: Schema = writing.schema;

  /** Another process (the operator CLI) may have added collections or indexes: read them again when the schema changed. */
  const refresh = (scope: Pick<Scope, 'db' | 'prepare'>) => {
    const version = versionOf(scope);
    if (version === knownVersion) return;
    knownVersion = version;
    committed = writing.schema = loadSchema(scope.db);
  };
  /** Collections in a bulk load: no search index until their indexes are ensured again. */
  const deferred = new Set<string>();
  /** Collections searched as another is configured, ahead of taking its place (`prepareRename`). */
  const searchedAs = new Map<string, string>();
  let grouped = 0;
  let writes = 0;
  let failed: unknown = null;

  /** Refreshes the planner's statistics where tables grew or shrank; only between transactions. */
  const optimize = () => {
    writes = 0;
    if (options.helper) return;
    try {
      writer.pragma(`analysis_limit = ${ANALYSIS_ROWS}`);
      writer.pragma('optimize = 0x10002');
      // A connection loads statistics with the schema: the reader is told to load them again.
      reader.exec('ANALYZE sqlite_schema');
    } catch {
      // Statistics are a hint: a file busy with another process's writes keeps the old ones until next time.
    }
  };

  /**
   * Commits the writer's transaction. The schema's version is read before, in the transaction: read after, it could
   * already count another connection's change (another process or thread commits between two of our statements),
   * which `refresh` would then never load, and a write would make again what that change made.
   */
  const commit = () => {
    const version = versionOf(writing);
    writer.exec('COMMIT');
    checkpointer.committed();
    committed = writing.schema;
    knownVersion = version;
  };

  const commitGroup = () => {
    if (grouped === 0) return;
    grouped = 0;
    try {
      commit();
    } catch (error) {
      // Writes already acknowledged are lost: refuse later ones, so no checkpoint is committed past them.
      if (writer.inTransaction) writer.exec('ROLLBACK');
      writing.schema = committed;
      failed = error;
      return;
    }
    if (writes >= OPTIMIZE_EVERY_WRITES) optimize();
  };

  /**
   * A step on the writer, within the open transaction. Atomic steps get a savepoint of their own; others
   * do without, because a savepoint makes the search index flush its pending rows, one segment per write.
   */
  const step = <R>(work: (scope: Scope) => R, atomic = false): R => {
    writes++;
    if (!atomic) return work(writing);
    const before = writing.schema;
    try {
      return writer.transaction(() => work(writing))();
    } catch (error) {
      writing.schema = before;
      throw error;
    }
  };

  const grouping: Access = {
    // Reads see the group's writes: the writer holds them until it commits.
    read(work) {
      if (grouped > 0) return work(writing);
      refresh({ db: reader, prepare: readPrepare });
      return work({ db: reader, prepare: readPrepare, schema: committed });
    },
    async write(work, atomic) {
      const release = await lock();
      try {
        if (failed) throw failed;
        if (grouped === 0) {
          await checkpointer.room();
          writer.exec('BEGIN IMMEDIATE');
          refresh(writing);
          setImmediate(() =>
            void lock().then((done) => {
              try {
                commitGroup();
              } finally {
                done();
              }
            }),
          );
        }
        grouped++;
        const result = step(work, atomic);
        if (grouped >= GROUP_WRITES) commitGroup();
        return result;
      } finally {
        release();
      }
    },
  };

  function storeOn(access: Access, transaction: ReadStore['transaction']): ReadStore {
    const collections = new Map<string, Collection>();
    const collectionOn = <T extends Document>(name: string): Collection<T> => {
      const steps = collectionSteps<T>(name, () => (deferred.has(name) ? [] : (options.searchedFields?.(searchedAs.get(name) ?? name) ?? [])));
      return {
        findOne: async (filter) => access.read((scope) => steps.find(scope, filter, { limit: 1 })[0] ?? null),
        find: async (filter, findOptions) => access.read((scope) => steps.find(scope, filter, findOptions)),
        count: async (filter) => access.read((scope) => steps.count(scope, filter)),
        put: (document) => access.write((scope) => steps.put(scope, document)),
        bulkWrite: (writes) => access.write((scope) => steps.bulkWrite(scope, writes)),
        deleteOne: (id) => access.write((scope) => steps.deleteOne(scope, id)),
        insert: (document) => access.write((scope) => steps.insert(scope, document)),
        clear: () => access.write((scope) => steps.clear(scope), true),
        ensureIndex: (spec) => {
          // A collection loaded with its indexes deferred gets them all back, the search index too.
          deferred.delete(name);
          return access.write((scope) => steps.ensureIndex(scope, spec), true);
        },
        async deferIndexes() {
          deferred.add(name);
          const done = await access.write((scope) => steps.deferIndexes(scope), true).catch((error: unknown) => {
            deferred.delete(name);
            throw error;
          });
          if (!done) deferred.delete(name);
          return done;
        },
        explain: async (filter, findOptions) => access.read((scope) => steps.explain(scope, filter, findOptions)),
      };
    };
    return {
      collection<T extends Document>(name: string) {
        let collection = collections.get(name);
        if (!collection) collections.set(name, (collection = collectionOn(name)));
        return collection as unknown as Collection<T>;
      },
      transaction,
      renameCollection: async (from, to) => {
        await access.write((scope) => {
          scope.schema = renameCollection(scope.db, scope.schema, from, to);
        }, true);
        searchedAs.delete(from);
        // Its first step waits for the lock, which a transaction around the rename holds until it has committed.
        dropRetiredInSteps();
      },
      prepareRename,
      settle: async () => retiring,
      sameDocuments: async (a, b) => access.read((scope) => sameDocuments(scope, a, b)),
      async close() {},
    };
  }

  async function transaction<R>(work: (store: ReadStore) => Promise<R>): Promise<R> {
    const release = await lock();
    let open = true;
    const inside: Access = {
      read(read) {
        if (!open) throw new Error('This read-store transaction has ended');
        return read(writing);
      },
      async write(write, atomic) {
        if (!open) throw new Error('This read-store transaction has ended');
        return step(write, atomic);
      },
    };
    const store: ReadStore = storeOn(inside, (nested) => nested(store));
    try {
      commitGroup();
      if (failed) throw failed;
      await checkpointer.room();
      writer.exec('BEGIN IMMEDIATE');
      refresh(writing);
      const result = await work(store);
      commit();
      if (writes >= OPTIMIZE_EVERY_WRITES) optimize();
      return result;
    } catch (error) {
      if (writer.inTransaction) writer.exec('ROLLBACK');
      writing.schema = committed;
      throw error;
    } finally {
      open = false;
      release();
    }
  }

  /** Dropping the tables of collections renames replaced (`dropRetired`), one a step, while the store is open. */
  let retiring: Promise<void> | undefined;
  let closing = false;
  function dropRetiredInSteps(): void {
    if (retiring || closing || options.helper || !holdsRetired(writing.schema)) return;
    const step = (scope: Scope) => {
      const next = dropRetired(scope.db, scope.schema);
      if (next) scope.schema = next;
      return next !== null;
    };
    retiring = (async () => {
      try {
        while (!closing && (await alone(step)));
      } catch {
        // Another process holds the write lock past the busy timeout: what is left is dropped at the next open or rename.
      } finally {
        retiring = undefined;
      }
    })();
  }

  /** A step of `prepareRename`, alone in a transaction of its own; the event loop gets a turn after it. */
  const alone = async <R>(work: (scope: Scope) => R): Promise<R> => {
    const result = await transaction(async () => step(work));
    await new Promise((resume) => setImmediate(resume));
    return result;
  };

  /**
   * `from`'s search indexes, as `to` is searched, made empty with their triggers, then filled in steps of
   * SEARCH_BUILD_STEP documents and merged into one segment in steps of as many leaf pages; then each of `indexes`.
   * Every step is a transaction of its own: another writer waits a step (a fraction of a second; an index of a
   * million items about one), not the whole build.
   */
  async function prepareRename(from: string, to: string, indexes: readonly IndexSpec[]): Promise<void> {
    const paths = options.searchedFields?.(to) ?? [];
    searchedAs.set(from, to);
    deferred.delete(from);
    const added = await alone((scope) => {
      const schema = scope.schema.get(from);
      if (!schema) return [];
      scope.schema = new Map([...scope.schema, [from, setSearch(scope.db, schema, paths, { fill: false })]]);
      return paths.filter((path) => !schema.search.includes(path));
    });
    for (const path of added) {
      for (let after: number | null = 0; after !== null; ) {
        const done: number = after;
        after = await alone((scope) => fillSearch(scope.db, from, path, done, SEARCH_BUILD_STEP.documents));
      }
      for (let first = true; await alone((scope) => mergeSearch(scope.db, from, path, SEARCH_BUILD_STEP.pages, first)); first = false);
    }
    for (const index of indexes) {
      await transaction((store) => store.collection(from).ensureIndex(index));
      await new Promise((resume) => setImmediate(resume));
    }
  }

  optimize();
  const store = storeOn(grouping, transaction);
  // A process that stopped before it had dropped them all.
  dropRetiredInSteps();
  return {
    ...store,
    file,
    async close() {
      closing = true;
      await retiring;
      const release = await lock();
      commitGroup();
      reader.close();
      writer.close();
      // The last connection to close copies the log into the file and removes it.
      await checkpointer.close();
      release();
    },
  };
}
