// Online rebuild of read models: one pass over the log into shadow collections while the service keeps serving the
// live ones, then the shadows swapped in atomically with their checkpoints (docs/read-store.md, "Rebuilds").
import { isDeepStrictEqual } from 'node:util';
import type { EventStore } from '../infrastructure/eventStore/port.ts';
import { inTransaction, type Document, type ReadStore } from '../infrastructure/readStore/port.ts';
import { CHECKPOINTS, type BulkLoaded, type Projection } from '../../projections/projection.ts';
import { catchUp, readyForBulkLoad, startProjections } from '../../projections/runner.ts';
import { shadowOf, shadowsWithTransactions } from './shadows.ts';
import { replaySplit, type SplitOptions } from './splitReplay.ts';

export interface RebuildProgress {
  /** Log position reached, and the log's last position when the rebuild began. */
  position: number;
  head: number;
  startedMs: number;
}

export interface RebuiltProjection {
  name: string;
  position: number;
  counts: Record<string, number>;
  /** The shadow held the same documents as the live read model just before the swap (false while writes go on). */
  equal: boolean;
  /** What its bulk load counted (`Projection.bulkLoad`), when it had one. */
  bulkLoaded: BulkLoaded | null;
  /** From the start of the rebuild to the swap, after which the service reads the rebuilt collections. */
  secondsToSwap: number;
}

type Checkpoint = { _id: string; position: number };

/**
 * The store under the shadows' names, whose transactions can be held back: the swap stops the shadow runner
 * between two batches, so the position it checks is the one the shadows hold.
 */
function shadowStore(read: ReadStore) {
  let gate: Promise<void> = Promise.resolve();
  let open = () => {};
  let fail: (error: Error) => void = () => {};
  let inFlight: Promise<unknown> = Promise.resolve();
  const shadows = shadowsWithTransactions(read);
  const store: ReadStore = {
    ...shadows,
    transaction: async (work) => {
      await gate;
      const running = shadows.transaction(work);
      inFlight = running.catch(() => undefined);
      return running;
    },
  };
  return {
    store,
    /** Resolves once no shadow batch runs and none can start until `resume` or `stop`. */
    async hold() {
      gate = new Promise<void>((resolve, reject) => {
        open = resolve;
        fail = reject;
      });
      gate.catch(() => undefined);
      await inFlight;
    },
    resume: () => open(),
    stop: () => fail(new Error('the rebuild swapped its shadows in')),
  };
}

/** Both collections, by the store where it can compare them itself, else page by page in `_id` order, without holding either in memory. */
async function sameDocuments(read: ReadStore, a: string, b: string): Promise<boolean> {
  if (read.sameDocuments) return read.sameDocuments(a, b);
  const page = async (name: string, after: string | null) =>
    read.collection<Document>(name).find(after === null ? {} : { _id: { $gt: after } }, { sort: { _id: 1 }, limit: 500 });
  for (let after: string | null = null; ; ) {
    const [left, right]: [Document[], Document[]] = await Promise.all([page(a, after), page(b, after)]);
    if (!isDeepStrictEqual(left, right)) return false;
    if (left.length === 0) return true;
    after = left.at(-1)!._id;
  }
}

/**
 * Builds the projections' collections from position 0 into shadows (`<name>~rebuild`), one pass over the log for
 * all of them, then swaps them in: on SQLite in one transaction that also moves the checkpoints, and only when no
 * live runner has passed the shadows (else the shadows catch up and it tries again), so a running service's runner
 * continues on the new collections from its own position, re-applying at most what the shadows already hold.
 */
export async function rebuildOnline(
  events: EventStore,
  read: ReadStore,
  projections: Projection[],
  options: { progress?: (progress: RebuildProgress) => void; log?: (message: string) => void; split?: Pick<SplitOptions, 'threads' | 'from'> } = {},
): Promise<RebuiltProjection[]> {
  const collections = projections.flatMap((projection) => Object.entries(projection.collections));
  for (const name of [...collections.map(([name]) => name), CHECKPOINTS]) await read.collection(shadowOf(name)).clear();
  const head = await events.headPosition();
  const startedMs = Date.now();
  const shadow = shadowStore(read);
  const progress = (position: number) => options.progress?.({ position, head, startedMs });
  const bulkLoaded = new Map<string, BulkLoaded>();
  // A long log is loaded in bulk by projections that can, else on every core where the stores allow; the runner
  // then goes on from where that stopped.
  if (projections.length > 0 && projections.every(({ bulkLoad }) => bulkLoad)) {
    await readyForBulkLoad(shadow.store, projections);
    for (const projection of projections) bulkLoaded.set(projection.name, await projection.bulkLoad!(events, shadow.store, head, progress));
  } else await replaySplit(events, read, shadow.store, projections, head, { ...options.split, log: options.log, onPassed: progress });
  const runner = await startProjections(events, shadow.store, projections, {
    keepIndexesDeferred: true,
    log: options.log,
    onProgress: progress,
  });
  const live = read.collection<Checkpoint>(CHECKPOINTS);
  const shadowCheckpoints = read.collection<Checkpoint>(shadowOf(CHECKPOINTS));
  let equal: Record<string, boolean> | undefined;
  let secondsToSwap = 0;
  for (;;) {
    await catchUp(events, runner);
    await shadow.hold();
    // Once, at the first try: later tries are quick, so that a live runner taking writes does not pass them each time.
    if (!equal) {
      equal = {};
      for (const [name] of collections) equal[name] = await sameDocuments(read, name, shadowOf(name));
      // What the swap would build under the write lock (indexes, search indexes) is built now, in steps between
      // which the live runners write; the shadows then catch up with what was written meanwhile, keeping it current.
      if (read.prepareRename) {
        options.log?.("building the shadows' indexes before the swap");
        for (const [name, indexes] of collections) await read.prepareRename(shadowOf(name), name, indexes);
        shadow.resume();
        continue;
      }
    }
    const swapStarted = performance.now();
    const swapped = await inTransaction(read, async (transaction) => {
      const checkpoints = transaction.collection<Checkpoint>(CHECKPOINTS);
      for (const { name } of projections) {
        if (((await checkpoints.findOne({ _id: name }))?.position ?? 0) > runner.position) return false;
      }
      for (const [name, indexes] of collections) {
        if (transaction.renameCollection) await transaction.renameCollection(shadowOf(name), name);
        for (const index of indexes) await transaction.collection(name).ensureIndex(index);
      }
      for (const { name } of projections) {
        const at = (await transaction.collection<Checkpoint>(shadowOf(CHECKPOINTS)).findOne({ _id: name }))?.position ?? runner.position;
        await checkpoints.put({ _id: name, position: at });
      }
      return true;
    });
    if (swapped) {
      options.log?.(`swapped the shadows in: ${((performance.now() - swapStarted) / 1000).toFixed(1)} s in one transaction`);
      secondsToSwap = (Date.now() - startedMs) / 1000;
      break;
    }
    // A live runner passed the shadows meanwhile: they catch up again before the next try.
    shadow.resume();
  }
  const closing = runner.close();
  shadow.stop();
  await closing;
  await shadowCheckpoints.clear();
  if (read.settle) {
    const started = performance.now();
    await read.settle();
    options.log?.(`dropped the replaced read models: ${((performance.now() - started) / 1000).toFixed(1)} s, a few thousand rows at a time`);
  }
  const results: RebuiltProjection[] = [];
  for (const projection of projections) {
    const names = Object.keys(projection.collections);
    const counts = Object.fromEntries(await Promise.all(names.map(async (name) => [name, await read.collection(name).count({})] as const)));
    const position = (await live.findOne({ _id: projection.name }))?.position ?? runner.position;
    results.push({ name: projection.name, position, counts, equal: names.every((name) => equal?.[name]), bulkLoaded: bulkLoaded.get(projection.name) ?? null, secondsToSwap });
  }
  return results;
}
