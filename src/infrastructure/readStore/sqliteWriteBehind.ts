// A thread that commits a read store's batches of plain upserts and deletes on a connection of its own, so that
// SQLite's work on them runs on the other core while the projections go on with the next batch
// (docs/read-store.md, "Writes behind").
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/**
 * One row's write, as SQL the store made for its collection: `first` runs with the key values and gives the row id
 * (an upsert of the key row, or the delete of it), and `then`, when it gave one, runs with the row id and the
 * document's JSON text (its upsert) or with the row id alone (its delete). The document goes over as it is: the
 * thread makes the JSON, so that work is off the thread that projects too (copying it over costs less).
 */
export type RowWrite = [first: string, keys: unknown[], then: string, document?: object];

/**
 * The thread's whole program: each message is a batch (its statements' SQL, and rows naming them by index), committed
 * in one transaction or, when a statement fails, rolled back whole; the answer is null or the failure. Key values that
 * are blobs arrive as Uint8Arrays.
 */
const PROGRAM = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file);
db.pragma('journal_mode = WAL');
db.pragma('synchronous = NORMAL');
db.pragma('wal_autocheckpoint = 0');
db.pragma('cache_size = -' + workerData.cacheKib);
const statements = new Map();
const prepare = (sql) => {
  let statement = statements.get(sql);
  if (!statement) statements.set(sql, (statement = db.prepare(sql)));
  return statement;
};
const bound = (value) => (value instanceof Uint8Array ? Buffer.from(value.buffer, value.byteOffset, value.byteLength) : value);
parentPort.on('message', (batch) => {
  if (batch === 'close') {
    db.close();
    parentPort.close();
    return;
  }
  try {
    db.exec('BEGIN IMMEDIATE');
    const sql = batch.sql.map((text) => prepare(text));
    for (const [first, keys, then, document] of batch.rows) {
      const rid = sql[first].pluck().get(...keys.map(bound));
      if (rid === undefined) continue;
      if (document === undefined) sql[then].run(rid);
      else sql[then].run(rid, JSON.stringify(document));
    }
    db.exec('COMMIT');
    parentPort.postMessage(null);
  } catch (error) {
    if (db.inTransaction) db.exec('ROLLBACK');
    parentPort.postMessage({ message: String(error && error.message), code: error && error.code });
  }
});
`;

/** The thread refused a batch (nothing of it was committed), or it stopped. */
export class WriteBehindFailed extends Error {
  constructor(message: string, readonly code?: string) {
    super(message);
  }
}

export interface WriteBehind {
  /** Resolves once the batch has committed; rejects, having committed nothing of it, when a statement failed. One at a time. */
  commit(batch: RowWrite[]): Promise<void>;
  /** False once the thread has stopped: the store writes on its own connection again. */
  readonly alive: boolean;
  close(): Promise<void>;
}

export function startWriteBehind(file: string, cacheKib: number): WriteBehind {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(PROGRAM, { eval: true, workerData: { file, driver, cacheKib } });
  worker.unref();
  let alive = true;
  let pending: { resolve: () => void; reject: (error: Error) => void } | null = null;
  const stop = (error?: unknown) => {
    alive = false;
    pending?.reject(new WriteBehindFailed(`the store's writer thread stopped${error instanceof Error ? `: ${error.message}` : ''}`));
    pending = null;
  };
  worker.on('message', (failure: { message: string; code?: string } | null) => {
    const settled = pending;
    pending = null;
    if (!settled) return;
    if (failure) settled.reject(new WriteBehindFailed(failure.message, failure.code));
    else settled.resolve();
  });
  worker.on('error', stop);
  worker.on('exit', () => stop());

  return {
    get alive() {
      return alive;
    },
    commit(batch) {
      if (!alive) return Promise.reject(new WriteBehindFailed("the store's writer thread stopped"));
      if (pending) return Promise.reject(new Error('a batch is already being written behind'));
      // Each statement's SQL goes over once, not once a row.
      const sql = new Map<string, number>();
      const index = (text: string) => sql.get(text) ?? (sql.set(text, sql.size), sql.size - 1);
      const rows = batch.map(([first, keys, then, document]) => [index(first), keys, index(then), document]);
      return new Promise<void>((resolve, reject) => {
        pending = { resolve, reject };
        // Held while it writes: a process whose last work is this batch waits for its commit.
        worker.ref();
        worker.postMessage({ sql: [...sql.keys()], rows });
      }).finally(() => worker.unref());
    },
    async close() {
      if (!alive) return;
      alive = false;
      const exited = new Promise<void>((resume) => worker.once('exit', () => resume()));
      worker.ref();
      worker.postMessage('close');
      await exited;
    },
  };
}
