// SQLite files in write-ahead-log mode, which several processes may open at once.
import type { Database } from 'better-sqlite3';

const TRIES = 100;
const PAUSE_MS = 50;

/**
 * Switches a file to write-ahead logging (a no-op once it is). On a new file that takes its exclusive lock, and two
 * processes opening it at once (the API and the worker) would deadlock upgrading their shared locks: SQLite answers
 * one of them SQLITE_BUSY at once instead of waiting, so it pauses and tries again.
 */
export function useWriteAheadLog(db: Database): void {
  for (let tried = 1; ; tried++) {
    try {
      db.pragma('journal_mode = WAL');
      return;
    } catch (error) {
      if ((error as { code?: unknown }).code !== 'SQLITE_BUSY' || tried >= TRIES) throw error;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, PAUSE_MS);
    }
  }
}
