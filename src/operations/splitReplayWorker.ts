// A thread of a split replay (splitReplay.ts): its share of the log's streams through the projections, into the
// rebuild's shadow collections, a transaction per step of the log; what depends on several streams is counted and
// sent back when it is done.
import { workerData } from 'node:worker_threads';
import type { EventStore, LogShare } from '../infrastructure/eventStore/port.ts';
import { inTransaction, type ReadStore } from '../infrastructure/readStore/port.ts';
import { serializeAhead } from '../infrastructure/readStore/sqliteCollection.ts';
import { createBatchStore } from '../../projections/batchStore.ts';
import { allProjections } from '../../projections/index.ts';
import { turns } from '../infrastructure/threads.ts';
import { shadowsOf } from './shadows.ts';
import { runShare } from './shareThreads.ts';

export interface ShareTask {
  /** One cell shared by the threads: 1 while one of them writes (`turns`). */
  writing: Int32Array;
  eventsFile: string;
  readFile: string;
  projections: string[];
  share: LogShare;
  /** The last position replayed, and how many positions a step takes. */
  until: number;
  step: number;
}

async function replayShare({ writing, projections: names, share, until, step }: ShareTask, events: EventStore, read: ReadStore, passed: (position: number) => void): Promise<Map<string, unknown>> {
  const inTurn = turns(writing);
  const projections = allProjections.filter(({ name }) => names.includes(name));
  const tallies = new Map(projections.flatMap(({ name, split }) => (split ? [[name, split.tally()] as const] : [])));
  // The shadows were empty, a split projection reads only its own streams' documents, and the streams of the others
  // all go to thread 0, which writes all of their documents: what this thread has not written is not there for it
  // to read, and its lookups of it need no query.
  const onlyHolds = new Map<string, Set<string>>();
  for (let after = 0; after < until; after += step) {
    const to = Math.min(after + step, until);
    // Documents are read from what is committed (this thread's own streams: no other thread writes them) and
    // written at the end of the step, so the write lock is held only while they are.
    const batch = createBatchStore(shadowsOf(read), { onlyHolds });
    for (const event of await events.readShare!(after, to, share)) {
      for (const projection of projections) {
        if (!event.stream.startsWith(projection.streamPrefix)) continue;
        const { split } = projection;
        await (split ? split.apply(event, batch, tallies.get(projection.name)) : projection.apply(event, batch));
      }
    }
    // Their JSON made first: the threads' turns at the one writer are most of a split replay's time.
    serializeAhead(batch.held());
    // The stores answer synchronously, so a step is all microtasks; a turn of the event loop, once a step, lets the
    // store's checkpoint thread's answers be read (else the write-ahead log grows for as long as the replay runs:
    // 1 GB at 100,000 items), and commits the group a query other than by `_id` wrote the batch's held documents
    // in, so that this thread does not hold the write lock while it waits for its turn.
    await new Promise((resume) => setImmediate(resume));
    await inTurn(() => inTransaction(read, (transaction) => batch.flush(shadowsOf(transaction))));
    passed(to);
  }
  return tallies;
}

const task = workerData as ShareTask;
runShare(task, (events, read, passed) => replayShare(task, events, read, passed));
