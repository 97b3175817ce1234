// Threads of the program (a rebuild's shares, the levelling of sounds): started from the build in dist/ or from the
// sources, and taking turns at the one writer of a SQLite file.
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';

/** Set on the first line of each bundle in dist/ (scripts/build.ts): the bundle's own address. */
declare const __bundleUrl: string | undefined;

/**
 * Starts the thread `name` (an entry point of scripts/build.ts, whose source is `source`): built beside the bundle
 * when the service runs from dist/, else its source, which the thread loads through tsx (registered in the thread:
 * Node 20 does not carry the hooks of `--import` into it).
 */
export function startThread(name: string, source: URL, workerData?: unknown): Worker {
  if (typeof __bundleUrl === 'string') return new Worker(new URL(`./${name}.js`, __bundleUrl), { workerData });
  const tsx = JSON.stringify(import.meta.resolve('tsx/esm/api'));
  const program = JSON.stringify(source.href);
  return new Worker(`import(${tsx}).then(({ register }) => { register(); return import(${program}); });`, { eval: true, workerData });
}

/** Threads of a rebuild's bulk load beyond this gain little: they share the read store's one writer. */
const MOST_SHARE_THREADS = 4;

/** The threads a rebuild's bulk load runs on unless told: one per core, at most MOST_SHARE_THREADS. */
export const shareThreads = () => Math.min(availableParallelism(), MOST_SHARE_THREADS);

/** One cell shared by threads that write one SQLite file: 1 while one of them writes. */
export const turnCell = () => new Int32Array(new SharedArrayBuffer(4));

/**
 * The threads write one at a time, taking turns through a shared cell: a thread waiting for its turn wakes as soon
 * as the one before has committed, where SQLite's busy handler would sleep on in growing steps (up to 100 ms).
 */
export function turns(cell: Int32Array) {
  return async <R>(write: () => Promise<R>): Promise<R> => {
    while (Atomics.compareExchange(cell, 0, 0, 1) !== 0) Atomics.wait(cell, 0, 1);
    try {
      return await write();
    } finally {
      Atomics.store(cell, 0, 0);
      Atomics.notify(cell, 0, 1);
    }
  };
}
