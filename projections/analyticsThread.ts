// A thread of an analytics rebuild's bulk load (`loadOnThreads` in analytics.ts): the player events of a share of the
// content items and ads counted, their documents written into the rebuild's shadows in turns with the other threads,
// and the projects' sums of its content's hours sent back.
import { workerData } from 'node:worker_threads';
import { serializeAhead } from '../src/infrastructure/readStore/sqliteCollection.ts';
import { turns } from '../src/infrastructure/threads.ts';
import { shadowsWithTransactions } from '../src/operations/shadows.ts';
import { runShare } from '../src/operations/shareThreads.ts';
import { loadShare, type AnalyticsTask, type ShareLoaded } from './analytics.ts';

const task = workerData as AnalyticsTask;

runShare(task, async (events, read, passed): Promise<ShareLoaded> => {
  // The shadows, a transaction of the store at a time; the projects' time zones are read from the live collections.
  const shadows = shadowsWithTransactions(read);
  // Each step's JSON made before its turn: the turns at the one writer are most of the threads' writing.
  const writing = { turn: turns(task.writing), ahead: serializeAhead };
  const { counted, projects } = await loadShare(events, shadows, read, task.until, { bulkEvents: task.bulkEvents, days: task.days, share: task.share, writing }, passed);
  return { counted, projects: projects.plain() };
});
