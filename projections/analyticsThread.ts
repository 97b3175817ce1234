// A thread of an analytics rebuild's bulk load (`loadOnThreads` in analytics.ts): the player events of a share of the
// content items and ads counted, their documents written into the rebuild's shadows in turns with the other threads,
// and the projects' sums of its content's hours sent back.
import { parentPort, workerData } from 'node:worker_threads';
import { createSqliteEventStore } from '../src/infrastructure/eventStore/sqlite.ts';
import { inTransaction, type ReadStore } from '../src/infrastructure/readStore/port.ts';
import { createSqliteReadStore } from '../src/infrastructure/readStore/sqlite.ts';
import { serializeAhead } from '../src/infrastructure/readStore/sqliteCollection.ts';
import { turns } from '../src/infrastructure/threads.ts';
import { shadowsOf } from '../src/operations/shadows.ts';
import { loadShare, type AnalyticsReport, type AnalyticsTask, type ShareLoaded } from './analytics.ts';

const report = (message: AnalyticsReport) => parentPort!.postMessage(message);

async function countShare(task: AnalyticsTask): Promise<ShareLoaded> {
  const events = createSqliteEventStore(task.eventsFile);
  const read = createSqliteReadStore(task.readFile, { helper: true });
  // The shadows, a transaction of the store at a time; the projects' time zones are read from the live collections.
  const shadows: ReadStore = { ...shadowsOf(read), transaction: (work) => inTransaction(read, (transaction) => work(shadowsOf(transaction))) };
  try {
    // Each step's JSON made before its turn: the turns at the one writer are most of the threads' writing.
    const writing = { turn: turns(task.writing), ahead: serializeAhead };
    const options = { bulkEvents: task.bulkEvents, days: task.days, share: task.share, writing };
    const { counted, projects } = await loadShare(events, shadows, read, task.until, options, (position) => report({ kind: 'passed', position }));
    return { counted, projects: projects.plain() };
  } finally {
    await read.close();
    await events.close();
  }
}

countShare(workerData as AnalyticsTask).then(
  (loaded) => report({ kind: 'done', loaded }),
  (error: unknown) => report({ kind: 'failed', error: error instanceof Error ? error.message : String(error) }),
);
