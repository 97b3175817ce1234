// Checkpoints of a read store's write-ahead log on a thread of their own, so that a commit never waits for the
// disk: SQLite would otherwise copy the log into the file, and wait for the disk to hold it, inside the commit
// that crossed 1,000 pages (docs/read-store.md, "Checkpoints").
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/**
 * Past this many frames (pages) in the log, the writer waits, before its next transaction, for the thread to
 * have copied them all: a transaction that begins on a log wholly copied writes it again from its start (SQLite's
 * "restart"), so the log stays about this size (64 MB of 4 KB pages) instead of growing for as long as writes come.
 */
const LOG_FRAMES = 16_384;
/**
 * The longest the writer waits for that. A reader of another connection holds back the frames written after its
 * snapshot for as long as it reads: the thread then answers once it has copied the rest, and the log grows
 * meanwhile, as it would with SQLite's own checkpoints.
 */
export const DRAIN_WAIT_MS = 1_000;

/**
 * The thread's whole program: on each message, a passive checkpoint (it copies what no reader still needs, syncs
 * the file before the log may be written over, and never blocks the writer), answered with the log's length.
 */
const PROGRAM = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file);
db.pragma('busy_timeout = 0');
parentPort.on('message', (message) => {
  if (message === 'close') {
    db.close();
    parentPort.close();
    return;
  }
  let log = -1;
  try {
    log = db.pragma('wal_checkpoint(PASSIVE)')[0].log;
  } catch {}
  parentPort.postMessage(log);
});
`;

export interface Checkpointer {
  /** A transaction committed: the thread copies the log when it is free. */
  committed(): void;
  /** Resolves when the writer may begin a transaction: at once, unless the log is long (see LOG_FRAMES). */
  room(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Starts the thread for `file`; `fallBack` runs if it stops (the writer then checkpoints in its commits again,
 * as SQLite does by default).
 */
export function startCheckpointer(file: string, fallBack: () => void): Checkpointer {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(PROGRAM, { eval: true, workerData: { file, driver } });
  worker.unref();
  let alive = true;
  let frames = 0;
  /** Messages sent and not answered; a commit while one is out is folded into the next. */
  let out = 0;
  let again = false;
  let answered: (() => void)[] = [];
  const stop = () => {
    if (!alive) return;
    alive = false;
    fallBack();
    for (const resume of answered.splice(0)) resume();
  };
  const send = () => {
    out++;
    worker.postMessage('checkpoint');
  };
  worker.on('message', (log: number) => {
    out--;
    if (log >= 0) frames = log;
    if (again && out === 0) {
      again = false;
      send();
    }
    if (out === 0) for (const resume of answered.splice(0)) resume();
  });
  worker.on('error', stop);
  worker.on('exit', stop);

  return {
    committed() {
      if (!alive) return;
      if (out > 0) again = true;
      else send();
    },
    async room() {
      if (!alive || frames < LOG_FRAMES) return;
      // The last checkpoint sent may have started before the last commit: one more after it.
      again = false;
      const drained = new Promise<void>((resume) => answered.push(resume));
      if (out > 0) again = true;
      else send();
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([drained, new Promise<void>((resume) => (timer = setTimeout(resume, DRAIN_WAIT_MS)))]);
      clearTimeout(timer);
      frames = 0;
    },
    async close() {
      if (!alive) return;
      alive = false;
      answered = [];
      const exited = new Promise<void>((resume) => worker.once('exit', () => resume()));
      // Held until it has exited: a process with nothing else to do would otherwise end inside this wait.
      worker.ref();
      worker.postMessage('close');
      await exited;
    },
  };
}
