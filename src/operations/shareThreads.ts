// Threads that each take a share of a rebuild's bulk load (splitReplayWorker.ts, projections/analyticsThread.ts): in
// the thread, the work on its own connections to the local log and read store; in the parent, their progress and
// results.
import { parentPort, type Worker } from 'node:worker_threads';
import type { EventStore } from '../infrastructure/eventStore/port.ts';
import { createSqliteEventStore } from '../infrastructure/eventStore/sqlite.ts';
import type { ReadStore } from '../infrastructure/readStore/port.ts';
import { createSqliteReadStore } from '../infrastructure/readStore/sqlite.ts';

/** What a share's thread tells its parent: a position of the log passed, its result, or why it failed. */
export type ShareReport<T> = { kind: 'passed'; position: number } | { kind: 'done'; result: T } | { kind: 'failed'; error: string };

/**
 * In a share's thread: `work` on connections of its own to the log and the read store (SQLite files), closed after;
 * the positions it passes, then its result or its failure, sent to the parent.
 */
export function runShare<T>(files: { eventsFile: string; readFile: string }, work: (events: EventStore, read: ReadStore, passed: (position: number) => void) => Promise<T>): void {
  const report = (message: ShareReport<T>) => parentPort!.postMessage(message);
  const run = async () => {
    const events = createSqliteEventStore(files.eventsFile);
    const read = createSqliteReadStore(files.readFile, { helper: true });
    try {
      return await work(events, read, (position) => report({ kind: 'passed', position }));
    } finally {
      await read.close();
      await events.close();
    }
  };
  run().then(
    (result) => report({ kind: 'done', result }),
    (error: unknown) => report({ kind: 'failed', error: error instanceof Error ? error.message : String(error) }),
  );
}

/**
 * In the parent: the results of the shares' threads, in their order, once all are done; meanwhile the least position
 * all have passed, to `onPassed`. Rejects when one fails or exits before its result; the threads end either way.
 */
export async function sharesDone<T>(workers: Worker[], onPassed?: (position: number) => void): Promise<T[]> {
  const passed = new Array<number>(workers.length).fill(0);
  const done = workers.map(
    (worker, index) =>
      new Promise<T>((resolve, reject) => {
        worker.on('message', (report: ShareReport<T>) => {
          if (report.kind === 'passed') {
            passed[index] = report.position;
            onPassed?.(Math.min(...passed));
          } else if (report.kind === 'done') resolve(report.result);
          else reject(new Error(report.error));
        });
        worker.on('error', reject);
        worker.on('exit', (code) => reject(new Error(`thread ${index} exited with code ${code}`)));
      }),
  );
  try {
    return await Promise.all(done);
  } finally {
    await Promise.all(workers.map((worker) => worker.terminate()));
  }
}
