// A rebuild's bulk load on several threads: each takes a share of the log's streams (every event of a stream goes to
// one thread, in order) through the projections into the shadows, so that the projections' work runs on every core
// (docs/read-store.md, "Rebuilds").
import type { EventStore } from '../infrastructure/eventStore/port.ts';
import { inTransaction, type ReadStore } from '../infrastructure/readStore/port.ts';
import { CHECKPOINTS, type Projection } from '../../projections/projection.ts';
import { QUARANTINE_STREAM } from '../../projections/quarantine.ts';
import { readyForBulkLoad } from '../../projections/runner.ts';
import { shareThreads, startThread, turnCell } from '../infrastructure/threads.ts';
import { sharesDone } from './shareThreads.ts';
import type { ShareTask } from './splitReplayWorker.ts';

/** Below this many events one thread is about as quick: starting threads (their modules, their connections) costs part of a second. */
export const SPLIT_FROM_EVENTS = 20_000;
/**
 * Positions of the log a thread replays per transaction: with 2 threads at 100,000 items 5 % faster than 4,000 (half
 * the commits and checkpoints) for about 60 MB more at the peak (each thread holds a step's events and documents);
 * 16,000 are no faster.
 */
const STEP_POSITIONS = 8_000;
const overlaps = (a: string, b: string) => a.startsWith(b) || b.startsWith(a);

/**
 * Why the log up to `until` cannot be replayed split, or null when it can: both stores are local files, a
 * projection can split, no other projection reads streams of a split one's, and nothing is quarantined (a parked
 * stream's later events must wait for it, which the runner alone keeps track of).
 */
async function whyNot(events: EventStore, read: ReadStore, projections: Projection[], until: number, from: number, threads: number): Promise<string | null> {
  if (threads < 2) return `${threads} thread${threads === 1 ? '' : 's'} to run on`;
  if (until < from) return `${until.toLocaleString('en')} events, fewer than ${from.toLocaleString('en')}`;
  if (!events.readShare || !events.file || !read.file) return 'the stores are not local files';
  const shared = projections.filter(({ split }) => split);
  if (shared.length === 0) return 'no projection splits';
  if (projections.some((one) => !one.split && shared.some((other) => overlaps(one.streamPrefix, other.streamPrefix)))) return 'projections share streams';
  if ((await events.streamRevision(QUARANTINE_STREAM)) >= 0) return 'the log has a quarantine';
  return null;
}

export interface SplitOptions {
  /** Threads; by default one per core, at most 4 (`shareThreads`). */
  threads?: number;
  /** The fewest events worth splitting (SPLIT_FROM_EVENTS). */
  from?: number;
  onPassed?: (position: number) => void;
  log?: (message: string) => void;
}

/**
 * Replays the log up to `until` into the empty shadows of `projections` (`shadows`, the shadow names of `read`),
 * split among threads; then writes what depends on several streams (`SplitReplay.merge`) and the shadows'
 * checkpoints at `until`, so a runner on the shadows goes on from there. False when it did not (see `whyNot`, or a
 * thread failed): the shadows are then empty again, for a runner to load from the start.
 */
export async function replaySplit(events: EventStore, read: ReadStore, shadows: ReadStore, projections: Projection[], until: number, options: SplitOptions = {}): Promise<boolean> {
  const threads = options.threads ?? shareThreads();
  const log = options.log ?? (() => undefined);
  const reason = await whyNot(events, read, projections, until, options.from ?? SPLIT_FROM_EVENTS, threads);
  if (reason) {
    log(`replaying on one thread: ${reason}`);
    return false;
  }
  const collections = projections.flatMap((projection) => Object.keys(projection.collections));
  // The threads find every collection made, and the tables an earlier rebuild retired dropped: only the threads
  // write while they run, in turns.
  await readyForBulkLoad(shadows, projections);
  await read.settle?.();
  log(`replaying on ${threads} threads, each a share of the streams`);
  const writing = turnCell();
  const workers = Array.from({ length: threads }, (_, index) => {
    const task: ShareTask = {
      writing,
      eventsFile: events.file!,
      readFile: read.file!,
      projections: projections.map(({ name }) => name),
      share: { prefixes: projections.map(({ streamPrefix }) => streamPrefix), shared: projections.flatMap(({ split, streamPrefix }) => (split ? [streamPrefix] : [])), index, count: threads },
      until,
      step: STEP_POSITIONS,
    };
    return startThread('splitReplayWorker', new URL('./splitReplayWorker.ts', import.meta.url), task);
  });
  let tallies: Map<string, unknown>[];
  try {
    tallies = await sharesDone<Map<string, unknown>>(workers, options.onPassed);
  } catch (error) {
    log(`replaying on one thread: a thread failed (${error instanceof Error ? error.message : String(error)})`);
    for (const name of [...collections, CHECKPOINTS]) await shadows.collection(name).clear();
    return false;
  }
  await inTransaction(shadows, async (transaction) => {
    for (const { name, split } of projections) {
      if (split) await split.merge(transaction, tallies.map((tally) => tally.get(name)));
      await transaction.collection(CHECKPOINTS).put({ _id: name, position: until });
    }
  });
  return true;
}
